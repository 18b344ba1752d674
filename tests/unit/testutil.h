/* testutil.h — helpers shared by the Check suites: paths to shared data, temporary directories,
 * file listing, running the built cimport binary. */
#ifndef CIMPORT_TESTUTIL_H
#define CIMPORT_TESTUTIL_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "emitters/emit.h"
#include "pcl/pcl.h"
#include "specs/deployment.h"
#include "specs/schema.h"

/* Path under ../shared/data (arena-allocated). */
char *tu_data(arena_t *a, const char *rel);
/* Reads a whole file (malloc'd, NUL-terminated) or NULL. */
char *tu_read(const char *path, size_t *len);
bool tu_write(const char *path, const char *text);
/* A fresh temporary directory (malloc'd path), removed by tu_rmtree. */
char *tu_mkdtemp(void);
void tu_rmtree(const char *path);
/* Every regular file below dir whose name ends with suffix, sorted (arena array, NULL-terminated). */
char **tu_find_files(arena_t *a, const char *dir, const char *suffix, size_t *n);
/* Tags this test process (and so every process it starts) with a unique CIMPORT_TEST_TAG in the
 * environment, so process checks see only this test's children even when other tests run at the
 * same time. Call before starting any. */
void tu_tag_processes(void);
/* Live (non-zombie) processes carrying this test's tag whose command line contains `needle`. */
int tu_count_tagged(const char *needle);
/* Runs a shell command, captures stdout (malloc'd) and exit status. */
char *tu_run(const char *cmd, int *status);
/* Writes `source` as `name` in a fresh temporary directory, runs `cmd` there (stderr with stdout)
 * and returns what it printed (malloc'd; NULL if it could not run), its exit status in *status;
 * the directory is removed. */
char *tu_run_source(const char *name, const char *source, const char *cmd, int *status);

/* The import file `convert --from pulumi` writes for the stack export at path (in a), or NULL when it
 * has nothing to import. */
struct import_file *tu_converted(arena_t *a, const char *path); /* specs/importfile.h's import_file_t */
/* The shared schemas of the scale benchmark's packages (random, tls, command, digitalocean, azuread),
 * in that order: TU_SHARED_SCHEMAS paths into `paths` (in a). */
#define TU_SHARED_SCHEMAS 5
void tu_shared_schemas(arena_t *a, const char **paths);

/* A PCL program parsed and bound against one schema given as text (asserts both succeed; parse
 * diagnostics are printed first). */
typedef struct tu_pcl {
    schema_set_t *set;
    pcl_program_t *p;
} tu_pcl_t;
tu_pcl_t tu_pcl_load(const char *schema_text, const char *schema_file, const char *pcl);
void tu_pcl_unload(tu_pcl_t *f);
/* Binding pcl (as main.pp) against the schema given as text must fail with an error containing needle. */
void tu_pcl_bind_refused(const char *schema_text, const char *schema_file, const char *pcl, const char *needle);
/* Emits f's program in lang and asserts success with no error (errors are printed); malloc'd text. */
char *tu_pcl_emit_ok(const tu_pcl_t *f, lang_t lang);
/* Emitting must fail with an error whose text contains needle1 and needle2 (NULL: only needle1). */
void tu_pcl_emit_refused(const tu_pcl_t *f, lang_t lang, const char *needle1, const char *needle2);
/* Parsing pcl (as main.pp) must fail with a first message that contains needle. */
void tu_pcl_parse_fails(const char *pcl, const char *needle);
/* text must contain needle (the text is printed when it does not). */
void tu_has(const char *text, const char *needle);

/* A big schema (malloc'd text): the shared digitalocean schema with its resources and types repeated
 * `copies` times, each copy's tokens suffixed with its number (~2.3 MB a copy): on one line, or
 * formatted (cJSON_Print's lines). */
char *tu_big_schema_text(arena_t *a, int copies, bool formatted);

/* The offline import as the CLI runs it: the custom resources of a state (with an ID, not pending
 * delete, not `pulumi:` types) whose package has a schema in `schemas`, named r<index in the state>,
 * in an import file, its plan (protect), and the engine over the offline provider. NULL when no
 * resource qualifies. */
typedef struct tu_import tu_import_t;
tu_import_t *tu_offline_import(arena_t *a, const deployment_t *dep, schema_set_t *schemas);
size_t tu_import_count(const tu_import_t *imp);
/* Each result's variable, status and verified flag ("r0:0:1;r3:0:1;"): arena string. */
char *tu_import_statuses(arena_t *a, const tu_import_t *imp);
/* The code of the results [first, first + n) that imported, generated as the CLI does (pcl_generate,
 * secrets as literals) in each of langs (LANG_PCL: pcl_print): each language's text after a
 * "--- <language>" line, or the errors when it refuses the program. trim: each resource's outputs cut
 * to what generation reads (pcl_gen_outputs_needed), as the CLI keeps them. NULL when none of them
 * imported. Arena string. */
char *tu_import_code(arena_t *a, const tu_import_t *imp, size_t first, size_t n, schema_set_t *schemas,
                     const lang_t *langs, size_t n_langs, bool trim);
void tu_import_free(tu_import_t *imp);

#endif
