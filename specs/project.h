/* project.h — the Pulumi project file (Pulumi.yaml) of a directory. */
#ifndef CIMPORT_PROJECT_H
#define CIMPORT_PROJECT_H

#include <stdbool.h>

#include "base/arena.h"

typedef struct project_info {
    const char *path;
    const char *name;    /* NULL if absent */
    const char *runtime; /* NULL if absent */
    const char *backend_url; /* `backend: {url: …}`; NULL if absent */
} project_info_t;

/* False when there is no readable Pulumi.yaml in dir. */
bool project_read(arena_t *a, const char *dir, project_info_t *out);

#endif
