/* project.h — the Pulumi project file (Pulumi.yaml) of a directory. */
#ifndef CIMPORT_PROJECT_H
#define CIMPORT_PROJECT_H

#include <stdbool.h>

#include "base/arena.h"
#include "base/diag.h"

typedef struct project_info {
    const char *path;
    const char *name;        /* NULL if absent */
    const char *runtime;     /* NULL if absent */
    const char *backend_url; /* `backend: {url: …}`; NULL if absent */
    /* `stackConfigDir: DIR` (or the older `config: DIR`, a string): the stack config files are
     * DIR/Pulumi.<stack>.yaml, DIR relative to Pulumi.yaml's directory (a leading / too, as `pulumi`
     * joins them); NULL if absent */
    const char *stack_config_dir;
    /* `main: PATH`: the program's file or directory, relative to Pulumi.yaml's directory; NULL if absent */
    const char *main;
} project_info_t;

/* Whether s is a name Pulumi takes for a project or stack (tokens.IsName, at most 100 bytes: letters,
 * digits, `-`, `_`, `.`), and not `.` or `..`: the backend joins these names into its paths. */
bool project_name_valid(const char *s);

/* False when there is no readable Pulumi.yaml in dir; one that exists but cannot be read within the
 * input caps (too large, a FIFO that never delivers, an I/O error) is also an error in `diags`
 * (may be NULL). */
bool project_read(arena_t *a, const char *dir, project_info_t *out, diag_list_t *diags);

#endif
