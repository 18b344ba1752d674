/* lsp.h — `cimport lsp`: a language server that imports resources into the program open in the
 * editor, for every editor with a Language Server Protocol client.
 *
 * Protocol: JSON-RPC 2.0 over stdio with Content-Length framing (LSP 3.17). Lifecycle initialize →
 * initialized → … → shutdown → exit (exit code 0 after shutdown, 1 without). Documents are synced
 * (didOpen/didChange full or incremental/didClose) so the editor's unsaved text is what gets
 * edited, never the file on disk.
 *
 * Commands (workspace/executeCommand), each taking one object argument:
 *   cimport.importResource  {"type", "name", "id", "parent"?, "provider"?, "version"?,
 *                            "properties"?: "a,b", "uri": target program document}
 *   cimport.importFile      {"path": import file path or URI (its open, unsaved text if open),
 *                            "uri": target program document}
 * Each runs an import session (session/session.h) with the server's options, splices the code into
 * the target's current text (splice.h) and sends the difference as workspace/applyEdit with the
 * smallest TextEdits. The result is {"applied", "imported", "failed", "inserted", "replaced",
 * "importsAdded", "renamed"}. Failures reach the user through window/showMessage with the CLI's
 * diagnostic text; the request then fails with RequestFailed (-32803).
 *
 * Options come from `cimport lsp [import options]` (cli/lsp_cmd.c, parsed like the CLI's) and are
 * overridden by initializationOptions: offlineState, schemas[], language, stack, project, protect,
 * inputs ("minimal"|"read"), secrets ("config"|"literal"), secretsDir, maxRounds, ignoreResidual.
 * Relative paths in initializationOptions are resolved against the workspace root.
 *
 * textDocument/codeAction on an open import file (JSON or YAML, recognized by content) offers
 * "Import these resources into <program>" for every open program and the project's main program.
 * Long commands report $/progress; $/cancelRequest cancels a command that has not sent its edit. */
#ifndef CIMPORT_LSP_H
#define CIMPORT_LSP_H

#include <stdbool.h>
#include <stddef.h>

#include "session/session.h"

/* LSP's error codes (JSON-RPC's and LSP's own). */
enum {
    LSP_PARSE_ERROR = -32700,
    LSP_INVALID_REQUEST = -32600,
    LSP_METHOD_NOT_FOUND = -32601,
    LSP_INVALID_PARAMS = -32602,
    LSP_INTERNAL_ERROR = -32603,
    LSP_SERVER_NOT_INITIALIZED = -32002,
    LSP_REQUEST_FAILED = -32803,
    LSP_REQUEST_CANCELLED = -32800,
};

typedef struct lsp_server lsp_server_t;

/* Receives each outgoing message, framed (Content-Length header + JSON). False stops the server
 * (the client is gone). */
typedef bool (*lsp_write_fn)(void *user, const char *data, size_t len);

/* A server with default session options (copied; NULL: session_options_default). Messages go to
 * write. */
lsp_server_t *lsp_server_new(const session_options_t *defaults, lsp_write_fn write, void *user);
void lsp_server_free(lsp_server_t *s);

/* Handles one message body (JSON). Returns false once the server has stopped (exit, or a write
 * failed). */
bool lsp_server_handle(lsp_server_t *s, const char *json, size_t len);

/* Reads framed messages from in_fd and handles them until `exit` or the end of input; while a
 * command runs, messages that arrive are read too (so $/cancelRequest is seen). Returns the exit
 * code: 0 after shutdown + exit, 1 otherwise. */
int lsp_server_run(lsp_server_t *s, int in_fd);

/* Whether the server has received `exit` (and the code it will exit with). */
bool lsp_server_exited(const lsp_server_t *s, int *exit_code);

#endif
