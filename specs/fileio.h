/* fileio.h — reading whole files and writing them atomically (temporary file + rename). */
#ifndef CIMPORT_FILEIO_H
#define CIMPORT_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "specs/arena.h"
#include "specs/diag.h"

/* Reads a whole file into the arena (NUL-terminated). Error diagnostic names the file. */
char *file_read_all(arena_t *a, const char *path, size_t *len, diag_list_t *diags);
/* Writes through `<path>.cimport-tmp-XXXXXX` in the same directory, fsyncs, renames over path.
 * mode is used for a new file (an existing file keeps its mode unless force_mode). On failure the
 * old file is untouched and the temporary file removed. */
bool file_write_atomic(const char *path, const char *data, size_t len, mode_t mode, bool force_mode,
                       diag_list_t *diags);

#endif
