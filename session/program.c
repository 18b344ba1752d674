/* program.c — the program a run splices its code into, judged against the run's workspace before
 * anything runs (session_program_fits in session.h): both front ends ask it, the command line for
 * --insert-into, the language server for the document it edits. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

/* The project of the file at path: the nearest Pulumi.yaml above it. */
static bool file_project(arena_t *a, const char *path, workspace_t *pw) {
    char *dir = program_dir(a, path);
    diag_list_t quiet; /* what cannot be read of it was said of the run's workspace, or is not ours */
    diag_list_init(&quiet);
    bool found = dir && workspace_discover_in(a, dir, NULL, pw, &quiet) && pw->have_project;
    diag_list_free(&quiet);
    return found;
}

/* Whether a file of directory dir named base is the program's entry file that the runtime's
 * language host runs: Node's index.ts/index.js, Python's __main__.py, a Go or C# project's source
 * files (every one of the directory is compiled), Pulumi YAML's Main.yaml/Main.json. */
static bool runtime_entry(const char *runtime, const char *base) {
    const char *dot = strrchr(base, '.');
    if (!strcmp(runtime, "nodejs")) return !strcmp(base, "index.ts") || !strcmp(base, "index.js");
    if (!strcmp(runtime, "python")) return !strcmp(base, "__main__.py");
    if (!strcmp(runtime, "go")) return dot && !strcmp(dot, ".go");
    if (!strcmp(runtime, "dotnet")) return dot && !strcmp(dot, ".cs");
    if (!strcmp(runtime, "yaml"))
        return !strcmp(base, "Main.yaml") || !strcmp(base, "Main.yml") || !strcmp(base, "Main.json");
    return false;
}

bool session_file_is_program(arena_t *a, const char *path, workspace_t *pw, bool *project_file) {
    *project_file = false;
    struct stat st;
    if (!path || stat(path, &st) != 0 || !S_ISREG(st.st_mode) || !file_project(a, path, pw)) return false;
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
    char *dir = program_dir(a, path), *rmain = realpath(main_path, NULL);
    bool in_main = dir && rmain && strcmp(dir, rmain) == 0;
    free(rmain);
    const char *slash = strrchr(path, '/');
    return in_main && runtime_entry(runtime, slash ? slash + 1 : path);
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
    if (!w->have_project) return true;
    /* The program's own project: the nearest Pulumi.yaml above it. Another one than the run's (a
     * project nested in this one, as in a monorepo, or beside it) runs its own stacks and reads its
     * own config, not the ones this run imports into and writes. */
    workspace_t pw;
    if (!file_project(a, path, &pw)) return true; /* a file in no project: the user adds it to one */
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
    if (!w->project.runtime || !lang_from_runtime(w->project.runtime, &rl) || rl == lang) return true;
    diag_add(diags, DIAG_ERROR, DIAG_USAGE, path, NULL,
             "the project's runtime (Pulumi.yaml) is %s, so `pulumi up` runs its %s program, not this %s file: insert "
             "into that program instead",
             w->project.runtime, lang_title(rl), lang_title(lang));
    return false;
}
