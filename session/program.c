/* program.c — the program a run splices its code into, judged against the run's workspace before
 * anything runs (session_program_fits in session.h): both front ends ask it, the command line for
 * --insert-into, the language server for the document it edits. */
#define _GNU_SOURCE /* memmem */
#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "base/fileio.h"
#include "base/vec.h"
#include "session/session.h"

/* The directory holding path, resolved (symbolic links, `..`); NULL when it cannot be. */
static char *program_dir(arena_t *a, const char *path) {
    char *abs = realpath(path, NULL);
    if (!abs) { /* not there yet: its directory */
        const char *slash = strrchr(path, '/');
        char *dir = slash ? arena_strndup(a, path, slash == path ? 1 : (size_t)(slash - path)) : arena_strdup(a, ".");
        abs = realpath(dir, NULL);
        if (!abs) return NULL;
        char *out = arena_strdup(a, abs);
        free(abs);
        return out;
    }
    char *slash = strrchr(abs, '/');
    if (slash) *(slash == abs ? slash + 1 : slash) = 0;
    char *out = arena_strdup(a, abs);
    free(abs);
    return out;
}

/* Whether two paths name the same file (both resolved). */
static bool same_file(const char *x, const char *y) {
    char *rx = realpath(x, NULL), *ry = realpath(y, NULL);
    bool same = rx && ry ? strcmp(rx, ry) == 0 : strcmp(x, y) == 0;
    free(rx);
    free(ry);
    return same;
}

/* The project of the file at path: the nearest Pulumi.yaml above it. False for a file in no project,
 * and where its project cannot be told (a Pulumi.json, which cimport does not read, or a project
 * file it cannot read): then the errors go into diags, or are dropped when diags is NULL. */
static bool file_project(arena_t *a, const char *path, workspace_t *pw, diag_list_t *diags) {
    char *dir = program_dir(a, path);
    diag_list_t quiet;
    diag_list_init(&quiet);
    bool found = dir && workspace_discover_in(a, dir, NULL, pw, diags ? diags : &quiet) && pw->have_project;
    diag_list_free(&quiet);
    return found;
}

/* Whether a file named base is the program's entry file that the runtime's language host runs:
 * Node's index.ts/index.js, Python's __main__.py, Pulumi YAML's Main.yaml/Main.json; for a compiled
 * runtime a source file of its language (Go's .go but a _test.go, C#'s .cs, Java's .java), of which
 * holds_run then picks the program's own. */
static bool runtime_entry(const char *runtime, const char *base) {
    const char *dot = strrchr(base, '.');
    size_t n = strlen(base);
    if (!strcmp(runtime, "nodejs")) return !strcmp(base, "index.ts") || !strcmp(base, "index.js");
    if (!strcmp(runtime, "python")) return !strcmp(base, "__main__.py");
    if (!strcmp(runtime, "go"))
        return dot && !strcmp(dot, ".go") && base[0] != '_' && !(n > 8 && !strcmp(base + n - 8, "_test.go"));
    if (!strcmp(runtime, "dotnet")) return dot && !strcmp(dot, ".cs");
    if (!strcmp(runtime, "java")) return dot && !strcmp(dot, ".java");
    if (!strcmp(runtime, "yaml"))
        return !strcmp(base, "Main.yaml") || !strcmp(base, "Main.yml") || !strcmp(base, "Main.json");
    return false;
}

static bool compiled_runtime(const char *runtime) {
    return !strcmp(runtime, "go") || !strcmp(runtime, "dotnet") || !strcmp(runtime, "java");
}

/* Whether w is in t[0, n) where no identifier character comes before it. A `.` may: the run is
 * often written qualified (`Pulumi.Deployment.RunAsync`, `com.pulumi.Pulumi.run`), and a call of
 * another class's method of the name counting too only refuses a file needlessly. */
static bool has_word(const char *t, size_t n, const char *w) {
    size_t wl = strlen(w);
    for (const char *k = t; (k = memmem(k, n - (size_t)(k - t), w, wl)) != NULL; k++)
        if (k == t || !(isalnum((unsigned char)k[-1]) || k[-1] == '_')) return true;
    return false;
}

/* Whether C# text declares a class deriving from Stack (`class MyStack : Stack`), which holds the
 * resources Deployment.RunAsync<MyStack>() runs. */
static bool cs_stack_class(const char *t, size_t n) {
    const char *end = t + n;
    for (const char *k = t; (k = memchr(k, ':', (size_t)(end - k))) != NULL; k++) {
        const char *b = k + 1;
        while (b < end && isspace((unsigned char)*b))
            b++;
        if (end - b >= 7 && !strncmp(b, "Pulumi.", 7)) b += 7;
        if (end - b >= 5 && !strncmp(b, "Stack", 5) && (end - b == 5 || !(isalnum((unsigned char)b[5]) || b[5] == '_')))
            return true;
    }
    return false;
}

/* Whether the source file at path holds a compiled program's run, the file whose loss loses the
 * program: Go's pulumi.Run (or its func main), C#'s Deployment.RunAsync (or Main) or a class deriving
 * from Stack, Java's Pulumi.run (or its main method). Another file compiled with it (a helper, a type)
 * holds none, and replacing it loses no resource of the program. Read from the text, so a comment
 * naming one counts too: a file then refused needlessly, never the other way round; a file that
 * cannot be read is taken for the program. */
static bool holds_run(arena_t *a, const char *path, const char *runtime) {
    size_t n;
    diag_list_t quiet; /* -o reports what cannot be written */
    diag_list_init(&quiet);
    const char *t = file_read_all(a, path, &n, &quiet);
    diag_list_free(&quiet);
    if (!t) return true;
    if (!strcmp(runtime, "go")) return has_word(t, n, "pulumi.Run(") || has_word(t, n, "func main(");
    if (!strcmp(runtime, "dotnet"))
        return has_word(t, n, "Deployment.Run") || has_word(t, n, "Main(") || cs_stack_class(t, n);
    return has_word(t, n, "Pulumi.run(") || has_word(t, n, "void main(");
}

/* Where the directory dir (resolved) stands to the program's directory main_path: *in_main, it is
 * that directory; *in_sources, a compiled runtime's build takes in its files — .NET's project
 * directory and below, Java's source tree below it (Maven's and Gradle's src/main/java/<package>/),
 * Go a package's own directory only. *root (when asked): main_path resolved, NULL if it cannot be. */
static void program_place(arena_t *a, const char *dir, const char *main_path, const char *runtime, const char **root,
                          bool *in_main, bool *in_sources) {
    char *rmain = realpath(main_path, NULL);
    size_t ml = rmain ? strlen(rmain) : 0;
    *in_main = dir && rmain && strcmp(dir, rmain) == 0;
    bool below = dir && rmain && ml > 1 && !strncmp(dir, rmain, ml) && dir[ml] == '/';
    *in_sources = *in_main || (below && strcmp(runtime, "go") != 0);
    if (root) *root = rmain ? arena_strdup(a, rmain) : NULL;
    free(rmain);
}

/* The entry package.json's "main" names in dir (a path in arena a), which Node's language host runs
 * (the program `require`s the directory) rather than index.ts/index.js; NULL when it names none. */
static const char *node_main_path(arena_t *a, const char *dir) {
    size_t n;
    diag_list_t quiet;
    diag_list_init(&quiet);
    const char *text = file_read_all(a, arena_sprintf(a, "%s/package.json", dir), &n, &quiet);
    diag_list_free(&quiet);
    cJSON *pkg = text ? cJSON_ParseWithLength(text, n) : NULL;
    const cJSON *main = cJSON_GetObjectItemCaseSensitive(pkg, "main");
    const char *path = cJSON_IsString(main) ? arena_sprintf(a, "%s/%s", dir, main->valuestring) : NULL;
    cJSON_Delete(pkg);
    return path;
}

/* Whether path is the entry package.json's "main" names in dir. */
static bool node_package_main(arena_t *a, const char *dir, const char *path) {
    const char *main = node_main_path(a, dir);
    return main && same_file(path, main);
}

bool session_file_is_program(arena_t *a, const char *path, workspace_t *pw, bool *project_file, diag_list_t *diags) {
    *project_file = false;
    struct stat st;
    if (!path || stat(path, &st) != 0 || !S_ISREG(st.st_mode) || !file_project(a, path, pw, diags)) return false;
    /* A symbolic link is the file it leads to, which a write through it replaces: its name too. */
    char *real = realpath(path, NULL);
    if (real) path = arena_strdup(a, real);
    free(real);
    if (same_file(path, pw->project_file)) return *project_file = true;
    const char *runtime = pw->project.runtime;
    if (!runtime) return false;
    /* The program: `main` (a file, or the directory its entry is in), else the project's directory. */
    const char *main_path = pw->project_dir;
    if (pw->project.main) {
        main_path = arena_sprintf(a, "%s/%s", pw->project_dir, pw->project.main);
        struct stat ms;
        if (stat(main_path, &ms) == 0 && S_ISREG(ms.st_mode)) return same_file(path, main_path);
    }
    if (!strcmp(runtime, "nodejs") && node_package_main(a, main_path, path)) return true;
    bool in_main, in_sources;
    program_place(a, program_dir(a, path), main_path, runtime, NULL, &in_main, &in_sources);
    const char *slash = strrchr(path, '/');
    if (!runtime_entry(runtime, slash ? slash + 1 : path)) return false;
    if (!compiled_runtime(runtime)) return in_main;
    return in_sources && holds_run(a, path, runtime);
}

/* The first file below dir, in name order and at most depth levels down (hidden directories and
 * build output skipped), that is the source file holding the runtime's run. */
static const char *find_run(arena_t *a, const char *dir, const char *runtime, int depth) {
    struct dirent **names;
    int n = scandir(dir, &names, NULL, alphasort);
    const char *found = NULL;
    for (int i = 0; i < n; i++) {
        const char *nm = names[i]->d_name;
        bool skip = nm[0] == '.' || !strcmp(nm, "target") || !strcmp(nm, "build") || !strcmp(nm, "bin") ||
                    !strcmp(nm, "obj") || !strcmp(nm, "node_modules");
        char *path = found || skip ? NULL : arena_sprintf(a, "%s/%s", dir, nm);
        struct stat st;
        if (path && stat(path, &st) == 0) {
            if (S_ISDIR(st.st_mode) && depth > 0)
                found = find_run(a, path, runtime, depth - 1);
            else if (S_ISREG(st.st_mode) && runtime_entry(runtime, nm) && holds_run(a, path, runtime))
                found = path;
        }
        free(names[i]);
    }
    if (n >= 0) free(names);
    return found;
}

const char *session_java_program(arena_t *a, const workspace_t *w) {
    if (!w->have_project || !w->project.runtime || strcmp(w->project.runtime, "java") != 0) return NULL;
    const char *dir = w->project.main ? arena_sprintf(a, "%s/%s", w->project_dir, w->project.main) : w->project_dir;
    return find_run(a, dir, "java", 8);
}

/* path (resolved) as the user names it from the working directory: relative below it, else whole. */
static const char *below_cwd(arena_t *a, const char *path) {
    char *cwd = realpath(".", NULL);
    size_t n = cwd ? strlen(cwd) : 0;
    const char *shown = cwd && n > 1 && !strncmp(path, cwd, n) && path[n] == '/' ? path + n + 1 : path;
    free(cwd);
    return arena_strdup(a, shown);
}

/* Whether base is a stack configuration's name, Pulumi.<stack>.yaml (or .yml). */
static bool stack_config_name(const char *base) {
    size_t n = strlen(base);
    if (strncmp(base, "Pulumi.", 7) != 0) return false;
    size_t ext = n >= 5 && !strcmp(base + n - 5, ".yaml") ? 5 : n >= 4 && !strcmp(base + n - 4, ".yml") ? 4 : 0;
    return ext && n > 7 + ext; /* a stack's name between them */
}

/* The path a symbolic link leads to, followed even where it leads nowhere yet (a write through it
 * creates that file); path itself when it is no link. */
static const char *link_target(arena_t *a, const char *path) {
    for (int hops = 0; path && hops < 16; hops++) {
        struct stat ls;
        char to[PATH_MAX];
        ssize_t n;
        if (lstat(path, &ls) != 0 || !S_ISLNK(ls.st_mode) || (n = readlink(path, to, sizeof to - 1)) <= 0) break;
        to[n] = 0;
        const char *slash = strrchr(path, '/');
        path =
            to[0] == '/' || !slash ? arena_strdup(a, to) : arena_sprintf(a, "%.*s/%s", (int)(slash - path), path, to);
    }
    return path;
}

/* Whether dir (resolved, below the program's directory root) is one the build of a compiled program whose
 * run is in `run` leaves out, by the build's own layout: a .NET SDK project's bin/ and obj/ (its
 * DefaultItemExcludes), and — where the run is in Maven's and Gradle's src/main/java — anything outside
 * src/main/java (the project's root, src/test/java: neither compiled for the program). Another layout is
 * not guessed at: everything below root is taken for sources. */
static bool left_out_of_build(arena_t *a, const char *root, const char *dir, const char *runtime, const char *run) {
    size_t rl = strlen(root);
    const char *rel = !strncmp(dir, root, rl) && dir[rl] == '/' ? dir + rl + 1 : dir[rl] ? NULL : "";
    if (!rel) return false;
    if (!strcmp(runtime, "dotnet"))
        return !strcmp(rel, "bin") || !strcmp(rel, "obj") || !strncmp(rel, "bin/", 4) || !strncmp(rel, "obj/", 4);
    if (!strcmp(runtime, "java")) {
        const char *src = arena_sprintf(a, "%s/src/main/java/", root);
        size_t sl = strlen(src);
        bool run_there = !strncmp(run, src, sl);
        bool dir_there = !strncmp(rel, "src/main/java", 13) && (rel[13] == '/' || !rel[13]);
        return run_there && !dir_there;
    }
    return false;
}

program_file_role_t session_file_role(arena_t *a, const char *path, workspace_t *pw, const char **run) {
    *run = NULL;
    path = link_target(a, path);
    struct stat st;
    bool exists = path && stat(path, &st) == 0;
    if (!path || (exists && !S_ISREG(st.st_mode)) || !file_project(a, path, pw, NULL)) return PROGRAM_FILE_NONE;
    char *real = exists ? realpath(path, NULL) : NULL;
    if (real) path = arena_strdup(a, real);
    free(real);
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    char *dir = program_dir(a, path);
    if (!dir) return PROGRAM_FILE_NONE;
    /* Pulumi reads Pulumi.<stack>.yaml of the stackConfigDir, else of the project's directory. */
    const char *config_dir = pw->project.stack_config_dir
                                 ? arena_sprintf(a, "%s/%s", pw->project_dir, pw->project.stack_config_dir)
                                 : pw->project_dir;
    char *rconfig = realpath(config_dir, NULL);
    bool config = stack_config_name(base) && rconfig && !strcmp(dir, rconfig) && !same_file(path, pw->project_file);
    free(rconfig);
    if (config) return PROGRAM_FILE_STACK_CONFIG;
    /* A compiled program's build takes in the source files of its language beside its run: Go's
     * package directory (its tests aside), .NET's project directory and below, Java's source tree. */
    const char *runtime = pw->project.runtime;
    if (!runtime || !compiled_runtime(runtime) || !runtime_entry(runtime, base)) return PROGRAM_FILE_NONE;
    const char *main_dir =
        pw->project.main ? arena_sprintf(a, "%s/%s", pw->project_dir, pw->project.main) : pw->project_dir;
    const char *root;
    bool in_main, in_sources;
    program_place(a, dir, main_dir, runtime, &root, &in_main, &in_sources);
    if (!in_sources) return PROGRAM_FILE_NONE;
    *run = find_run(a, root, runtime, strcmp(runtime, "go") ? 8 : 0);
    if (!*run || same_file(*run, path) || left_out_of_build(a, root, dir, runtime, *run)) return PROGRAM_FILE_NONE;
    return PROGRAM_FILE_COMPILED_WITH;
}

const char *session_whole_file_refusal(arena_t *a, const char *path, const char *flag, bool code, diag_list_t *diags) {
    workspace_t pw;
    bool project_file;
    const char *run, *what = code ? "the code" : "the report";
    const char *other = code ? "write the code to another file" : "write the report to another file";
    if (session_file_is_program(a, path, &pw, &project_file, diags)) {
        bool yaml_program =
            project_file && pw.project.runtime && !strcmp(pw.project.runtime, "yaml") && !pw.project.main;
        return arena_sprintf(a, "this file is the %s of project '%s' (%s), and %s replaces the whole file with %s: %s",
                             !project_file  ? "program"
                             : yaml_program ? "project file and program"
                                            : "project file",
                             pw.project.name ? pw.project.name : "", pw.project_file, flag, what,
                             !code ? other
                             : project_file && !yaml_program
                                 ? "write the code to another file, or insert it into the project's program with "
                                   "--insert-into"
                                 : arena_sprintf(a, "insert into it with --insert-into %s", path));
    }
    switch (session_file_role(a, path, &pw, &run)) {
    case PROGRAM_FILE_STACK_CONFIG:
        return arena_sprintf(a,
                             "this file is a stack configuration of project '%s' (%s), and %s replaces the whole file "
                             "with %s: %s",
                             pw.project.name ? pw.project.name : "", pw.project_file, flag, what, other);
    case PROGRAM_FILE_COMPILED_WITH: {
        lang_t rl = LANG_GO;
        (void)lang_from_runtime(pw.project.runtime, &rl);
        const char *shown = below_cwd(a, run);
        return code
                   ? arena_sprintf(a,
                                   "the %s program of project '%s' (%s) builds this file with %s, and %s writes a "
                                   "program of its own here, which breaks that build: write the code to a file outside "
                                   "the program's sources, or insert it into the program with --insert-into %s",
                                   lang_title(rl), pw.project.name ? pw.project.name : "", pw.project_file, shown, flag,
                                   shown)
                   : arena_sprintf(a,
                                   "the %s program of project '%s' (%s) builds this file with %s, and %s writes %s "
                                   "here, which breaks that build: %s",
                                   lang_title(rl), pw.project.name ? pw.project.name : "", pw.project_file, shown, flag,
                                   what, other);
    }
    case PROGRAM_FILE_NONE: break;
    }
    return NULL;
}

bool session_program_workspace(arena_t *a, const char *path, const char *stack_flag, workspace_t *w,
                               diag_list_t *diags) {
    char *dir = path ? program_dir(a, path) : NULL;
    if (!dir) return true; /* not there, nor its directory: the splice says so */
    workspace_t pw;
    if (!workspace_discover_in(a, dir, stack_flag, &pw, diags)) return false;
    if (pw.have_project) *w = pw;
    return true;
}

bool session_path_is_javascript(const char *path) {
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    const char *dot = strrchr(base, '.');
    return dot && (!strcmp(dot, ".js") || !strcmp(dot, ".mjs") || !strcmp(dot, ".cjs"));
}

bool session_program_fits(arena_t *a, const workspace_t *w, const char *path, lang_t lang, diag_list_t *diags) {
    if (!path) return true;
    /* A JavaScript program: the code is TypeScript (type arguments, casts, annotations), which does
     * not parse as JavaScript, and no JavaScript form is written. */
    if (session_path_is_javascript(path)) {
        char advice[DIAG_ADVICE_MAX];
        diag_add(diags, DIAG_ERROR, DIAG_USAGE, path, NULL,
                 "this is a JavaScript program, but cimport writes TypeScript, which does not parse as JavaScript: "
                 "insert into a TypeScript program (.ts)%s",
                 diag_advice(advice, DIAG_ADVICE_TYPESCRIPT_CODE, NULL));
        return false;
    }
    /* The program's own project: the nearest Pulumi.yaml above it. Another one than the run's (a
     * project nested in this one, as in a monorepo, or beside it) runs its own stacks and reads its
     * own config, not the ones this run imports into and writes. */
    workspace_t pw;
    size_t errors_before = diags->errors;
    /* A run in no project (the language server's root in none; the command line took the program's
     * own project already, session_program_workspace): a program whose project cannot be told (a
     * Pulumi.json) is refused all the same */
    if (!w->have_project) return file_project(a, path, &pw, diags) || diags->errors == errors_before;
    /* a file in no project: the user adds it to one; one whose project cannot be told (a Pulumi.json
     * of a project nested in this one) is refused, as a nested project's program is */
    if (!file_project(a, path, &pw, diags)) return diags->errors == errors_before;
    if (!same_file(pw.project_file, w->project_file)) {
        char advice[DIAG_ADVICE_MAX];
        diag_add(diags, DIAG_ERROR, DIAG_USAGE, path, NULL,
                 "this program is of project '%s' (%s), not of project '%s' (%s), whose stack and config the run "
                 "uses%s",
                 pw.project.name ? pw.project.name : "", pw.project_file, w->project.name ? w->project.name : "",
                 w->project_file, diag_advice(advice, DIAG_ADVICE_PROGRAM_PROJECT, pw.project_dir));
        return false;
    }
    /* A file of this project in another language than its runtime's: `pulumi up` runs the runtime's
     * program, never this file, so the code inserted there would import nothing. */
    lang_t rl;
    if (!w->project.runtime || !lang_from_runtime(w->project.runtime, &rl)) return true;
    /* Pulumi YAML runs the project's program alone (Pulumi.yaml, or Main.yaml): it has no modules, so
     * resources written into any other YAML file of the project are never imported. */
    bool project_file;
    struct stat st;
    if (rl == LANG_YAML && lang == LANG_YAML && stat(path, &st) == 0 &&
        !session_file_is_program(a, path, &pw, &project_file, NULL)) {
        diag_add(diags, DIAG_ERROR, DIAG_USAGE, path, NULL,
                 "Pulumi YAML runs the project's program (%s, or a Main.yaml beside it), never this file: insert into "
                 "that program instead",
                 pw.project_file);
        return false;
    }
    if (rl == lang) return true;
    diag_add(diags, DIAG_ERROR, DIAG_USAGE, path, NULL,
             "the project's runtime (Pulumi.yaml) is %s, so `pulumi up` runs its %s program, not this %s file: insert "
             "into that program instead",
             w->project.runtime, lang_title(rl), lang_title(lang));
    return false;
}

/* Whether the callee name s[0, n) is a config getter of some SDK: get/require/try, then an optional
 * `secret`, then an optional type (object, number, int, bool, ...), compared without case and `_`
 * (`requireSecretObject`, `get_secret`, `RequireInt`, `GetFloat64`, `TrySecret`). */
static bool config_getter(const char *s, size_t n) {
    char w[40];
    size_t k = 0;
    for (size_t i = 0; i < n && k + 1 < sizeof w; i++)
        if (s[i] != '_') w[k++] = (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] - 'A' + 'a' : s[i]);
    w[k] = 0;
    const char *p = !strncmp(w, "require", 7) ? w + 7
                    : !strncmp(w, "get", 3)   ? w + 3
                    : !strncmp(w, "try", 3)   ? w + 3
                                              : NULL;
    if (!p) return false;
    if (!strncmp(p, "secret", 6)) p += 6;
    static const char *const types[] = {"",      "object", "number", "boolean", "bool",  "int",
                                        "int32", "int64",  "float",  "float64", "double"};
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (!strcmp(p, types[i])) return true;
    return false;
}

static void keys_add(arena_t *a, vec_t *keys, const char *key, size_t n, const char *project) {
    size_t pl = project ? strlen(project) : 0;
    if (pl && n > pl && !strncmp(key, project, pl) && key[pl] == ':') key += pl + 1, n -= pl + 1;
    if (!n || memchr(key, ':', n)) return; /* another namespace's key (aws:region) */
    *(const char **)vec_push(keys) = arena_strndup(a, key, n);
}

/* YAML: the keys of the top-level `config:` (or `configuration:`) mapping. */
static void yaml_config_keys(arena_t *a, const char *t, size_t len, const char *project, vec_t *keys) {
    bool in = false;
    size_t indent = 0;
    for (size_t i = 0; i < len;) {
        size_t e = i;
        while (e < len && t[e] != '\n')
            e++;
        size_t sp = i;
        while (sp < e && t[sp] == ' ')
            sp++;
        bool blank = sp == e || t[sp] == '#' || t[sp] == '\r';
        if (!blank && sp == i) { /* a top-level key */
            in =
                (e - i >= 7 && !strncmp(t + i, "config:", 7)) || (e - i >= 14 && !strncmp(t + i, "configuration:", 14));
            indent = 0;
        } else if (!blank && in) {
            if (!indent) indent = sp - i;
            if (sp - i == indent) {
                const char *k = t + sp, *ke = k;
                char q = (*k == '"' || *k == '\'') ? *k : 0;
                if (q) {
                    k++;
                    ke = memchr(k, q, (size_t)(e - (size_t)(k - t)));
                } else {
                    while (ke < t + e && *ke != ':')
                        ke++;
                }
                if (ke && ke < t + e) keys_add(a, keys, k, (size_t)(ke - k), project);
            }
        }
        i = e + 1;
    }
}

size_t session_program_config_keys(arena_t *a, const char *text, size_t len, lang_t lang, const char *project,
                                   const char ***out) {
    vec_t keys;
    vec_init(&keys, sizeof(const char *));
    if (lang == LANG_YAML) {
        yaml_config_keys(a, text, len, project, &keys);
    } else {
        /* A call NAME(...) or NAME<T>(...) of a config getter whose first argument is a string
         * literal (Go's config.Require(ctx, "k"): the second, after the context). */
        for (size_t i = 0; i < len; i++) {
            if (text[i] != '(') continue;
            size_t e = i;
            while (e > 0 && (text[e - 1] == ' ' || text[e - 1] == '\t'))
                e--;
            if (e > 1 && text[e - 1] == '>' && text[e - 2] == '=') continue; /* an arrow's `=> (` */
            if (e > 0 && text[e - 1] == '>') {
                /* A type argument: back to its `<`, over the parentheses and braces a type holds
                 * (`<(string | number)[]>`, `<{ f: (x: number) => string; n: number }>`), never past
                 * an unmatched one, a `;` outside braces or 1,024 bytes. An arrow's `=> (` or a
                 * comparison's `a > (b)` has no `<`: its walk ends at such a stop, and the bound keeps
                 * the scan linear (to the file's start, every `=> (` made it quadratic). */
                int depth = 0, parens = 0, braces = 0;
                bool open = false;
                size_t stop = e > 1024 ? e - 1024 : 0;
                while (e > stop && !open) {
                    char c = text[--e];
                    if (c == ')') parens++;
                    if (c == '}') braces++;
                    if ((c == '(' && parens-- == 0) || (c == '{' && braces-- == 0) || (c == ';' && !braces)) break;
                    if (c == '>' && !(e > 0 && text[e - 1] == '=')) depth++; /* not an arrow's `=>` */
                    if (c == '<') open = --depth == 0;
                }
                if (!open) continue;
                while (e > 0 && (text[e - 1] == ' ' || text[e - 1] == '\t'))
                    e--;
            }
            size_t b = e;
            while (b > 0 && (isalnum((unsigned char)text[b - 1]) || text[b - 1] == '_'))
                b--;
            if (b == e || !config_getter(text + b, e - b)) continue;
            size_t p = i + 1;
            while (p < len && isspace((unsigned char)text[p]))
                p++;
            if (lang == LANG_GO && p + 3 < len && !strncmp(text + p, "ctx", 3)) {
                p += 3;
                while (p < len && (isspace((unsigned char)text[p]) || text[p] == ','))
                    p++;
            }
            if (p >= len || (text[p] != '"' && text[p] != '\'' && text[p] != '`')) continue;
            char q = text[p];
            size_t s = p + 1, k = s;
            while (k < len && text[k] != q && text[k] != '\n' && text[k] != '\\')
                k++;
            if (k < len && text[k] == q) keys_add(a, &keys, text + s, k - s, project);
        }
    }
    size_t n = keys.len;
    *out = n ? arena_alloc(a, n * sizeof **out) : NULL;
    if (n) memcpy(*out, keys.data, n * sizeof **out);
    vec_free(&keys);
    return n;
}

/* ---------------------------------------------------------------------------------------------
 * The program's other files (session_program_others). */

/* The local modules a file imports (splice_file_t.modules), and the directory they are found from. */
typedef struct files_module_list {
    const char *const *modules;
    size_t n;
    const char *dir;
    size_t n_run; /* modules[0, n_run) are run by the file, the rest named for types alone */
} files_module_list_t;

typedef struct program_files {
    arena_t *a;
    splicer_t *sp;
    lang_t lang;
    diag_list_t *diags;
    hashmap_t seen;     /* resolved paths met (the target's too): each file is read once */
    vec_t files;        /* splice_file_t, the files read */
    vec_t queue;        /* TypeScript, Python: files_module_list_t, modules yet to be followed */
    size_t bytes;       /* read so far */
    const char *root;   /* where the files are looked for, for the message beyond the caps */
    const char *base;   /* Python: where absolute imports are found (the entry's directory) */
    const char *target; /* the resolved path of the file spliced into */
    bool target_met;    /* an import followed named the target */
    size_t followed;    /* queue[0, followed) are followed */
    bool run_only;      /* follow only the modules a file runs (files_module_list_t.n_run) */
    bool failed;        /* a diagnostic was given: stop */
} program_files_t;

static bool ends_with(const char *name, const char *ext) {
    size_t n = strlen(name), e = strlen(ext);
    return n >= e && !strcmp(name + n - e, ext);
}

static bool regular_file(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The program's files are past the caps: refused, naming them. */
static void files_too_many(program_files_t *f, const char *what) {
    char *cwd = realpath(".", NULL);
    bool here = cwd && !strcmp(cwd, f->root);
    free(cwd);
    diag_add(f->diags, DIAG_ERROR, DIAG_INPUT, here ? "." : below_cwd(f->a, f->root), NULL,
             "the program has more than %s here, which cimport reads to find the resources they define before it "
             "adds any, and it reads no more: nothing was changed; insert into a smaller program, or add the code by "
             "hand",
             what);
    f->failed = true;
}

/* Reads the file at path into the list once (a path met before, the target's included, is skipped),
 * and, for TypeScript and Python, queues it for its modules. False once anything failed. */
static bool files_add(program_files_t *f, const char *path) {
    if (f->failed) return false;
    char *real = realpath(path, NULL);
    if (!real) return true; /* gone, or a link to nothing: not read by the build either */
    const char *key = arena_strdup(f->a, real);
    free(real);
    if (!hashmap_add_str(&f->seen, key, (void *)key)) {
        f->target_met |= f->target && !strcmp(key, f->target);
        return true;
    }
    if (f->files.len >= SESSION_PROGRAM_FILES_MAX) {
        files_too_many(f, arena_sprintf(f->a, "%d source files", SESSION_PROGRAM_FILES_MAX));
        return false;
    }
    struct stat st;
    if (stat(key, &st) == 0 && (size_t)st.st_size > SESSION_PROGRAM_BYTES_MAX - f->bytes) {
        files_too_many(f, arena_sprintf(f->a, "%zu MiB of source files", SESSION_PROGRAM_BYTES_MAX >> 20));
        return false;
    }
    size_t len;
    const char *name = below_cwd(f->a, key);
    const char *text = file_read_all(f->a, key, &len, f->diags);
    if (!text) return !(f->failed = true);
    f->bytes += len;
    splice_file_t *sf = vec_push(&f->files);
    if (!splicer_read_file(f->sp, text, len, f->lang, name, f->a, sf, f->diags)) {
        f->files.len--;
        return !(f->failed = true);
    }
    if (sf->n_modules)
        *(files_module_list_t *)vec_push(&f->queue) =
            (files_module_list_t){sf->modules, sf->n_modules, program_dir(f->a, key), sf->n_run_modules};
    return true;
}

/* Whether `go build` leaves the Go file out of its package: a test (_test.go), a name beginning with _
 * or . (go/build's ignored files), or a `//go:build ignore` constraint before the package clause (a
 * `go run gen.go` generator's). Other constraints are taken to hold: the file stays in. */
static bool go_build_ignores(const char *name, const char *path) {
    if (name[0] == '_' || name[0] == '.' || ends_with(name, "_test.go")) return true;
    FILE *fp = fopen(path, "r");
    if (!fp) return false;
    char line[512];
    bool ignored = false;
    while (!ignored && fgets(line, sizeof line, fp)) {
        const char *p = line + strspn(line, " \t");
        if (!strncmp(p, "package", 7)) break;
        if (strncmp(p, "//go:build", 10) != 0 || (p[10] != ' ' && p[10] != '\t')) continue;
        p += 10 + strspn(p + 10, " \t");
        size_t n = strcspn(p, " \t\r\n");
        ignored = n == 6 && !strncmp(p, "ignore", 6) && !p[n + strspn(p + n, " \t\r\n")];
    }
    fclose(fp);
    return ignored;
}

/* Every file below dir (at most depth levels down) whose name ends with ext, in name order: hidden
 * directories, links to directories and those named in skip (build output) left out. */
static void files_below(program_files_t *f, const char *dir, const char *ext, const char *const *skip, int depth) {
    struct dirent **names;
    int n = scandir(dir, &names, NULL, alphasort);
    for (int i = 0; i < n; i++) {
        const char *nm = names[i]->d_name;
        bool skipped = nm[0] == '.';
        for (size_t k = 0; skip && skip[k] && !skipped; k++)
            skipped = !strcmp(nm, skip[k]);
        const char *path = arena_sprintf(f->a, "%s/%s", dir, nm);
        struct stat ls;
        if (!skipped && !f->failed && lstat(path, &ls) == 0) {
            if (S_ISDIR(ls.st_mode) && depth > 0)
                files_below(f, path, ext, skip, depth - 1);
            else if (!S_ISDIR(ls.st_mode) && ends_with(nm, ext) && regular_file(path) &&
                     !(f->lang == LANG_GO && go_build_ignores(nm, path)))
                files_add(f, path);
        }
        free(names[i]);
    }
    if (n >= 0) free(names);
}

/* The file a TypeScript module specifier (`./storage`, `../lib`, `./a.js`) names from dir, as
 * TypeScript's resolution finds it: the file itself, with an extension added or its .js written for a
 * .ts, or a directory's index; NULL when none exists. */
static const char *ts_module_file(arena_t *a, const char *dir, const char *spec) {
    static const char *const exts[] = {".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"};
    const char *base = arena_sprintf(a, "%s/%s", dir, spec);
    for (size_t i = 0; i < sizeof exts / sizeof *exts; i++)
        if (ends_with(base, exts[i]) && !ends_with(base, ".d.ts")) {
            if (regular_file(base)) return base;
            if (i >= 4) { /* `./a.js` written for a.ts: ESM's form */
                size_t bl = strlen(base) - strlen(exts[i]);
                const char *ts = arena_sprintf(a, "%.*s%s", (int)bl, base, exts[i - 4]);
                if (regular_file(ts)) return ts;
            }
            return NULL;
        }
    for (size_t i = 0; i < sizeof exts / sizeof *exts; i++) {
        const char *c = arena_sprintf(a, "%s%s", base, exts[i]);
        if (regular_file(c)) return c;
    }
    for (size_t i = 0; i < sizeof exts / sizeof *exts; i++) {
        const char *c = arena_sprintf(a, "%s/index%s", base, exts[i]);
        if (regular_file(c)) return c;
    }
    return NULL;
}

/* The files a Python import of module m (`storage`, `infra.storage`, `..util`) from a file in dir
 * runs: each package's __init__.py on the way and the module itself (m.py, or m/__init__.py), those
 * that exist. A relative module is found from dir, an absolute one from the program's directory. */
static void py_module_files(program_files_t *f, const char *dir, const char *m) {
    size_t dots = strspn(m, ".");
    const char *at = f->base;
    if (dots) {
        at = dir;
        for (size_t k = 1; k < dots; k++)
            at = arena_sprintf(f->a, "%s/..", at);
    }
    m += dots;
    while (*m && !f->failed) {
        const char *dot = strchr(m, '.');
        size_t n = dot ? (size_t)(dot - m) : strlen(m);
        const char *pkg = arena_sprintf(f->a, "%s/%.*s", at, (int)n, m);
        const char *init = arena_sprintf(f->a, "%s/__init__.py", pkg);
        if (regular_file(init)) files_add(f, init);
        if (!dot) {
            const char *py = arena_sprintf(f->a, "%s.py", pkg);
            if (regular_file(py)) files_add(f, py);
            break;
        }
        at = pkg;
        m = dot + 1;
    }
}

/* Follows the modules of the queued files not yet followed (and of theirs) until none is left. */
static void files_follow(program_files_t *f) {
    for (size_t q = f->followed; q < f->queue.len && !f->failed; q = ++f->followed) {
        files_module_list_t ml = *(files_module_list_t *)vec_at(&f->queue, q);
        for (size_t i = 0; ml.dir && i < (f->run_only ? ml.n_run : ml.n) && !f->failed; i++) {
            if (f->lang == LANG_PYTHON) {
                py_module_files(f, ml.dir, ml.modules[i]);
            } else {
                const char *file = ts_module_file(f->a, ml.dir, ml.modules[i]);
                if (file && !strstr(file, "/node_modules/")) files_add(f, file);
            }
        }
    }
}

/* The entry file of a Node.js or Python project's program: `main` when it names a file, else
 * package.json's "main" (Node.js) or the runtime's entry in `main`'s (or the project's) directory;
 * NULL when none exists. */
static const char *program_entry(arena_t *a, const workspace_t *pw, lang_t lang) {
    const char *main_dir = pw->project_dir;
    if (pw->project.main) {
        const char *m = arena_sprintf(a, "%s/%s", pw->project_dir, pw->project.main);
        if (regular_file(m)) return m;
        main_dir = m;
    }
    if (lang == LANG_TYPESCRIPT) {
        const char *pm = node_main_path(a, main_dir);
        if (pm && regular_file(pm)) return pm;
        const char *ts = arena_sprintf(a, "%s/index.ts", main_dir), *js = arena_sprintf(a, "%s/index.js", main_dir);
        return regular_file(ts) ? ts : regular_file(js) ? js : NULL;
    }
    const char *py = arena_sprintf(a, "%s/__main__.py", main_dir);
    return regular_file(py) ? py : NULL;
}

/* The directory of the nearest .csproj at or above dir, up to (and with) stop; NULL when none is. */
static const char *csproj_dir(arena_t *a, const char *dir, const char *stop) {
    for (int up = 0; dir && up < 16; up++) {
        struct dirent **names;
        int n = scandir(dir, &names, NULL, alphasort);
        bool has = false;
        for (int i = 0; i < n; i++) {
            has |= ends_with(names[i]->d_name, ".csproj");
            free(names[i]);
        }
        if (n >= 0) free(names);
        if (has) return dir;
        const char *slash = strrchr(dir, '/');
        if ((stop && !strcmp(dir, stop)) || !slash || slash == dir) return NULL;
        dir = arena_strndup(a, dir, (size_t)(slash - dir));
    }
    return NULL;
}

bool session_program_others(arena_t *a, splicer_t *sp, const char *path, lang_t lang, const char *const *modules,
                            size_t n_modules, const splice_file_t **out, size_t *n_out, diag_list_t *diags) {
    *out = NULL;
    *n_out = 0;
    if (!path || lang == LANG_YAML || lang == LANG_PCL) return true;
    char *r = realpath(path, NULL);
    if (!r) return true; /* not on disk (an editor's new document): no files beside it are known */
    const char *real = arena_strdup(a, r);
    free(r);
    const char *dir = program_dir(a, real);
    if (!dir) return true;
    program_files_t f = {.a = a, .sp = sp, .lang = lang, .diags = diags, .root = dir, .base = dir, .target = real};
    vec_init(&f.files, sizeof(splice_file_t));
    vec_init(&f.queue, sizeof(files_module_list_t));
    hashmap_add_str(&f.seen, real, (void *)real);
    workspace_t pw;
    bool in_project = file_project(a, real, &pw, NULL) && pw.project_dir;
    char *rp = in_project ? realpath(pw.project_dir, NULL) : NULL;
    const char *project_dir = rp ? arena_strdup(a, rp) : NULL;
    free(rp);
    static const char *const cs_skip[] = {"bin", "obj", "node_modules", NULL};
    static const char *const java_skip[] = {"node_modules", NULL};
    switch (lang) {
    case LANG_GO: files_below(&f, dir, ".go", NULL, 0); break; /* a package is one directory */
    case LANG_CSHARP: {
        /* a program in no project: its .csproj beside it (a tree above it is no program's) */
        const char *proj = csproj_dir(a, dir, project_dir ? project_dir : dir);
        f.root = proj ? proj : dir;
        files_below(&f, f.root, ".cs", cs_skip, 16);
        break;
    }
    case LANG_JAVA: {
        const char *src = strstr(real, "/src/main/java/");
        f.root = src ? arena_strndup(a, real, (size_t)(src - real) + strlen("/src/main/java")) : dir;
        files_below(&f, f.root, ".java", java_skip, src ? 32 : 0);
        break;
    }
    case LANG_TYPESCRIPT:
    case LANG_PYTHON: {
        const char *entry = in_project ? program_entry(a, &pw, lang) : NULL;
        char *re = entry ? realpath(entry, NULL) : NULL;
        if (re) {
            f.base = program_dir(a, re);
            if (strcmp(re, real) != 0) {
                /* The entry and what it imports are what `pulumi up` runs: a file none of them imports
                 * is no part of the program, and code added there would never run (its resources
                 * neither imported nor kept in a stack they were recorded into). A module loaded by a
                 * name cimport cannot read (`importlib.import_module(name)`, `require(name)`) is
                 * not followed, so it is refused too. So is a module imported for types alone (TypeScript
                 * `import type`, Python under `if TYPE_CHECKING:`), which is never loaded (read18 F1): the
                 * walk follows the modules each file runs; then, for what they define, the others. */
                files_add(&f, re);
                f.run_only = true;
                files_follow(&f);
                f.run_only = false;
                f.followed = 0;
                if (!f.failed && !f.target_met) {
                    const char *shown = below_cwd(a, re);
                    diag_add(diags, DIAG_ERROR, DIAG_INPUT, below_cwd(a, real), NULL,
                             "this file is not imported by the program's entry %s, nor by any module it imports "
                             "(as cimport reads the imports), so `pulumi up` would not run code added here: "
                             "nothing was changed; import this file from %s (directly or through a module it "
                             "imports), or insert into %s",
                             shown, shown, shown);
                    f.failed = true;
                }
            }
        }
        free(re);
        if (!f.failed && n_modules)
            *(files_module_list_t *)vec_push(&f.queue) = (files_module_list_t){modules, n_modules, dir, n_modules};
        files_follow(&f);
        break;
    }
    default: break;
    }
    hashmap_free(&f.seen);
    vec_free(&f.queue);
    size_t n;
    splice_file_t *files = vec_steal(&f.files, &n);
    if (!f.failed && n) {
        splice_file_t *kept = arena_alloc(a, n * sizeof *kept);
        memcpy(kept, files, n * sizeof *kept);
        *out = kept;
        *n_out = n;
    }
    free(files);
    return !f.failed;
}

/* splice_options_t.program_files: the other files of the program the code goes into. */
static bool session_splice_files(void *user, splicer_t *sp, const char *const *modules, size_t n_modules,
                                 const splice_file_t **others, size_t *n_others, diag_list_t *diags) {
    const import_session_t *p = user;
    const session_options_t *o = p->opts;
    return session_program_others(p->arena, sp, o->program_text ? o->program_path : o->insert_into, p->lang, modules,
                                  n_modules, others, n_others, diags);
}

splice_options_t session_splice_options(const import_session_t *p, const char *path) {
    const session_options_t *o = p->opts;
    return (splice_options_t){.filename = path,
                              .keep_existing = o->keep_existing,
                              .into_stack = o->into_stack || o->stack_state,
                              .program_files = session_splice_files,
                              .program_files_user = (void *)p};
}
