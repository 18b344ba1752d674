/* schema_set.c — a set of package schemas keyed by package name, filled from files and directories
 * (`--schema DIR`), keeping the newest version of each package (see schema.h). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/vec.h"
#include "specs/schema.h"

struct schema_set {
    schema_package_t **pkgs;
    bool *borrowed;                /* owned by someone else (a provider's cache): never freed here */
    size_t len, cap, cap_borrowed; /* the two arrays grow together, by the same rule */
};

schema_set_t *schema_set_new(void) {
    schema_set_t *set = calloc(1, sizeof *set);
    if (!set) abort();
    return set;
}

void schema_set_free(schema_set_t *set) {
    if (!set) return;
    for (size_t i = 0; i < set->len; i++)
        if (!set->borrowed[i]) schema_free(set->pkgs[i]);
    free(set->pkgs);
    free(set->borrowed);
    free(set);
}

/* Compares semantic versions (a leading `v` allowed): numeric major.minor.patch, then a release
 * sorts after any of its pre-releases, and pre-releases compare as text. A missing version is
 * older than any version. */
static int version_compare(const char *x, const char *y) {
    if (!x || !y) return (x != NULL) - (y != NULL);
    if (*x == 'v') x++;
    if (*y == 'v') y++;
    for (int part = 0; part < 3; part++) {
        char *ex, *ey;
        unsigned long long nx = strtoull(x, &ex, 10), ny = strtoull(y, &ey, 10);
        if (nx != ny) return nx < ny ? -1 : 1;
        x = *ex == '.' ? ex + 1 : ex;
        y = *ey == '.' ? ey + 1 : ey;
    }
    bool prex = *x == '-', prey = *y == '-';
    if (prex != prey) return prex ? -1 : 1;
    int c = strcmp(x, y);
    return (c > 0) - (c < 0);
}

static void set_add(schema_set_t *set, schema_package_t *pkg, bool borrowed) {
    if (!pkg) return;
    for (size_t i = 0; i < set->len; i++) {
        if (strcmp(set->pkgs[i]->name, pkg->name) != 0) continue;
        if (version_compare(pkg->version, set->pkgs[i]->version) > 0) {
            if (!set->borrowed[i]) schema_free(set->pkgs[i]);
            set->pkgs[i] = pkg;
            set->borrowed[i] = borrowed;
        } else if (!borrowed) {
            schema_free(pkg);
        }
        return;
    }
    set->pkgs = vec_grow(set->pkgs, &set->cap, set->len + 1, sizeof(schema_package_t *));
    set->borrowed = vec_grow(set->borrowed, &set->cap_borrowed, set->len + 1, sizeof *set->borrowed);
    set->borrowed[set->len] = borrowed;
    set->pkgs[set->len++] = pkg;
}

void schema_set_add(schema_set_t *set, schema_package_t *pkg) {
    set_add(set, pkg, false);
}

void schema_set_add_borrowed(schema_set_t *set, schema_package_t *pkg) {
    set_add(set, pkg, true);
}

schema_package_t *schema_set_get(schema_set_t *set, const char *package) {
    if (!set || !package) return NULL;
    for (size_t i = 0; i < set->len; i++) {
        if (strcmp(set->pkgs[i]->name, package) == 0) return set->pkgs[i];
    }
    return NULL;
}

size_t schema_set_count(const schema_set_t *set) {
    return set ? set->len : 0;
}

schema_package_t *schema_set_at(schema_set_t *set, size_t i) {
    return set && i < set->len ? set->pkgs[i] : NULL;
}

static bool has_suffix(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Whether a file met while scanning is a schema candidate: `schema.json` and versioned
 * `schema-<version>.json` anywhere, and any other `*.json` in the top directory. Bridge metadata
 * sits beside schemas and is never one, so it is not even read. */
static bool scan_candidate(const char *name, bool top) {
    if (!has_suffix(name, ".json")) return false;
    if (strncmp(name, "bridge-metadata", 15) == 0) return false;
    if (strcmp(name, "schema.json") == 0 || strncmp(name, "schema-", 7) == 0) return true;
    return top;
}

/* Whether a failed load failed only because the JSON is not a package schema (which, for a file that
 * is not named like a schema, just means it is some other JSON file). */
static bool only_not_a_schema(const diag_list_t *l) {
    for (const diag_t *d = l->head; d; d = d->next) {
        if (d->severity == DIAG_ERROR && d->code != DIAG_SCHEMA) return false;
    }
    return true;
}

static int cmp_name(const void *x, const void *y) {
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Loads the schemas below dir. A file named like a schema that fails to load is an error; another
 * top-level JSON file is skipped when it is valid JSON but not a schema, and an error when it is not
 * even valid JSON (it may be a broken schema). Returns the number of schemas added. */
static size_t scan_dir(schema_set_t *set, const char *dir, bool top, diag_list_t *diags, bool *ok) {
    DIR *d = opendir(dir);
    if (!d) {
        diag_add(diags, DIAG_ERROR, DIAG_IO, dir, NULL, "cannot read the directory: %s", strerror(errno));
        *ok = false;
        return 0;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        names = vec_grow(names, &cap, n + 1, sizeof *names);
        names[n] = strdup(e->d_name);
        if (!names[n]) abort();
        n++;
    }
    closedir(d);
    /* sorted, so the order schemas are added in (and diagnostics) does not depend on the file system */
    if (n) qsort(names, n, sizeof *names, cmp_name);
    size_t added = 0;
    for (size_t i = 0; i < n; i++) {
        char *path;
        if (asprintf(&path, "%s/%s", dir, names[i]) < 0) abort();
        struct stat st;
        if (stat(path, &st) == 0) {
            if (S_ISDIR(st.st_mode)) {
                added += scan_dir(set, path, false, diags, ok);
            } else if (S_ISREG(st.st_mode) && scan_candidate(names[i], top)) {
                bool keep = false;
                bool named = strcmp(names[i], "schema.json") == 0 || strncmp(names[i], "schema-", 7) == 0;
                diag_list_t local;
                diag_list_init(&local);
                schema_package_t *pkg = schema_load_file(path, &local);
                if (pkg) {
                    schema_set_add(set, pkg);
                    added++;
                } else if (named || !only_not_a_schema(&local)) {
                    *ok = false;
                    keep = true;
                }
                if (keep && diags)
                    diag_list_move(diags, &local);
                else
                    diag_list_free(&local);
            }
        }
        free(path);
        free(names[i]);
    }
    free(names);
    return added;
}

bool schema_set_add_path(schema_set_t *set, const char *path, diag_list_t *diags) {
    struct stat st;
    if (stat(path, &st) != 0) {
        diag_add(diags, DIAG_ERROR, DIAG_IO, path, NULL, "cannot read the schema path: %s", strerror(errno));
        return false;
    }
    if (S_ISDIR(st.st_mode)) {
        bool ok = true;
        size_t added = scan_dir(set, path, true, diags, &ok);
        if (ok && added == 0) {
            diag_add(diags, DIAG_ERROR, DIAG_SCHEMA, path, NULL,
                     "no Pulumi package schemas found in the directory (looked for schema.json files below it "
                     "and *.json schemas in it)");
            return false;
        }
        return ok;
    }
    schema_package_t *pkg = schema_load_file(path, diags);
    if (!pkg) return false;
    schema_set_add(set, pkg);
    return true;
}
