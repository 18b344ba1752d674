/* spool.h — a text written as it is made, held in an unnamed file instead of memory (a program's code
 * of hundreds of MB, written out node by node, then placed by a transaction, specs/txn.h).
 *
 * The file is made with O_TMPFILE in the directory of the file it will become (the same disk, not a
 * tmpfs /tmp): it has no name, so nothing of it is ever visible beside the user's files, another run
 * cannot mistake it for its own, and it vanishes when the spool is freed or the process dies however
 * it dies. A file system without O_TMPFILE gets a file there under a hidden name, unlinked as soon as
 * it is open (tracked meanwhile, file_temp_track). */
#ifndef CIMPORT_SPOOL_H
#define CIMPORT_SPOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "base/arena.h"

/* What a spool is flushed in: a writer's buffer is handed over once it holds this much. */
#define SPOOL_CHUNK ((size_t)64 << 10)

typedef struct spool spool_t;

/* A spool for the file at path (its directory must exist and be writable), or NULL: then nothing was
 * made, and the caller holds the text in memory as before. */
spool_t *spool_new(const char *path);
void spool_free(spool_t *s);

/* Appends. A failed write (no space left, a file size limit) is kept and every later write is
 * dropped: spool_error says so, and a transaction refuses to place the spool (nothing is written). */
void spool_write(spool_t *s, const char *data, size_t len);
/* Appends what b holds and empties it (its room is kept for the next chunk). */
void spool_take(spool_t *s, buf_t *b);
/* 0, or the errno of the first write that failed. */
int spool_error(const spool_t *s);
/* Bytes written. */
size_t spool_size(const spool_t *s);

/* Gives the spool's file the new name path (in the spool's directory, with mode), so that the text is
 * placed without being written again; fsynced first. Once only: a spool that has a name takes no more
 * writes, and a later placement copies (two names never share one file). False, with errno, when it
 * cannot (no O_TMPFILE on this file system, no /proc, path taken): the caller copies instead. */
bool spool_link(spool_t *s, const char *path, mode_t mode);

/* Reads up to n bytes at offset off of what was written (fewer only past its end) into buf: how many,
 * or -1 with errno set. A spool read back by its writer (a run's spilled inputs) never needs a name. */
ssize_t spool_read(const spool_t *s, size_t off, void *buf, size_t n);

/* Copies the whole text into fd (at fd's offset): false with errno set when a read or write fails. */
bool spool_copy_to(const spool_t *s, int fd);
/* The inode of the spool's file (tests: whether a placed file is the spool's own). */
unsigned long spool_inode(const spool_t *s);

/* Whether the text equals the len bytes of fd from its start (read in chunks, never whole). */
bool spool_equals_fd(const spool_t *s, int fd, size_t len);

#endif
