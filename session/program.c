/* program.c — the program a run splices its code into, judged against the run's workspace before
 * anything runs (session_program_fits in session.h): both front ends ask it, the command line for
 * --insert-into, the language server for the document it edits. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

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

bool session_program_fits(arena_t *a, const workspace_t *w, const char *path, lang_t lang, diag_list_t *diags) {
    if (!path || !w->have_project) return true;
    /* The program's own project: the nearest Pulumi.yaml above it. Another one than the run's (a
     * project nested in this one, as in a monorepo, or beside it) runs its own stacks and reads its
     * own config, not the ones this run imports into and writes. */
    char *dir = program_dir(a, path);
    workspace_t pw;
    diag_list_t quiet; /* what cannot be read of it was said of the run's workspace, or is not ours */
    diag_list_init(&quiet);
    bool found = dir && workspace_discover_in(a, dir, NULL, &pw, &quiet) && pw.have_project;
    diag_list_free(&quiet);
    if (!found) return true; /* a file in no project: the user adds it to one */
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
