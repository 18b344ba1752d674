/* lsp_internal.h — the pieces of the language server (lsp/lsp.c) that have their own files and
 * tests: JSON-RPC framing over a file descriptor (lsp_rpc.c) and text documents — positions in
 * UTF-16 or UTF-8 code units, incremental changes, the smallest edits between two texts, file URIs
 * (lsp_text.c). Not included from outside lsp/lsp*.c and their tests. */
#ifndef CIMPORT_LSP_INTERNAL_H
#define CIMPORT_LSP_INTERNAL_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

/* ---------- framing (lsp_rpc.c) ----------
 *
 * A message is a header block (`Content-Length: N`, optionally `Content-Type`, each line ending in
 * CRLF — a bare LF is accepted too) then an empty line then N bytes of JSON. The reader keeps what
 * it has read in a buffer, so a message can be taken out of it later without reading again. */

#define LSP_MAX_MESSAGE (256u << 20) /* a larger Content-Length is refused (a broken or hostile peer) */

typedef enum {
    LSP_READ_MESSAGE = 0, /* *body holds one message (malloc'd, NUL-terminated) */
    LSP_READ_AGAIN,       /* non-blocking: no complete message yet */
    LSP_READ_EOF,         /* the input ended (at a message boundary or in the middle of one) */
    LSP_READ_BAD_HEADER,  /* a header block without a usable Content-Length; skipped, *error says why */
} lsp_read_status_t;

typedef struct lsp_reader {
    int fd;
    char *buf;
    size_t len; /* bytes in buf */
    size_t pos; /* start of unconsumed bytes */
    size_t cap;
    bool eof;
    bool partial; /* EOF came in the middle of a message */
    bool resync;  /* after a bad header: skip to the next `Content-Length` */
    char error[160];
} lsp_reader_t;

void lsp_reader_init(lsp_reader_t *r, int fd);
void lsp_reader_free(lsp_reader_t *r);
/* The next message. block=false reads only what is available now (poll with no wait). */
lsp_read_status_t lsp_reader_next(lsp_reader_t *r, bool block, char **body, size_t *len);
/* Frames a message: `Content-Length: N\r\n\r\n` + the body (malloc'd; *out_len bytes). */
char *lsp_frame(const char *body, size_t len, size_t *out_len);

/* window/showMessage types (LSP MessageType). */
enum { LSP_MSG_ERROR = 1, LSP_MSG_WARNING = 2, LSP_MSG_INFO = 3 };

/* ---------- text documents (lsp_text.c) ---------- */

typedef enum {
    LSP_ENC_UTF16 = 0, /* LSP's default: `character` counts UTF-16 code units */
    LSP_ENC_UTF8,      /* negotiated through general.positionEncodings */
} lsp_encoding_t;

/* Byte offset of an LSP position. Lines end at LF, CRLF or a lone CR (as LSP defines them). A
 * character past the line's end means the line's end; a line past the last means the text's end.
 * A position inside a UTF-16 surrogate pair moves to the character's start. */
size_t lsp_text_offset(const char *text, size_t len, long line, long character, lsp_encoding_t enc);
/* The LSP position of a byte offset (which should be at a character boundary). */
void lsp_text_position(const char *text, size_t len, size_t offset, lsp_encoding_t enc, long *line, long *character);

/* Replaces bytes [start, end) of a malloc'd text with `with` (n bytes); keeps it NUL-terminated. */
void lsp_text_replace(char **text, size_t *len, size_t start, size_t end, const char *with, size_t n);

/* One edit of old text: bytes [old_start, old_end) become new text's [new_start, new_end). */
typedef struct lsp_edit {
    size_t old_start, old_end;
    size_t new_start, new_end;
} lsp_edit_t;

/* The edits that turn old into new: libgit2's line diff (minimal, no context), each changed run of
 * lines then narrowed to the bytes that differ (never splitting a UTF-8 character or a CRLF).
 * Sorted, non-overlapping. Returns the count; *out is malloc'd (NULL when the texts are equal). */
size_t lsp_text_diff(const char *old_text, size_t old_len, const char *new_text, size_t new_len, lsp_edit_t **out);
/* Keep libgit2's global state set up between diffs (a first setup costs ~13 ms, most of a diff's
 * time otherwise); the server holds it for its life. Calls nest; each hold needs one release. */
void lsp_text_diff_hold(void);
void lsp_text_diff_release(void);
/* The edits as LSP TextEdit[] ({range, newText}), positions in old_text under `enc`. */
cJSON *lsp_edits_json(const char *old_text, size_t old_len, const char *new_text, const lsp_edit_t *edits, size_t n,
                      lsp_encoding_t enc);

/* The path of a `file://` URI (percent-decoded, malloc'd); NULL for other schemes. */
char *lsp_uri_to_path(const char *uri);
/* The `file://` URI of a path (made absolute against the working directory; malloc'd). */
char *lsp_path_to_uri(const char *path);

/* ---------- the server's state, for tests and benchmarks (lsp.c) ---------- */

typedef struct lsp_server lsp_server_t;
typedef struct session_options session_options_t;
typedef struct splicer splicer_t;

/* The text of the open document with this URI (or the same file spelt differently): NUL-terminated,
 * *len bytes, *version as the editor last sent it. NULL when no such document is open. */
const char *lsp_server_document(lsp_server_t *s, const char *uri, size_t *len, long *version);
/* The options commands run with (the server's defaults plus initializationOptions). */
const session_options_t *lsp_server_options(const lsp_server_t *s);
/* The id of the last request the server sent to the client (e.g. workspace/applyEdit). */
long lsp_server_last_request_id(const lsp_server_t *s);
/* The splicer the server's commands use (its queries compiled once). */
splicer_t *lsp_server_splicer(lsp_server_t *s);

#endif
