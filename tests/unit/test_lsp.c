/* test_lsp.c — the language server (lsp/lsp*.c, linked from the cimport_lsp library), driven
 * through its real loop: a session's messages are framed into a file the server reads as its
 * input, and everything it writes is parsed back.
 *
 * Covers framing (split, glued, LF-only, bad and missing Content-Length, EOF mid-message),
 * JSON-RPC errors (ParseError, InvalidRequest, MethodNotFound, InvalidParams, ServerNotInitialized),
 * the lifecycle's exit codes, document sync (full and incremental, UTF-16 and negotiated UTF-8),
 * positions and the smallest edits on non-ASCII and CRLF text, both commands end to end against the
 * offline provider (quickstart stack + random schema), progress, cancel, the editor refusing an
 * edit, failures the user must see (an ID the state lacks, a bad schema path, a program with a
 * syntax error) and the code action on an import file. */
#include <check.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fileio.h"
#include "cli/cli.h"
#include "lsp/lsp.h"
#include "lsp/lsp_internal.h"
#include "session/session.h"
#include "splice/splice.h"
#include "testutil.h"

#define QUICKSTART SOURCE_DIR "/examples/quickstart"
#define RANDOM_SCHEMA SHARED_DATA "/schemas/random/schema.json"
#define PET "random:index/randomString:RandomString"

/* ---------- sessions ---------- */

typedef struct session {
    buf_t in;    /* framed client messages */
    buf_t out;   /* what the server wrote */
    cJSON *msgs; /* the server's messages, parsed */
    int rc;
} session_t;

static void sess_init(session_t *ss) {
    memset(ss, 0, sizeof *ss);
    buf_init(&ss->in);
    buf_init(&ss->out);
}

static void sess_free(session_t *ss) {
    buf_free(&ss->in);
    buf_free(&ss->out);
    cJSON_Delete(ss->msgs);
}

static void sess_raw(session_t *ss, const char *text) {
    buf_puts(&ss->in, text);
}

static void sess_add(session_t *ss, cJSON *m) {
    char *body = cJSON_PrintUnformatted(m);
    buf_printf(&ss->in, "Content-Length: %zu\r\n\r\n%s", strlen(body), body);
    free(body);
    cJSON_Delete(m);
}

/* Adds a message written as JSON text (printf format). */
static void sess_json(session_t *ss, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sess_json(session_t *ss, const char *fmt, ...) {
    char text[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    cJSON *m = cJSON_Parse(text);
    ck_assert_msg(m != NULL, "bad test JSON: %s", text);
    sess_add(ss, m);
}

/* initialize (+ initialized) with the offline quickstart options; extra_caps is JSON for
 * "capabilities" ("{}" for none). */
static void sess_init_server(session_t *ss, const char *caps) {
    sess_json(ss,
              "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"processId\":null,"
              "\"rootUri\":null,\"capabilities\":%s,\"initializationOptions\":{\"offlineState\":\"%s/stack.json\","
              "\"schemas\":[\"%s\"]}}}",
              caps, QUICKSTART, RANDOM_SCHEMA);
    sess_json(ss, "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}");
}

/* initialize with the workspace root dir (rootUri), then initialized. */
static void sess_init_root(session_t *ss, const char *dir) {
    sess_json(ss,
              "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"processId\":null,"
              "\"rootUri\":\"file://%s\",\"capabilities\":{\"workspace\":{\"applyEdit\":true}},"
              "\"initializationOptions\":{\"offlineState\":\"%s/stack.json\",\"schemas\":[\"%s\"]}}}",
              dir, QUICKSTART, RANDOM_SCHEMA);
    sess_json(ss, "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}");
}

/* A textDocument/codeAction request (id) for the document at uri. */
static void sess_code_action(session_t *ss, int id, const char *uri) {
    sess_json(ss,
              "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"textDocument/codeAction\",\"params\":{\"textDocument\":"
              "{\"uri\":\"%s\"},\"range\":{\"start\":{\"line\":0,\"character\":0},\"end\":{\"line\":0,"
              "\"character\":0}},\"context\":{\"diagnostics\":[]}}}",
              id, uri);
}

static void sess_open(session_t *ss, const char *uri, const char *language_id, const char *text) {
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "jsonrpc", "2.0");
    cJSON_AddStringToObject(m, "method", "textDocument/didOpen");
    cJSON *td = cJSON_AddObjectToObject(cJSON_AddObjectToObject(m, "params"), "textDocument");
    cJSON_AddStringToObject(td, "uri", uri);
    cJSON_AddStringToObject(td, "languageId", language_id);
    cJSON_AddNumberToObject(td, "version", 1);
    cJSON_AddStringToObject(td, "text", text);
    sess_add(ss, m);
}

static void sess_import(session_t *ss, int id, const char *id_value, const char *uri, const char *extra) {
    sess_json(ss,
              "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"workspace/executeCommand\",\"params\":{\"command\":"
              "\"cimport.importResource\",\"arguments\":[{\"type\":\"" PET "\",\"name\":\"server-name\",\"id\":\"%s\","
              "\"uri\":\"%s\"}]%s}}",
              id, id_value, uri, extra ? extra : "");
}

static void sess_end(session_t *ss, int id) {
    sess_json(ss, "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"shutdown\"}", id);
    sess_json(ss, "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
}

static bool sess_write(void *user, const char *data, size_t len) {
    buf_append(&((session_t *)user)->out, data, len);
    return true;
}

static void sess_parse_out(session_t *ss);

/* Runs the server over the session's input (a file: any size, read like a pipe) and parses what
 * it wrote. Returns the server so tests can look at its documents; free with lsp_server_free. */
static lsp_server_t *sess_run_keep(session_t *ss, const session_options_t *defaults) {
    char path[] = "/tmp/test_lsp_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert(write(fd, ss->in.data ? ss->in.data : "", ss->in.len) == (ssize_t)ss->in.len);
    lseek(fd, 0, SEEK_SET);
    unlink(path);
    lsp_server_t *s = lsp_server_new(defaults, sess_write, ss);
    ss->rc = lsp_server_run(s, fd);
    close(fd);
    sess_parse_out(ss);
    return s;
}

/* Parses what the server wrote into ss->msgs. */
static void sess_parse_out(session_t *ss) {
    ss->msgs = cJSON_CreateArray();
    const char *p = ss->out.data ? ss->out.data : "";
    const char *end = p + ss->out.len;
    while (p < end) {
        size_t n;
        ck_assert_msg(sscanf(p, "Content-Length: %zu\r\n\r\n", &n) == 1, "bad output framing at: %.40s", p);
        const char *body = strstr(p, "\r\n\r\n") + 4;
        ck_assert(body + n <= end);
        cJSON *m = cJSON_ParseWithLength(body, n);
        ck_assert_msg(m != NULL, "server wrote invalid JSON: %.*s", (int)n, body);
        cJSON_AddItemToArray(ss->msgs, m);
        p = body + n;
    }
}

static void sess_run(session_t *ss) {
    lsp_server_free(sess_run_keep(ss, NULL));
}

/* The server's response to request `id` (client ids are numbers). */
static const cJSON *resp(const session_t *ss, int id) {
    const cJSON *m;
    cJSON_ArrayForEach(m, ss->msgs) {
        const cJSON *mid = cJSON_GetObjectItem(m, "id");
        if (cJSON_IsNumber(mid) && mid->valueint == id && !cJSON_HasObjectItem(m, "method")) return m;
    }
    return NULL;
}

static int error_code(const session_t *ss, int id) {
    const cJSON *r = resp(ss, id);
    ck_assert_msg(r != NULL, "no response to request %d", id);
    const cJSON *e = cJSON_GetObjectItem(r, "error");
    ck_assert_msg(e != NULL, "request %d did not fail", id);
    return cJSON_GetObjectItem(e, "code")->valueint;
}

static const char *error_message(const session_t *ss, int id) {
    return cJSON_GetObjectItem(cJSON_GetObjectItem(resp(ss, id), "error"), "message")->valuestring;
}

/* The n-th (0-based) server message with `method`, or NULL. */
static const cJSON *nth_method(const session_t *ss, const char *method, int n) {
    const cJSON *m;
    cJSON_ArrayForEach(m, ss->msgs) {
        const cJSON *mm = cJSON_GetObjectItem(m, "method");
        if (cJSON_IsString(mm) && strcmp(mm->valuestring, method) == 0 && n-- == 0) return m;
    }
    return NULL;
}

static int count_method(const session_t *ss, const char *method) {
    int n = 0;
    while (nth_method(ss, method, n))
        n++;
    return n;
}

/* Errors with id null (ParseError for framing and JSON). */
static int count_null_id_errors(const session_t *ss, int code) {
    int n = 0;
    const cJSON *m;
    cJSON_ArrayForEach(m, ss->msgs) {
        if (cJSON_IsNull(cJSON_GetObjectItem(m, "id")) &&
            cJSON_GetObjectItem(cJSON_GetObjectItem(m, "error"), "code")->valueint == code)
            n++;
    }
    return n;
}

/* ---------- a client's view of edits: an independent UTF-16 → byte mapping ---------- */

static size_t client_offset(const char *t, long line, long ch, bool utf8) {
    size_t i = 0;
    for (long l = 0; l < line; l++) {
        while (t[i] && t[i] != '\n' && t[i] != '\r')
            i++;
        if (t[i] == '\r' && t[i + 1] == '\n') i++;
        if (t[i]) i++;
    }
    long u = 0;
    while (t[i] && t[i] != '\n' && t[i] != '\r' && u < ch) {
        unsigned char c = (unsigned char)t[i];
        int n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        u += utf8 ? n : (n == 4 ? 2 : 1);
        i += (size_t)n;
    }
    ck_assert_int_eq(u, ch); /* a position must fall on a character boundary */
    return i;
}

/* Applies TextEdit[] (positions in the original text) as an editor would: from the last one. */
static char *client_apply(const char *text, const cJSON *edits, bool utf8) {
    size_t n = (size_t)cJSON_GetArraySize(edits);
    char *cur = strdup(text);
    for (size_t k = n; k-- > 0;) {
        const cJSON *e = cJSON_GetArrayItem(edits, (int)k);
        const cJSON *r = cJSON_GetObjectItem(e, "range");
        const cJSON *st = cJSON_GetObjectItem(r, "start"), *en = cJSON_GetObjectItem(r, "end");
        size_t a = client_offset(text, cJSON_GetObjectItem(st, "line")->valueint,
                                 cJSON_GetObjectItem(st, "character")->valueint, utf8);
        size_t b = client_offset(text, cJSON_GetObjectItem(en, "line")->valueint,
                                 cJSON_GetObjectItem(en, "character")->valueint, utf8);
        ck_assert_uint_le(a, b);
        /* edits are sorted and apart: offsets in `text` are valid in `cur` as long as we go backwards */
        const char *nt = cJSON_GetObjectItem(e, "newText")->valuestring;
        size_t cl = strlen(cur);
        char *next = malloc(cl - (b - a) + strlen(nt) + 1);
        memcpy(next, cur, a);
        strcpy(next + a, nt);
        strcat(next, cur + b);
        free(cur);
        cur = next;
    }
    return cur;
}

/* The TextEdit[] of the n-th applyEdit for uri (changes or documentChanges). */
static const cJSON *apply_edits(const session_t *ss, int n, const char *uri) {
    const cJSON *m = nth_method(ss, "workspace/applyEdit", n);
    ck_assert_msg(m != NULL, "no workspace/applyEdit #%d", n);
    const cJSON *edit = cJSON_GetObjectItem(cJSON_GetObjectItem(m, "params"), "edit");
    const cJSON *changes = cJSON_GetObjectItem(edit, "changes");
    if (changes) return cJSON_GetObjectItem(changes, uri);
    const cJSON *dc = cJSON_GetArrayItem(cJSON_GetObjectItem(edit, "documentChanges"), 0);
    return cJSON_GetObjectItem(dc, "edits");
}

static const char *show_text(const session_t *ss, int n, int *type) {
    const cJSON *m = nth_method(ss, "window/showMessage", n);
    if (!m) return NULL;
    const cJSON *p = cJSON_GetObjectItem(m, "params");
    if (type) *type = cJSON_GetObjectItem(p, "type")->valueint;
    return cJSON_GetObjectItem(p, "message")->valuestring;
}

static const char *TS_PROGRAM = "// Équipe: José Müller 😀\n"
                                "import * as pulumi from \"@pulumi/pulumi\";\n"
                                "import * as random from \"@pulumi/random\";\n"
                                "\n"
                                "const owner = \"José 😀 Müller\";\n"
                                "export const who = owner;\n";

/* ---------- framing ---------- */

START_TEST(test_reader_split_glued_lf) {
    int p[2];
    ck_assert_int_eq(pipe(p), 0);
    lsp_reader_t r;
    lsp_reader_init(&r, p[0]);
    char *body;
    size_t len;
    /* half a header: nothing yet */
    ck_assert(write(p[1], "Content-Len", 11) == 11);
    ck_assert_int_eq(lsp_reader_next(&r, false, &body, &len), LSP_READ_AGAIN);
    /* the rest, a second message glued on, LF-only headers and lower case with Content-Type */
    const char *rest = "gth: 7\r\n\r\n{\"a\":1}content-length:  2\ncontent-type: application/vscode-jsonrpc; "
                       "charset=utf-8\n\n[]";
    ck_assert(write(p[1], rest, strlen(rest)) == (ssize_t)strlen(rest));
    ck_assert_int_eq(lsp_reader_next(&r, false, &body, &len), LSP_READ_MESSAGE);
    ck_assert_str_eq(body, "{\"a\":1}");
    ck_assert_uint_eq(len, 7);
    free(body);
    ck_assert_int_eq(lsp_reader_next(&r, false, &body, &len), LSP_READ_MESSAGE);
    ck_assert_str_eq(body, "[]");
    free(body);
    ck_assert_int_eq(lsp_reader_next(&r, false, &body, &len), LSP_READ_AGAIN);
    /* EOF in the middle of a body */
    ck_assert(write(p[1], "Content-Length: 10\r\n\r\n{\"x\"", 26) == 26);
    close(p[1]);
    ck_assert_int_eq(lsp_reader_next(&r, true, &body, &len), LSP_READ_EOF);
    ck_assert(r.partial);
    ck_assert_ptr_null(body);
    lsp_reader_free(&r);
    close(p[0]);
}
END_TEST

START_TEST(test_reader_bad_headers_resync) {
    int p[2];
    ck_assert_int_eq(pipe(p), 0);
    const char *in = "Content-Type: x\r\n\r\n{\"lost\":1}"      /* no Content-Length */
                     "Content-Length: abc\r\n\r\n{}"            /* not a number */
                     "Content-Length: 99999999999999\r\n\r\n{}" /* too large */
                     "Content-Length: 2\r\n\r\n{}";
    ck_assert(write(p[1], in, strlen(in)) == (ssize_t)strlen(in));
    close(p[1]);
    lsp_reader_t r;
    lsp_reader_init(&r, p[0]);
    char *body;
    size_t len;
    ck_assert_int_eq(lsp_reader_next(&r, true, &body, &len), LSP_READ_BAD_HEADER);
    ck_assert_str_eq(r.error, "a message has no Content-Length header");
    ck_assert_int_eq(lsp_reader_next(&r, true, &body, &len), LSP_READ_BAD_HEADER);
    ck_assert_str_eq(r.error, "the Content-Length header is not a number of bytes up to 268435456");
    ck_assert_int_eq(lsp_reader_next(&r, true, &body, &len), LSP_READ_BAD_HEADER);
    ck_assert_str_eq(r.error, "the Content-Length header is not a number of bytes up to 268435456");
    /* reading resumes at the next Content-Length: the skipped bodies are not taken for messages */
    ck_assert_int_eq(lsp_reader_next(&r, true, &body, &len), LSP_READ_MESSAGE);
    ck_assert_str_eq(body, "{}");
    free(body);
    ck_assert_int_eq(lsp_reader_next(&r, true, &body, &len), LSP_READ_EOF);
    ck_assert(!r.partial);
    lsp_reader_free(&r);
    close(p[0]);

    /* a header line that is not a header at all */
    ck_assert_int_eq(pipe(p), 0);
    in = "garbage without colon\r\n\r\nContent-Length: 2\r\n\r\n[]";
    ck_assert(write(p[1], in, strlen(in)) == (ssize_t)strlen(in));
    close(p[1]);
    lsp_reader_init(&r, p[0]);
    ck_assert_int_eq(lsp_reader_next(&r, true, &body, &len), LSP_READ_BAD_HEADER);
    ck_assert_str_eq(r.error, "a header line has no ':' (expected 'Content-Length: N')");
    ck_assert_int_eq(lsp_reader_next(&r, true, &body, &len), LSP_READ_MESSAGE);
    ck_assert_str_eq(body, "[]");
    free(body);
    lsp_reader_free(&r);
    close(p[0]);
}
END_TEST

/* ---------- positions and edits ---------- */

START_TEST(test_positions_utf16_utf8) {
    const char *t = "a😀b\r\nJosé x\rlast";
    size_t n = strlen(t);
    /* line 0: 'a' (1 unit), 😀 (2 UTF-16 units, 4 bytes), 'b' */
    ck_assert_uint_eq(lsp_text_offset(t, n, 0, 1, LSP_ENC_UTF16), 1);
    ck_assert_uint_eq(lsp_text_offset(t, n, 0, 3, LSP_ENC_UTF16), 5);
    ck_assert_uint_eq(lsp_text_offset(t, n, 0, 2, LSP_ENC_UTF16), 1); /* inside the pair: its start */
    ck_assert_uint_eq(lsp_text_offset(t, n, 0, 5, LSP_ENC_UTF8), 5);
    ck_assert_uint_eq(lsp_text_offset(t, n, 0, 99, LSP_ENC_UTF16), 6); /* past the end: before CRLF */
    /* line 1 after CRLF; é is 1 unit, 2 bytes */
    ck_assert_uint_eq(lsp_text_offset(t, n, 1, 5, LSP_ENC_UTF16), 8 + 6);
    ck_assert_uint_eq(lsp_text_offset(t, n, 1, 6, LSP_ENC_UTF8), 8 + 6);
    /* a lone CR ends line 1 */
    ck_assert_uint_eq(lsp_text_offset(t, n, 2, 0, LSP_ENC_UTF16), 16);
    ck_assert_uint_eq(lsp_text_offset(t, n, 9, 0, LSP_ENC_UTF16), n);
    long l, c;
    lsp_text_position(t, n, 5, LSP_ENC_UTF16, &l, &c);
    ck_assert_int_eq(l, 0);
    ck_assert_int_eq(c, 3);
    lsp_text_position(t, n, 14, LSP_ENC_UTF16, &l, &c);
    ck_assert_int_eq(l, 1);
    ck_assert_int_eq(c, 5);
    lsp_text_position(t, n, 14, LSP_ENC_UTF8, &l, &c);
    ck_assert_int_eq(c, 6);
    lsp_text_position(t, n, 17, LSP_ENC_UTF16, &l, &c);
    ck_assert_int_eq(l, 2);
    ck_assert_int_eq(c, 1);
}
END_TEST

/* Diffs old → new, checks the edits are sorted, apart and minimal-looking, and that applying them
 * (as a client, in both encodings) gives new. Returns the number of edits. */
static size_t diff_roundtrip(const char *old_text, const char *new_text) {
    lsp_edit_t *e;
    size_t n = lsp_text_diff(old_text, strlen(old_text), new_text, strlen(new_text), &e);
    for (size_t i = 1; i < n; i++)
        ck_assert_uint_lt(e[i - 1].old_end, e[i].old_start);
    for (int enc = 0; enc < 2; enc++) {
        cJSON *j = lsp_edits_json(old_text, strlen(old_text), new_text, e, n, (lsp_encoding_t)enc);
        char *got = client_apply(old_text, j, enc == LSP_ENC_UTF8);
        ck_assert_str_eq(got, new_text);
        free(got);
        cJSON_Delete(j);
    }
    free(e);
    return n;
}

START_TEST(test_diff_smallest_edits) {
    ck_assert_uint_eq(diff_roundtrip("same\n", "same\n"), 0);
    /* an import at the top and a resource at the end: two edits, not one covering the file */
    ck_assert_uint_eq(diff_roundtrip("import a\n\nx = 1\ny = 2\n", "import a\nimport b\n\nx = 1\ny = 2\nz = 3\n"), 2);
    /* a change inside a line after non-ASCII text is narrowed to the differing bytes */
    lsp_edit_t *e;
    const char *o = "s = \"José 😀 Müller\"\n", *n = "s = \"José 😀 Muller\"\n";
    ck_assert_uint_eq(lsp_text_diff(o, strlen(o), n, strlen(n), &e), 1);
    cJSON *j = lsp_edits_json(o, strlen(o), n, e, 1, LSP_ENC_UTF16);
    const cJSON *st = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetArrayItem(j, 0), "range"), "start");
    ck_assert_int_eq(cJSON_GetObjectItem(st, "character")->valueint, 14); /* ü after 😀 (2 units) */
    ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(j, 0), "newText")->valuestring, "u");
    cJSON_Delete(j);
    j = lsp_edits_json(o, strlen(o), n, e, 1, LSP_ENC_UTF8);
    st = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetArrayItem(j, 0), "range"), "start");
    ck_assert_int_eq(cJSON_GetObjectItem(st, "character")->valueint, 17); /* bytes */
    cJSON_Delete(j);
    free(e);
    /* never split a UTF-8 character: é (C3 A9) → è (C3 A8) replaces the whole character */
    ck_assert_uint_eq(diff_roundtrip("é\n", "è\n"), 1);
    ck_assert_uint_eq(lsp_text_diff("é", 2, "è", 2, &e), 1);
    ck_assert_uint_eq(e[0].old_start, 0);
    ck_assert_uint_eq(e[0].old_end, 2);
    free(e);
    /* CRLF: lines added between CRLF lines; no edit ends between CR and LF */
    diff_roundtrip("a\r\nb\r\n", "a\r\nx\r\nb\r\n");
    diff_roundtrip("a\r\nb", "a\r\nb\r\nc");
    diff_roundtrip("a\rb\rc", "a\rB\rc");
    /* empty texts, everything replaced, moves */
    diff_roundtrip("", "x\n");
    diff_roundtrip("x\n", "");
    diff_roundtrip("1\n2\n3\n4\n5\n", "5\n4\n3\n2\n1\n");
    diff_roundtrip("a\nb\nc\nd\n", "a\nB\nc\nD\n");
}
END_TEST

START_TEST(test_diff_large_file) {
    buf_t b;
    buf_init(&b);
    for (int i = 0; i < 10000; i++)
        buf_printf(&b, "const v%d = \"é%d\";\n", i, i);
    char *old_text = buf_take(&b);
    buf_puts(&b, "import * as x from \"x\";\n");
    buf_puts(&b, old_text);
    buf_puts(&b, "const added = 1;\n");
    char *new_text = buf_take(&b);
    ck_assert_uint_eq(diff_roundtrip(old_text, new_text), 2);
    /* a change on every line of a 10,000-line file: still correct */
    buf_init(&b);
    for (int i = 0; i < 6000; i++)
        buf_printf(&b, "%d\n", i % 2 ? i : -i);
    char *other = buf_take(&b);
    diff_roundtrip(old_text, other);
    free(old_text);
    free(new_text);
    free(other);
}
END_TEST

START_TEST(test_uris) {
    char *p = lsp_uri_to_path("file:///tmp/My%20Project/%C3%A9.ts");
    ck_assert_str_eq(p, "/tmp/My Project/é.ts");
    free(p);
    p = lsp_uri_to_path("file://localhost/x/y.go");
    ck_assert_str_eq(p, "/x/y.go");
    free(p);
    ck_assert_ptr_null(lsp_uri_to_path("untitled:Untitled-1"));
    ck_assert_ptr_null(lsp_uri_to_path("file://otherhost/x"));
    char *u = lsp_path_to_uri("/tmp/My Project/é.ts");
    ck_assert_str_eq(u, "file:///tmp/My%20Project/%C3%A9.ts");
    free(u);
}
END_TEST

/* ---------- protocol ---------- */

START_TEST(test_malformed_framing_and_json) {
    session_t ss;
    sess_init(&ss);
    sess_init_server(&ss, "{}");
    sess_raw(&ss, "Content-Type: text/plain\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":50,\"method\":\"shutdown\"}");
    sess_raw(&ss, "Content-Length: 9\r\n\r\n{not json");
    sess_raw(&ss, "Content-Length: 2\r\n\r\n[]");
    sess_json(&ss, "{\"jsonrpc\":\"1.0\",\"id\":3,\"method\":\"shutdown\"}");
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":{\"x\":1},\"method\":\"shutdown\"}");
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":4}");
    sess_end(&ss, 5);
    sess_run(&ss);
    /* the request inside the headerless message was skipped, not run */
    ck_assert_ptr_null(resp(&ss, 50));
    ck_assert_int_eq(count_null_id_errors(&ss, LSP_PARSE_ERROR), 2);     /* framing + JSON */
    ck_assert_int_eq(count_null_id_errors(&ss, LSP_INVALID_REQUEST), 2); /* [] and the object id */
    ck_assert_int_eq(error_code(&ss, 3), LSP_INVALID_REQUEST);
    ck_assert_int_eq(error_code(&ss, 4), LSP_INVALID_REQUEST);
    /* and the session goes on */
    ck_assert(cJSON_IsNull(cJSON_GetObjectItem(resp(&ss, 5), "result")));
    ck_assert_int_eq(ss.rc, 0);
    sess_free(&ss);
}
END_TEST

START_TEST(test_not_initialized_and_unknown_methods) {
    session_t ss;
    sess_init(&ss);
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"workspace/executeCommand\",\"params\":{}}");
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"shutdown\"}");
    /* a notification before initialize is dropped silently */
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{}}");
    /* bad initializationOptions: InvalidParams, and still not initialized */
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"initialize\",\"params\":{\"capabilities\":{},"
                   "\"initializationOptions\":{\"schemas\":\"one.json\"}}}");
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"textDocument/codeAction\",\"params\":{}}");
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"initialize\",\"params\":{\"capabilities\":{},"
                   "\"initializationOptions\":{\"inputs\":\"all\"}}}");
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"initialize\",\"params\":{\"capabilities\":{}}}");
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"initialize\",\"params\":{\"capabilities\":{}}}");
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"textDocument/hover\",\"params\":{}}");
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":\"nine\",\"method\":\"cimport/nothing\"}");
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"method\":\"$/setTrace\",\"params\":{\"value\":\"off\"}}");
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"method\":\"cimport/unknownNotification\"}");
    sess_end(&ss, 10);
    sess_run(&ss);
    ck_assert_int_eq(error_code(&ss, 1), LSP_SERVER_NOT_INITIALIZED);
    ck_assert_int_eq(error_code(&ss, 2), LSP_SERVER_NOT_INITIALIZED);
    ck_assert_str_eq(error_message(&ss, 2), "the server is not initialized: send 'initialize' before 'shutdown'");
    ck_assert_int_eq(error_code(&ss, 3), LSP_INVALID_PARAMS);
    ck_assert_str_eq(error_message(&ss, 3),
                     "initializationOptions.schemas must be an array of schema file or directory paths");
    ck_assert_int_eq(error_code(&ss, 4), LSP_SERVER_NOT_INITIALIZED);
    ck_assert_int_eq(error_code(&ss, 5), LSP_INVALID_PARAMS);
    ck_assert_str_eq(error_message(&ss, 5), "initializationOptions.inputs must be \"minimal\" or \"read\"");
    const cJSON *caps = cJSON_GetObjectItem(cJSON_GetObjectItem(resp(&ss, 6), "result"), "capabilities");
    ck_assert_str_eq(cJSON_GetObjectItem(caps, "positionEncoding")->valuestring, "utf-16");
    ck_assert_int_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(caps, "textDocumentSync"), "change")->valueint, 2);
    ck_assert_int_eq(error_code(&ss, 7), LSP_INVALID_REQUEST); /* initialize twice */
    ck_assert_int_eq(error_code(&ss, 8), LSP_METHOD_NOT_FOUND);
    ck_assert_str_eq(error_message(&ss, 8), "unknown method 'textDocument/hover'");
    /* a string id is answered with the same string id */
    const cJSON *m;
    bool seen = false;
    cJSON_ArrayForEach(m, ss.msgs) {
        const cJSON *id = cJSON_GetObjectItem(m, "id");
        if (cJSON_IsString(id) && strcmp(id->valuestring, "nine") == 0) {
            ck_assert_int_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(m, "error"), "code")->valueint,
                             LSP_METHOD_NOT_FOUND);
            seen = true;
        }
    }
    ck_assert(seen);
    /* notifications are never answered: one response per request, nothing else */
    ck_assert_int_eq(cJSON_GetArraySize(ss.msgs), 10);
    ck_assert_int_eq(ss.rc, 0);
    sess_free(&ss);
}
END_TEST

START_TEST(test_exit_codes) {
    session_t ss;
    /* shutdown then exit: 0; requests after shutdown are refused */
    sess_init(&ss);
    sess_init_server(&ss, "{}");
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"shutdown\"}");
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"textDocument/codeAction\",\"params\":{}}");
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"shutdown\"}"); /* after exit: never read */
    sess_run(&ss);
    ck_assert_int_eq(ss.rc, 0);
    ck_assert_int_eq(error_code(&ss, 3), LSP_INVALID_REQUEST);
    ck_assert_ptr_null(resp(&ss, 4));
    sess_free(&ss);
    /* exit without shutdown: 1 */
    sess_init(&ss);
    sess_init_server(&ss, "{}");
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
    sess_run(&ss);
    ck_assert_int_eq(ss.rc, 1);
    sess_free(&ss);
    /* exit before initialize: 1; the end of input without exit: 1 */
    sess_init(&ss);
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
    sess_run(&ss);
    ck_assert_int_eq(ss.rc, 1);
    sess_free(&ss);
    sess_init(&ss);
    sess_init_server(&ss, "{}");
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"shutdown\"}");
    sess_run(&ss);
    ck_assert_int_eq(ss.rc, 1);
    sess_free(&ss);
}
END_TEST

START_TEST(test_bad_command_params) {
    session_t ss;
    sess_init(&ss);
    sess_init_server(&ss, "{}");
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"workspace/executeCommand\",\"params\":{\"command\":"
                   "\"cimport.importResource\",\"arguments\":[{\"type\":\"" PET "\",\"id\":\"x\"}]}}");
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"workspace/executeCommand\",\"params\":{\"command\":"
                   "\"cimport.nothing\"}}");
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"workspace/executeCommand\",\"params\":{\"command\":"
                   "\"cimport.importFile\",\"arguments\":[\"imports.json\"]}}");
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"workspace/executeCommand\",\"params\":{\"command\":"
                   "\"cimport.importResource\",\"arguments\":[{\"type\":\"" PET "\",\"name\":\"n\",\"id\":\"x\","
                   "\"parent\":7}]}}");
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"workspace/executeCommand\",\"params\":[]}");
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"workspace/executeCommand\",\"params\":{\"command\":"
                   "\"cimport.importResource\",\"arguments\":[{\"type\":\"" PET "\",\"name\":\"n\",\"id\":\"x\"}]}}");
    sess_end(&ss, 8);
    sess_run(&ss);
    ck_assert_int_eq(error_code(&ss, 2), LSP_INVALID_PARAMS);
    ck_assert_str_eq(error_message(&ss, 2),
                     "cimport.importResource needs \"name\" (a string): the resource's type token, name and import ID");
    ck_assert_int_eq(error_code(&ss, 3), LSP_INVALID_PARAMS);
    ck_assert_str_eq(error_message(&ss, 3),
                     "unknown command 'cimport.nothing': cimport offers cimport.importResource, cimport.importFile "
                     "and cimport.showReport");
    ck_assert_int_eq(error_code(&ss, 4), LSP_INVALID_PARAMS);
    ck_assert_int_eq(error_code(&ss, 5), LSP_INVALID_PARAMS);
    ck_assert_str_eq(error_message(&ss, 5), "cimport.importResource: \"parent\" must be a string");
    ck_assert_int_eq(error_code(&ss, 6), LSP_INVALID_PARAMS);
    /* no uri and no open program */
    ck_assert_int_eq(error_code(&ss, 7), LSP_INVALID_PARAMS);
    ck_assert_ptr_nonnull(strstr(error_message(&ss, 7), "needs \"uri\""));
    ck_assert_int_eq(count_method(&ss, "workspace/applyEdit"), 0);
    ck_assert_int_eq(ss.rc, 0);
    sess_free(&ss);
}
END_TEST

/* ---------- documents and commands ---------- */

START_TEST(test_import_resource_into_unsaved_document) {
    session_t ss;
    sess_init(&ss);
    sess_init_server(&ss, "{\"workspace\":{\"applyEdit\":true}}");
    const char *uri = "file:///nonexistent/dir/index.ts"; /* never on disk: only the editor has it */
    sess_open(&ss, uri, "typescript", "// placeholder\n");
    /* full sync, then incremental edits in UTF-16 on a non-ASCII line */
    sess_json(&ss,
              "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didChange\",\"params\":{\"textDocument\":{"
              "\"uri\":\"%s\",\"version\":2},\"contentChanges\":[{\"text\":%s}]}}",
              uri,
              "\"// Équipe: José Müller 😀\\nimport * as pulumi from \\\"@pulumi/pulumi\\\";\\n"
              "import * as random from \\\"@pulumi/random\\\";\\n\\nconst owner = \\\"José 😀 Müller\\\";\\n"
              "export const who = owner;\\n\"");
    /* "Müller" in line 4 starts at UTF-16 column 23 (😀 counts 2): replace "Müller" with "Mueller" */
    sess_json(&ss,
              "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didChange\",\"params\":{\"textDocument\":{"
              "\"uri\":\"%s\",\"version\":3},\"contentChanges\":[{\"range\":{\"start\":{\"line\":4,"
              "\"character\":23},\"end\":{\"line\":4,\"character\":29}},\"text\":\"Mueller\"},"
              "{\"range\":{\"start\":{\"line\":5,\"character\":0},\"end\":{\"line\":5,\"character\":0}},"
              "\"text\":\"// ünsaved 😀 edit\\n\"}]}}",
              uri);
    sess_import(&ss, 2, "mq7xk2vt9fzr", uri, NULL);
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"applied\":true}}");
    sess_end(&ss, 3);
    lsp_server_t *s = sess_run_keep(&ss, NULL);
    const char *expect_doc = "// Équipe: José Müller 😀\n"
                             "import * as pulumi from \"@pulumi/pulumi\";\n"
                             "import * as random from \"@pulumi/random\";\n"
                             "\n"
                             "const owner = \"José 😀 Mueller\";\n"
                             "// ünsaved 😀 edit\n"
                             "export const who = owner;\n";
    long version = 0;
    const char *text = lsp_server_document(s, uri, NULL, &version);
    ck_assert_ptr_nonnull(text);
    ck_assert_str_eq(text, expect_doc);
    ck_assert_int_eq(version, 3);
    lsp_server_free(s);
    /* one applyEdit with the smallest edit: an insertion at the end, nothing else touched */
    ck_assert_int_eq(count_method(&ss, "workspace/applyEdit"), 1);
    const cJSON *edits = apply_edits(&ss, 0, uri);
    ck_assert_int_eq(cJSON_GetArraySize(edits), 1);
    char *after = client_apply(expect_doc, edits, false);
    ck_assert_ptr_nonnull(strstr(after, "// ünsaved 😀 edit\nexport const who = owner;\n"));
    ck_assert_ptr_nonnull(strstr(after, "new random.RandomString(\"server-name\", {"));
    ck_assert_ptr_nonnull(strstr(after, "{length: 12}"));
    /* no intoStack: no stack holds the resource, so the code imports it (as the command line's code
     * does when it writes no stack); without the option `pulumi up` would create a second one */
    ck_assert_ptr_nonnull(strstr(after, "import: \"mq7xk2vt9fzr\""));
    ck_assert_int_eq(strncmp(after, expect_doc, strlen(expect_doc)), 0); /* appended */
    free(after);
    const cJSON *r = cJSON_GetObjectItem(resp(&ss, 2), "result");
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(r, "applied")));
    ck_assert_int_eq(cJSON_GetObjectItem(r, "imported")->valueint, 1);
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(r, "importOption")));
    ck_assert_int_eq(cJSON_GetObjectItem(r, "inserted")->valueint, 1);
    ck_assert_int_eq(cJSON_GetObjectItem(r, "importsAdded")->valueint, 0);
    ck_assert_int_eq(count_method(&ss, "window/showMessage"), 1);
    int type = 0;
    ck_assert_str_eq(show_text(&ss, 0, &type),
                     "cimport: nothing was imported into a stack yet: the code for index.ts imports the resource "
                     "with the `import` resource option, so `pulumi up` imports it instead of creating it");
    ck_assert_int_eq(type, 3);
    ck_assert_int_eq(ss.rc, 0);
    sess_free(&ss);
}
END_TEST

/* The user types in the program while the import runs: the edit cimport computed is against the text
 * it read, so it must not be sent where the client applies it to whatever the buffer holds then
 * (a client without versioned documentChanges, or a file that is not open: "changes" carry no
 * version). Before, the edit went out, the client applied it to the changed text at the old
 * positions and the answer said "applied": the code landed in the middle of the user's new line.
 * Now the command fails naming the change, nothing is sent or written, and the document keeps the
 * user's text. The same for a program that was not open and is opened with other text meanwhile. */
START_TEST(test_document_changed_during_import) {
    session_t ss;
    sess_init(&ss);
    sess_init_server(&ss, "{\"workspace\":{\"applyEdit\":true}}");
    const char *uri = "file:///nonexistent/dir/index.ts";
    sess_open(&ss, uri, "typescript", "import * as pulumi from \"@pulumi/pulumi\";\n");
    sess_import(&ss, 2, "mq7xk2vt9fzr", uri, NULL);
    /* arrives while the import runs (read with the rest of the input while the session polls) */
    sess_json(&ss,
              "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didChange\",\"params\":{\"textDocument\":{"
              "\"uri\":\"%s\",\"version\":2},\"contentChanges\":[{\"text\":\"// typed meanwhile\\nimport * as "
              "pulumi from \\\"@pulumi/pulumi\\\";\\n\"}]}}",
              uri);
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"applied\":true}}");
    /* a program on disk, not open, opened with unsaved text while the second import runs */
    char dir[] = "/tmp/test_lsp_stale_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[512], disk_uri[600];
    snprintf(path, sizeof path, "%s/index.ts", dir);
    snprintf(disk_uri, sizeof disk_uri, "file://%s", path);
    tu_write(path, "import * as pulumi from \"@pulumi/pulumi\";\n");
    sess_import(&ss, 3, "mq7xk2vt9fzr", disk_uri, NULL);
    sess_open(&ss, disk_uri, "typescript", "// unsaved\nimport * as pulumi from \"@pulumi/pulumi\";\n");
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"applied\":true}}");
    sess_end(&ss, 4);
    lsp_server_t *s = sess_run_keep(&ss, NULL);
    long version = 0;
    const char *text = lsp_server_document(s, uri, NULL, &version);
    ck_assert_str_eq(text, "// typed meanwhile\nimport * as pulumi from \"@pulumi/pulumi\";\n");
    ck_assert_int_eq(version, 2);
    lsp_server_free(s);
    ck_assert_int_eq(count_method(&ss, "workspace/applyEdit"), 0);
    ck_assert_int_eq(error_code(&ss, 2), LSP_REQUEST_FAILED);
    tu_has(error_message(&ss, 2), "index.ts changed while cimport imported into it");
    tu_has(error_message(&ss, 2), "nothing was inserted or written: run the command again");
    ck_assert_int_eq(error_code(&ss, 3), LSP_REQUEST_FAILED);
    tu_has(error_message(&ss, 3), "index.ts changed while cimport imported into it");
    char *disk = tu_read(path, NULL);
    ck_assert_str_eq(disk, "import * as pulumi from \"@pulumi/pulumi\";\n");
    free(disk);
    unlink(path);
    rmdir(dir);
    ck_assert_int_eq(ss.rc, 0);
    sess_free(&ss);
}
END_TEST

/* cimport.showReport: the last import's report written and opened through window/showDocument. */
START_TEST(test_show_report) {
    char dir[] = "/tmp/test_lsp_report_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[512];
    snprintf(path, sizeof path, "%s/report.html", dir);
    session_t ss;
    sess_init(&ss);
    sess_init_server(&ss, "{\"workspace\":{\"applyEdit\":true},\"window\":{\"showDocument\":{\"support\":true}}}");
    const char *uri = "file:///nonexistent/dir/index.ts";
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"workspace/executeCommand\",\"params\":{\"command\":"
                   "\"cimport.showReport\"}}");
    sess_open(&ss, uri, "typescript", "import * as pulumi from \"@pulumi/pulumi\";\n");
    sess_import(&ss, 3, "mq7xk2vt9fzr", uri, NULL);
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"applied\":true}}");
    sess_json(&ss,
              "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"workspace/executeCommand\",\"params\":{\"command\":"
              "\"cimport.showReport\",\"arguments\":[{\"path\":\"%s\"}]}}",
              path);
    sess_end(&ss, 5);
    sess_run(&ss);
    ck_assert_int_eq(error_code(&ss, 2), LSP_REQUEST_FAILED);
    ck_assert_str_eq(error_message(&ss, 2), "no import has run in this session yet: run cimport.importResource or "
                                            "cimport.importFile first, then cimport.showReport shows its report");
    const cJSON *r = cJSON_GetObjectItem(resp(&ss, 4), "result");
    ck_assert_ptr_nonnull(r);
    ck_assert_str_eq(cJSON_GetObjectItem(r, "path")->valuestring, path);
    ck_assert_int_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(r, "summary"), "imported")->valueint, 1);
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(r, "summary"), "written"))); /* the edit applied */
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(r, "opened")));
    ck_assert_int_eq(count_method(&ss, "window/showDocument"), 1);
    const cJSON *sd = cJSON_GetObjectItem(nth_method(&ss, "window/showDocument", 0), "params");
    ck_assert_str_eq(cJSON_GetObjectItem(sd, "uri")->valuestring, cJSON_GetObjectItem(r, "uri")->valuestring);
    ck_assert_int_eq(strncmp(cJSON_GetObjectItem(sd, "uri")->valuestring, "file:///tmp/test_lsp_report_", 28), 0);
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(sd, "external")));
    arena_t *a = arena_new();
    diag_list_t dl;
    diag_list_init(&dl);
    size_t len;
    char *html = file_read_all(a, path, &len, &dl);
    ck_assert_ptr_nonnull(html);
    ck_assert_int_eq(strncmp(html, "<!DOCTYPE html>", 15), 0);
    ck_assert_ptr_nonnull(strstr(html, "\"id\":\"mq7xk2vt9fzr\""));
    /* the program diff of the edit the server sent */
    ck_assert_ptr_nonnull(strstr(html, "\"programDiff\":\""));
    ck_assert_ptr_nonnull(strstr(html, "+const server_name = new random.RandomString("));
    diag_list_free(&dl);
    arena_free(a);
    unlink(path);
    rmdir(dir);
    ck_assert_int_eq(ss.rc, 0);
    sess_free(&ss);
}
END_TEST

/* cimport.showReport after an import whose edit the editor refused: the page must not read as an
 * import done (summary.written false, and the refusal among the run's diagnostics). */
START_TEST(test_show_report_refused_edit) {
    char dir[] = "/tmp/test_lsp_report_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[512];
    snprintf(path, sizeof path, "%s/report.html", dir);
    session_t ss;
    sess_init(&ss);
    sess_init_server(&ss, "{\"workspace\":{\"applyEdit\":true}}");
    const char *uri = "file:///nonexistent/dir/index.ts";
    sess_open(&ss, uri, "typescript", "import * as pulumi from \"@pulumi/pulumi\";\n");
    sess_import(&ss, 3, "mq7xk2vt9fzr", uri, NULL);
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"applied\":false,\"failureReason\":\"buffer moved\"}}");
    sess_json(&ss,
              "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"workspace/executeCommand\",\"params\":{\"command\":"
              "\"cimport.showReport\",\"arguments\":[{\"path\":\"%s\"}]}}",
              path);
    sess_end(&ss, 5);
    sess_run(&ss);
    const cJSON *r = cJSON_GetObjectItem(resp(&ss, 4), "result");
    ck_assert_ptr_nonnull(r);
    ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(cJSON_GetObjectItem(r, "summary"), "written")));
    arena_t *a = arena_new();
    diag_list_t dl;
    diag_list_init(&dl);
    size_t len;
    char *html = file_read_all(a, path, &len, &dl);
    ck_assert_ptr_nonnull(html);
    ck_assert_ptr_nonnull(strstr(html, "\"written\":false"));
    ck_assert_ptr_nonnull(strstr(html, "the editor did not apply the edit to index.ts: buffer moved"));
    diag_list_free(&dl);
    arena_free(a);
    unlink(path);
    rmdir(dir);
    ck_assert_int_eq(ss.rc, 0);
    sess_free(&ss);
}
END_TEST

START_TEST(test_utf8_negotiation_document_changes_and_imports) {
    session_t ss;
    sess_init(&ss);
    sess_init_server(&ss, "{\"general\":{\"positionEncodings\":[\"utf-16\",\"utf-8\"]},\"workspace\":{\"applyEdit\":"
                          "true,\"workspaceEdit\":{\"documentChanges\":true}}}");
    const char *uri = "file:///nowhere/__main__.py";
    const char *py =
        "\"\"\"Ünïcode docstring 😀.\"\"\"\nimport pulumi\n\nowner = \"José 😀\"\npulumi.export(\"o\", owner)\n";
    sess_open(&ss, uri, "python", py);
    /* an incremental change in UTF-8 byte columns: "José" → "Jose" (é is 2 bytes at 11..13) */
    sess_json(&ss,
              "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didChange\",\"params\":{\"textDocument\":{"
              "\"uri\":\"%s\",\"version\":7},\"contentChanges\":[{\"range\":{\"start\":{\"line\":3,"
              "\"character\":12},\"end\":{\"line\":3,\"character\":14}},\"text\":\"e\"}]}}",
              uri);
    sess_import(&ss, 2, "mq7xk2vt9fzr", uri, NULL);
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"applied\":true}}");
    sess_end(&ss, 3);
    sess_run(&ss);
    const cJSON *caps = cJSON_GetObjectItem(cJSON_GetObjectItem(resp(&ss, 1), "result"), "capabilities");
    ck_assert_str_eq(cJSON_GetObjectItem(caps, "positionEncoding")->valuestring, "utf-8");
    const cJSON *ap = nth_method(&ss, "workspace/applyEdit", 0);
    ck_assert_ptr_nonnull(ap);
    const cJSON *dc = cJSON_GetArrayItem(
        cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(ap, "params"), "edit"), "documentChanges"), 0);
    const cJSON *tdi = cJSON_GetObjectItem(dc, "textDocument");
    ck_assert_str_eq(cJSON_GetObjectItem(tdi, "uri")->valuestring, uri);
    ck_assert_int_eq(cJSON_GetObjectItem(tdi, "version")->valueint, 7); /* refused if the buffer moved on */
    const char *edited =
        "\"\"\"Ünïcode docstring 😀.\"\"\"\nimport pulumi\n\nowner = \"Jose 😀\"\npulumi.export(\"o\", owner)\n";
    const cJSON *edits = apply_edits(&ss, 0, uri);
    ck_assert_int_eq(cJSON_GetArraySize(edits), 2); /* the import line and the resource, apart */
    char *after = client_apply(edited, edits, true);
    ck_assert_ptr_nonnull(strstr(after, "import pulumi\nimport pulumi_random as random\n"));
    ck_assert_ptr_nonnull(strstr(after, "server_name = random.RandomString(\"server-name\""));
    ck_assert_ptr_nonnull(strstr(after, "owner = \"Jose 😀\"\n"));
    free(after);
    ck_assert_int_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(resp(&ss, 2), "result"), "importsAdded")->valueint, 1);
    sess_free(&ss);
}
END_TEST

START_TEST(test_progress_and_created_token) {
    session_t ss;
    sess_init(&ss);
    sess_init_server(&ss, "{\"window\":{\"workDoneProgress\":true},\"workspace\":{\"applyEdit\":true}}");
    const char *uri = "file:///nowhere/main.go";
    char *go = tu_read(SOURCE_DIR "/tests/fixtures/splice/main.go", NULL);
    ck_assert_ptr_nonnull(go);
    sess_open(&ss, uri, "go", go);
    /* the client's own token */
    sess_import(&ss, 2, "mq7xk2vt9fzr", uri, ",\"workDoneToken\":\"tok-1\"");
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"applied\":false,\"failureReason\":\"buffer moved\"}}");
    /* no token: the server creates one (request 2) and waits for the answer before using it */
    sess_import(&ss, 3, "mq7xk2vt9fzr", uri, NULL);
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":null}");
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"applied\":true}}");
    sess_end(&ss, 4);
    sess_run(&ss);
    /* tok-1: begin, a report per resource, then end once the editor answered the edit: it refused
     * it, so the end does not say the code was inserted */
    int begins = 0, reports = 0, ends = 0;
    const char *end_msg = NULL;
    const cJSON *m;
    cJSON_ArrayForEach(m, ss.msgs) {
        const cJSON *meth = cJSON_GetObjectItem(m, "method");
        if (!cJSON_IsString(meth) || strcmp(meth->valuestring, "$/progress") != 0) continue;
        const cJSON *p = cJSON_GetObjectItem(m, "params");
        if (strcmp(cJSON_GetObjectItem(p, "token")->valuestring, "tok-1") != 0) continue;
        const char *kind = cJSON_GetObjectItem(cJSON_GetObjectItem(p, "value"), "kind")->valuestring;
        begins += strcmp(kind, "begin") == 0;
        reports += strcmp(kind, "report") == 0;
        ends += strcmp(kind, "end") == 0;
        if (strcmp(kind, "end") == 0)
            end_msg = cJSON_GetObjectItem(cJSON_GetObjectItem(p, "value"), "message")->valuestring;
    }
    ck_assert_str_eq(end_msg, "read 1 of 1; the editor did not apply the edit");
    ck_assert_int_eq(begins, 1);
    ck_assert_int_ge(reports, 1);
    ck_assert_int_eq(ends, 1);
    /* the refused edit: shown, and the result says so */
    int type = 0;
    const char *txt = show_text(&ss, 0, &type);
    ck_assert_int_eq(type, LSP_MSG_ERROR);
    ck_assert_str_eq(txt, "cimport: the editor did not apply the edit to main.go: buffer moved; run the command again");
    const cJSON *r2 = cJSON_GetObjectItem(resp(&ss, 2), "result");
    ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(r2, "applied")));
    ck_assert_str_eq(cJSON_GetObjectItem(r2, "failureReason")->valuestring, "buffer moved");
    /* the created token */
    const cJSON *create = nth_method(&ss, "window/workDoneProgress/create", 0);
    ck_assert_ptr_nonnull(create);
    const char *tok = cJSON_GetObjectItem(cJSON_GetObjectItem(create, "params"), "token")->valuestring;
    int created_msgs = 0;
    end_msg = NULL;
    cJSON_ArrayForEach(m, ss.msgs) {
        const cJSON *p = cJSON_GetObjectItem(m, "params");
        const cJSON *t = cJSON_GetObjectItem(p, "token");
        if (cJSON_IsString(t) && strcmp(t->valuestring, tok) == 0) {
            created_msgs++;
            const cJSON *v = cJSON_GetObjectItem(p, "value");
            if (v && strcmp(cJSON_GetObjectItem(v, "kind")->valuestring, "end") == 0)
                end_msg = cJSON_GetObjectItem(v, "message")->valuestring;
        }
    }
    ck_assert_int_ge(created_msgs, 4); /* create + begin + report + end */
    /* the editor applied this one */
    ck_assert_str_eq(end_msg, "read 1 of 1; code inserted");
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(resp(&ss, 3), "result"), "applied")));
    /* Go: the import went into the import block, the resource before `return nil` */
    char *after = client_apply(go, apply_edits(&ss, 1, uri), false);
    ck_assert_ptr_nonnull(strstr(after, "\"github.com/pulumi/pulumi-random/sdk/v4/go/random\""));
    ck_assert_ptr_nonnull(strstr(after, "random.NewRandomString(ctx, \"server-name\""));
    ck_assert(strstr(after, "NewRandomString") < strstr(after, "return nil"));
    free(after);
    free(go);
    ck_assert_int_eq(ss.rc, 0);
    sess_free(&ss);
}
END_TEST

START_TEST(test_cancel) {
    session_t ss;
    sess_init(&ss);
    sess_init_server(&ss, "{\"window\":{\"workDoneProgress\":true},\"workspace\":{\"applyEdit\":true}}");
    const char *uri = "file:///nowhere/index.ts";
    sess_open(&ss, uri, "typescript", TS_PROGRAM);
    /* cancelled while it runs (the cancel is read by the progress callback) */
    sess_import(&ss, 2, "mq7xk2vt9fzr", uri, ",\"workDoneToken\":\"t\"");
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"method\":\"$/cancelRequest\",\"params\":{\"id\":2}}");
    /* cancelled while waiting for its progress token */
    sess_import(&ss, 3, "mq7xk2vt9fzr", uri, NULL);
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"method\":\"$/cancelRequest\",\"params\":{\"id\":3}}");
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":null}");
    /* a cancel for something unknown changes nothing */
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"method\":\"$/cancelRequest\",\"params\":{\"id\":99}}");
    sess_end(&ss, 4);
    sess_run(&ss);
    ck_assert_int_eq(error_code(&ss, 2), LSP_REQUEST_CANCELLED);
    ck_assert_int_eq(error_code(&ss, 3), LSP_REQUEST_CANCELLED);
    ck_assert_str_eq(error_message(&ss, 2), "cimport.importResource was cancelled; nothing was changed");
    ck_assert_int_eq(count_method(&ss, "workspace/applyEdit"), 0);
    ck_assert_int_eq(ss.rc, 0);
    sess_free(&ss);
}
END_TEST

START_TEST(test_failures_reach_the_user) {
    session_t ss;
    sess_init(&ss);
    sess_init_server(&ss, "{\"workspace\":{\"applyEdit\":true}}");
    const char *uri = "file:///nowhere/index.ts";
    sess_open(&ss, uri, "typescript", TS_PROGRAM);
    /* the offline state has no such ID: the provider fails the Read */
    sess_import(&ss, 2, "no-such-pet", uri, NULL);
    /* the server is still there: the next command works */
    sess_import(&ss, 3, "mq7xk2vt9fzr", uri, NULL);
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"applied\":true}}");
    /* a program with a syntax error is refused, untouched */
    sess_open(&ss, "file:///nowhere/broken.ts", "typescript", "const x = (;\n");
    sess_import(&ss, 4, "mq7xk2vt9fzr", "file:///nowhere/broken.ts", NULL);
    /* a document that is not open and not on disk */
    sess_import(&ss, 5, "mq7xk2vt9fzr", "file:///nowhere/missing.py", NULL);
    /* a language splicing does not know */
    sess_open(&ss, "file:///nowhere/notes.txt", "plaintext", "hello\n");
    sess_import(&ss, 6, "mq7xk2vt9fzr", "file:///nowhere/notes.txt", NULL);
    sess_end(&ss, 7);
    sess_run(&ss);
    ck_assert_int_eq(error_code(&ss, 2), LSP_REQUEST_FAILED);
    /* reported once: the error answer (no window/showMessage besides) */
    const char *txt = error_message(&ss, 2);
    ck_assert_str_eq(txt, "cimport: read 0 of 1 resource for index.ts (0 consistent with the schema (offline), none "
                          "verified by a provider), 1 failed:\n"
                          "info: " QUICKSTART "/stack.json: resource 'server-name' of type '" PET
                          "': the offline state has no resource of type '" PET
                          "' with ID 'no-such-pet'; check the ID, or pass the stack state that records it\n"
                          "error: resource 'server-name' of type '" PET "': resource 'no-such-pet' does not exist");
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(resp(&ss, 3), "result"), "applied")));
    ck_assert_int_eq(error_code(&ss, 4), LSP_REQUEST_FAILED);
    ck_assert_ptr_nonnull(strstr(error_message(&ss, 4), "cimport: cannot insert the code into broken.ts (nothing was "
                                                        "changed):\nerror: broken.ts:1: syntax error"));
    ck_assert_int_eq(error_code(&ss, 5), LSP_REQUEST_FAILED);
    ck_assert_ptr_nonnull(
        strstr(error_message(&ss, 5), "file:///nowhere/missing.py is not open in the editor and cannot be read"));
    ck_assert_int_eq(error_code(&ss, 6), LSP_REQUEST_FAILED);
    ck_assert_ptr_nonnull(strstr(error_message(&ss, 6), "cannot tell the program language of notes.txt"));
    ck_assert_int_eq(count_method(&ss, "workspace/applyEdit"), 1);
    /* the one applied edit's code imports with the `import` option (no stack is written): said once */
    ck_assert_int_eq(count_method(&ss, "window/showMessage"), 1);
    ck_assert_ptr_nonnull(strstr(show_text(&ss, 0, NULL), "nothing was imported into a stack yet"));
    ck_assert_int_eq(ss.rc, 0);
    sess_free(&ss);

    /* a bad schema path: the pipeline refuses before running anything */
    sess_init(&ss);
    sess_json(
        &ss,
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"capabilities\":{},"
        "\"initializationOptions\":{\"offlineState\":\"%s/stack.json\",\"schemas\":[\"/nonexistent/schema.json\"]}}}",
        QUICKSTART);
    sess_open(&ss, uri, "typescript", TS_PROGRAM);
    sess_import(&ss, 2, "mq7xk2vt9fzr", uri, NULL);
    sess_end(&ss, 3);
    sess_run(&ss);
    ck_assert_int_eq(error_code(&ss, 2), LSP_REQUEST_FAILED);
    ck_assert_str_eq(error_message(&ss, 2), "cimport: cannot import server-name:\nerror: /nonexistent/schema.json: "
                                            "cannot read the schema path: No such file or directory");
    ck_assert_int_eq(count_method(&ss, "window/showMessage"), 0);
    ck_assert_int_eq(ss.rc, 0);
    sess_free(&ss);
}
END_TEST

/* A document whose parse would take unbounded time (20,000 lone `\` line continuations in Python:
 * tree-sitter's error recovery is superlinear on them) is refused once the parse budget runs out
 * (CIMPORT_PARSE_TIMEOUT, here 0.2 s), nothing edited; the next import into another document works
 * (the server's parser was reset). */
START_TEST(test_parse_budget) {
    ck_assert_int_eq(setenv("CIMPORT_PARSE_TIMEOUT", "0.2", 1), 0);
    buf_t prog;
    buf_init(&prog);
    buf_puts(&prog, "import pulumi\nx = 1\n");
    for (int i = 0; i < 20000; i++)
        buf_puts(&prog, "\\\n");
    buf_puts(&prog, "y = 2\n");
    session_t ss;
    sess_init(&ss);
    sess_init_server(&ss, "{\"workspace\":{\"applyEdit\":true}}");
    sess_open(&ss, "file:///nowhere/slow.py", "python", prog.data);
    sess_import(&ss, 2, "mq7xk2vt9fzr", "file:///nowhere/slow.py", NULL);
    sess_open(&ss, "file:///nowhere/ok.py", "python", "import pulumi\n\nx = 1\n");
    sess_import(&ss, 3, "mq7xk2vt9fzr", "file:///nowhere/ok.py", NULL);
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"applied\":true}}");
    sess_end(&ss, 4);
    sess_run(&ss);
    ck_assert_int_eq(error_code(&ss, 2), LSP_REQUEST_FAILED);
    ck_assert_ptr_nonnull(strstr(error_message(&ss, 2),
                                 "error: slow.py: cannot parse the Python program within 0.2 s (tree-sitter gave up on "
                                 "text this irregular"));
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(resp(&ss, 3), "result"), "applied")));
    ck_assert_int_eq(count_method(&ss, "workspace/applyEdit"), 1);
    ck_assert_int_eq(ss.rc, 0);
    sess_free(&ss);
    buf_free(&prog);
    unsetenv("CIMPORT_PARSE_TIMEOUT");
}
END_TEST

START_TEST(test_no_change_and_edit_in_result) {
    session_t ss;
    sess_init(&ss);
    sess_init_server(&ss, "{}"); /* no workspace.applyEdit: the edit comes back in the result */
    const char *uri = "file:///nowhere/index.ts";
    sess_open(&ss, uri, "typescript", TS_PROGRAM);
    sess_import(&ss, 2, "mq7xk2vt9fzr", uri, NULL);
    sess_end(&ss, 3);
    sess_run(&ss);
    const cJSON *r = cJSON_GetObjectItem(resp(&ss, 2), "result");
    ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(r, "applied")));
    const cJSON *edits = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(r, "edit"), "changes"), uri);
    char *after = client_apply(TS_PROGRAM, edits, false);
    ck_assert_int_eq(count_method(&ss, "workspace/applyEdit"), 0);
    sess_free(&ss);

    /* the program already has the resource: nothing to change, and the user is told */
    sess_init(&ss);
    sess_init_server(&ss, "{\"workspace\":{\"applyEdit\":true}}");
    sess_open(&ss, uri, "typescript", after);
    sess_import(&ss, 2, "mq7xk2vt9fzr", uri, NULL);
    sess_end(&ss, 3);
    sess_run(&ss);
    r = cJSON_GetObjectItem(resp(&ss, 2), "result");
    ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(r, "changed")));
    ck_assert_int_eq(cJSON_GetObjectItem(r, "replaced")->valueint, 1);
    ck_assert_int_eq(count_method(&ss, "workspace/applyEdit"), 0);
    int type;
    ck_assert_str_eq(show_text(&ss, 0, &type), "cimport: index.ts already defines server-name; nothing to change");
    ck_assert_int_eq(type, LSP_MSG_INFO);
    free(after);
    sess_free(&ss);
}
END_TEST

START_TEST(test_code_action_import_file) {
    char *dir = tu_mkdtemp();
    char path[1024], uri_prog[1200], uri_imports[1200];
    /* a project whose main program is on disk but not open */
    snprintf(path, sizeof path, "%s/Pulumi.yaml", dir);
    ck_assert(tu_write(path, "name: webshop\nruntime: python\n"));
    snprintf(path, sizeof path, "%s/__main__.py", dir);
    ck_assert(tu_write(path, "import pulumi\n"));
    char *imports = tu_read(QUICKSTART "/imports.json", NULL);
    ck_assert_ptr_nonnull(imports);
    snprintf(uri_imports, sizeof uri_imports, "file://%s/imports.json", dir);
    snprintf(uri_prog, sizeof uri_prog, "file://%s/index.ts", dir);

    session_t ss;
    sess_init(&ss);
    sess_init_server(&ss, "{\"workspace\":{\"applyEdit\":true}}");
    sess_open(&ss, uri_prog, "typescript", TS_PROGRAM);
    sess_open(&ss, uri_imports, "json", imports); /* unsaved: only in the editor */
    sess_json(&ss,
              "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"textDocument/codeAction\",\"params\":{\"textDocument\":"
              "{\"uri\":\"%s\"},\"range\":{\"start\":{\"line\":0,\"character\":0},\"end\":{\"line\":0,"
              "\"character\":0}},\"context\":{\"diagnostics\":[]}}}",
              uri_imports);
    /* no action on a program */
    sess_json(&ss,
              "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"textDocument/codeAction\",\"params\":{\"textDocument\":"
              "{\"uri\":\"%s\"},\"range\":{\"start\":{\"line\":0,\"character\":0},\"end\":{\"line\":0,"
              "\"character\":0}},\"context\":{\"diagnostics\":[]}}}",
              uri_prog);
    /* run the first action's command as the editor would */
    sess_json(&ss,
              "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"workspace/executeCommand\",\"params\":{\"command\":"
              "\"cimport.importFile\",\"arguments\":[{\"path\":\"%s\",\"uri\":\"%s\"}]}}",
              uri_imports, uri_prog);
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"applied\":true}}");
    sess_end(&ss, 5);
    sess_run(&ss);
    const cJSON *actions = cJSON_GetObjectItem(resp(&ss, 2), "result");
    ck_assert_int_eq(cJSON_GetArraySize(actions), 2);
    const cJSON *a0 = cJSON_GetArrayItem(actions, 0), *a1 = cJSON_GetArrayItem(actions, 1);
    ck_assert_str_eq(cJSON_GetObjectItem(a0, "title")->valuestring, "Import these resources into index.ts");
    ck_assert_str_eq(cJSON_GetObjectItem(a1, "title")->valuestring, "Import these resources into __main__.py");
    const cJSON *cmd = cJSON_GetObjectItem(a0, "command");
    ck_assert_str_eq(cJSON_GetObjectItem(cmd, "command")->valuestring, "cimport.importFile");
    const cJSON *arg = cJSON_GetArrayItem(cJSON_GetObjectItem(cmd, "arguments"), 0);
    ck_assert_str_eq(cJSON_GetObjectItem(arg, "path")->valuestring, uri_imports);
    ck_assert_str_eq(cJSON_GetObjectItem(arg, "uri")->valuestring, uri_prog);
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(resp(&ss, 3), "result")), 0);
    const cJSON *r = cJSON_GetObjectItem(resp(&ss, 4), "result");
    ck_assert_int_eq(cJSON_GetObjectItem(r, "imported")->valueint, 5);
    char *after = client_apply(TS_PROGRAM, apply_edits(&ss, 0, uri_prog), false);
    ck_assert_ptr_nonnull(strstr(after, "new random.RandomString(\"server-name\""));
    ck_assert_ptr_nonnull(strstr(after, "new random.RandomInteger(\"http-port\""));
    ck_assert_ptr_nonnull(strstr(after, "const owner = \"José 😀 Müller\";\n"));
    free(after);
    sess_free(&ss);
    free(imports);
    tu_rmtree(dir);
    free(dir);
}
END_TEST

/* One cimport.importFile of `imports` (the buffer at uri_imports) into the TypeScript program at
 * uri_prog, as request 2; with `apply`, the client accepts the edit (request 1 is its applyEdit). */
static void run_import_file(session_t *ss, const char *uri_prog, const char *uri_imports, const char *imports,
                            bool apply) {
    sess_init(ss);
    sess_init_server(ss, "{\"workspace\":{\"applyEdit\":true}}");
    sess_open(ss, uri_prog, "typescript", TS_PROGRAM);
    sess_open(ss, uri_imports, "json", imports);
    sess_json(ss,
              "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"workspace/executeCommand\",\"params\":{\"command\":"
              "\"cimport.importFile\",\"arguments\":[{\"path\":\"%s\",\"uri\":\"%s\"}]}}",
              uri_imports, uri_prog);
    if (apply) sess_json(ss, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"applied\":true}}");
    sess_end(ss, 3);
    sess_run(ss);
}

/* cimport.importFile with a relative path (read10a F16): the file is the workspace root's, as
 * every other relative path of the server is (initializationOptions, showReport's path), not the
 * one in the server's working directory (an editor starts it anywhere): a file of that name there
 * was imported silently. Tested with a real rootUri, on disk and open in the editor (unsaved). */
START_TEST(test_import_file_relative_to_root) {
    char *root = tu_mkdtemp(), *elsewhere = tu_mkdtemp();
    arena_t *a = arena_new();
    ck_assert(tu_write(arena_sprintf(a, "%s/imports.json", root),
                       "{\"resources\":[{\"type\":\"" PET "\",\"name\":\"rootPet\",\"id\":\"mq7xk2vt9fzr\"}]}"));
    ck_assert(tu_write(arena_sprintf(a, "%s/imports.json", elsewhere),
                       "{\"resources\":[{\"type\":\"random:index/randomString:RandomString\",\"name\":\"wrongFile\","
                       "\"id\":\"x7k2p9qa\"}]}"));
    char cwd[4096];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    ck_assert_int_eq(chdir(elsewhere), 0); /* the server's working directory */
    const char *uri_prog = arena_sprintf(a, "file://%s/index.ts", root);
    for (int open = 0; open < 2; open++) {
        session_t ss;
        sess_init(&ss);
        sess_json(&ss,
                  "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"processId\":null,"
                  "\"rootUri\":\"file://%s\",\"capabilities\":{\"workspace\":{\"applyEdit\":true}},"
                  "\"initializationOptions\":{\"offlineState\":\"%s/stack.json\",\"schemas\":[\"%s\"]}}}",
                  root, QUICKSTART, RANDOM_SCHEMA);
        sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}");
        sess_open(&ss, uri_prog, "typescript", TS_PROGRAM);
        if (open) /* its unsaved text in the editor is what is imported */
            sess_open(&ss, arena_sprintf(a, "file://%s/imports.json", root), "json",
                      "{\"resources\":[{\"type\":\"" PET "\",\"name\":\"editedPet\",\"id\":\"mq7xk2vt9fzr\"}]}");
        sess_json(&ss,
                  "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"workspace/executeCommand\",\"params\":{\"command\":"
                  "\"cimport.importFile\",\"arguments\":[{\"path\":\"imports.json\",\"uri\":\"%s\"}]}}",
                  uri_prog);
        sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"applied\":true}}");
        sess_end(&ss, 3);
        sess_run(&ss);
        const cJSON *r = cJSON_GetObjectItem(resp(&ss, 2), "result");
        ck_assert_msg(r != NULL, "no result (open %d): %s", open, error_message(&ss, 2));
        ck_assert_int_eq(cJSON_GetObjectItem(r, "imported")->valueint, 1);
        char *after = client_apply(TS_PROGRAM, apply_edits(&ss, 0, uri_prog), false);
        ck_assert_msg(
            strstr(after, open ? "new random.RandomString(\"editedPet\"" : "new random.RandomString(\"rootPet\""),
            "open %d: %s", open, after);
        ck_assert_ptr_null(strstr(after, "wrongFile"));
        free(after);
        sess_free(&ss);
    }
    ck_assert_int_eq(chdir(cwd), 0);
    arena_free(a);
    tu_rmtree(root);
    tu_rmtree(elsewhere);
    free(root);
    free(elsewhere);
}
END_TEST

START_TEST(test_failures_grouped_and_counted) {
    /* five resources of two types the schema lacks fail for one cause: the message counts them and
     * says the cause once, with the resources and the types listed (as the CLI does); the code for
     * the one that imported is still inserted, and the failures are shown once */
    char *dir = tu_mkdtemp();
    char uri_imports[4200], uri_prog[4200];
    snprintf(uri_imports, sizeof uri_imports, "file://%s/imports.json", dir);
    snprintf(uri_prog, sizeof uri_prog, "file://%s/index.ts", dir);
    session_t ss;
    run_import_file(&ss, uri_prog, uri_imports,
                    "{\"resources\":[{\"type\":\"" PET "\",\"name\":\"good\",\"id\":\"mq7xk2vt9fzr\"},"
                    "{\"type\":\"random:index/nothing0:Nothing0\",\"name\":\"n0\",\"id\":\"x0\"},"
                    "{\"type\":\"random:index/nothing1:Nothing1\",\"name\":\"n1\",\"id\":\"x1\"},"
                    "{\"type\":\"random:index/nothing0:Nothing0\",\"name\":\"n2\",\"id\":\"x2\"},"
                    "{\"type\":\"random:index/nothing1:Nothing1\",\"name\":\"n3\",\"id\":\"x3\"},"
                    "{\"type\":\"random:index/nothing0:Nothing0\",\"name\":\"n4\",\"id\":\"x4\"}]}",
                    true);
    const cJSON *r = cJSON_GetObjectItem(resp(&ss, 2), "result");
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(cJSON_GetObjectItem(r, "imported")->valueint, 1);
    ck_assert_int_eq(cJSON_GetObjectItem(r, "failed")->valueint, 5);
    ck_assert_int_eq(count_method(&ss, "workspace/applyEdit"), 1);
    /* the failures in one message; then, the edit applied, how the code imports the one read */
    ck_assert_int_eq(count_method(&ss, "window/showMessage"), 2);
    ck_assert_ptr_nonnull(strstr(show_text(&ss, 1, NULL), "imports the resource with the `import` resource option"));
    int type;
    ck_assert_str_eq(show_text(&ss, 0, &type),
                     "cimport: read 1 of 6 resources for index.ts (1 consistent with the schema (offline), none "
                     "verified by a provider), 5 failed:\n"
                     "error: 5 resources failed: the schema of package 'random' has no resource type '<type>'; check "
                     "the type token, or add a random schema that has it to initializationOptions.schemas\n"
                     "  resources: 'n0' (random:index/nothing0:Nothing0, id x0), 'n1' (random:index/nothing1:Nothing1, "
                     "id x1), 'n2' (random:index/nothing0:Nothing0, id x2), 'n3' (random:index/nothing1:Nothing1, id "
                     "x3), 'n4' (random:index/nothing0:Nothing0, id x4)\n"
                     "  types: random:index/nothing0:Nothing0, random:index/nothing1:Nothing1 (2 types)");
    ck_assert_int_eq(type, LSP_MSG_ERROR);
    sess_free(&ss);

    /* one resource of two fails: reported once, in one window/showMessage; the request succeeds */
    run_import_file(&ss, uri_prog, uri_imports,
                    "{\"resources\":[{\"type\":\"" PET "\",\"name\":\"good\",\"id\":\"mq7xk2vt9fzr\"},"
                    "{\"type\":\"" PET "\",\"name\":\"gone\",\"id\":\"no-such-pet\"}]}",
                    true);
    r = cJSON_GetObjectItem(resp(&ss, 2), "result");
    ck_assert_ptr_nonnull(r);
    ck_assert_ptr_null(cJSON_GetObjectItem(resp(&ss, 2), "error"));
    ck_assert_int_eq(count_method(&ss, "window/showMessage"), 2); /* the failure, then the import option's note */
    const char *txt = show_text(&ss, 0, &type);
    const char *head = "cimport: read 1 of 2 resources for index.ts (1 consistent with the schema (offline), none "
                       "verified by a provider), 1 failed:\n";
    ck_assert_msg(strncmp(txt, head, strlen(head)) == 0, "%s", txt);
    const char *e = strstr(txt, "error: resource 'gone' of type '" PET "': resource 'no-such-pet' does not exist");
    ck_assert_msg(e != NULL, "%s", txt);
    ck_assert_ptr_null(strstr(e + 1, "error: ")); /* the failure once */
    sess_free(&ss);
    tu_rmtree(dir);
    free(dir);
}
END_TEST

/* initializationOptions.intoStack: the import goes into the workspace's stack on its backend (a DIY
 * file backend here) — the session opens it under its lock, merges the resource and writes it with
 * the run's outputs, then the code is inserted; the lock is released. Without a backend: refused,
 * nothing written. */
START_TEST(test_import_into_stack) {
    char *dir = tu_mkdtemp();
    arena_t *a = arena_new();
    const char *checkpoint =
        "{\"version\":3,\"checkpoint\":{\"stack\":\"organization/shop/dev\",\"latest\":{\"manifest\":{\"time\":"
        "\"2026-01-01T00:00:00Z\",\"magic\":\"\",\"version\":\"v3.100.0\"},\"resources\":[]}}}";
    ck_assert(tu_write(arena_sprintf(a, "%s/Pulumi.yaml", dir), "name: shop\nruntime: nodejs\n"));
    ck_assert_int_eq(mkdir(arena_sprintf(a, "%s/state", dir), 0755), 0);
    ck_assert_int_eq(mkdir(arena_sprintf(a, "%s/state/.pulumi", dir), 0755), 0);
    ck_assert_int_eq(mkdir(arena_sprintf(a, "%s/state/.pulumi/stacks", dir), 0755), 0);
    ck_assert_int_eq(mkdir(arena_sprintf(a, "%s/state/.pulumi/stacks/shop", dir), 0755), 0);
    ck_assert(tu_write(arena_sprintf(a, "%s/state/.pulumi/meta.yaml", dir), "version: 1\n"));
    const char *cp_path = arena_sprintf(a, "%s/state/.pulumi/stacks/shop/dev.json", dir);
    ck_assert(tu_write(cp_path, checkpoint));
    setenv("PULUMI_HOME", arena_sprintf(a, "%s/home", dir), 1);
    unsetenv("PULUMI_ACCESS_TOKEN");
    char uri[4200];
    snprintf(uri, sizeof uri, "file://%s/index.ts", dir);
    for (int with_backend = 0; with_backend < 2; with_backend++) {
        if (with_backend)
            setenv("PULUMI_BACKEND_URL", arena_sprintf(a, "file://%s/state", dir), 1);
        else
            unsetenv("PULUMI_BACKEND_URL");
        session_t ss;
        sess_init(&ss);
        sess_json(&ss,
                  "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"processId\":null,"
                  "\"rootUri\":\"file://%s\",\"capabilities\":{\"workspace\":{\"applyEdit\":true}},"
                  "\"initializationOptions\":{\"offlineState\":\"%s/stack.json\",\"schemas\":[\"%s\"],"
                  "\"stack\":\"dev\",\"intoStack\":true}}}",
                  dir, QUICKSTART, RANDOM_SCHEMA);
        sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}");
        sess_open(&ss, uri, "typescript", TS_PROGRAM);
        sess_import(&ss, 2, "mq7xk2vt9fzr", uri, "");
        if (with_backend) sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"applied\":true}}");
        sess_end(&ss, 3);
        sess_run(&ss);
        char *now = tu_read(cp_path, NULL);
        if (!with_backend) {
            const cJSON *e = cJSON_GetObjectItem(resp(&ss, 2), "error");
            ck_assert_ptr_nonnull(e);
            ck_assert_str_eq(cJSON_GetObjectItem(e, "message")->valuestring,
                             "cimport: cannot import into a stack: no backend is configured (`pulumi login`, "
                             "PULUMI_BACKEND_URL or backend.url)");
            ck_assert_int_eq(count_method(&ss, "workspace/applyEdit"), 0);
            ck_assert_str_eq(now, checkpoint);
        } else {
            const cJSON *r = cJSON_GetObjectItem(resp(&ss, 2), "result");
            ck_assert_msg(r != NULL, "no result");
            ck_assert_str_eq(cJSON_GetObjectItem(r, "stack")->valuestring,
                             arena_sprintf(a, "organization/shop/dev at file://%s/state", dir));
            ck_assert_int_eq(cJSON_GetObjectItem(r, "importedIntoStack")->valueint, 1);
            ck_assert_int_eq(count_method(&ss, "workspace/applyEdit"), 1);
            int type;
            ck_assert_str_eq(show_text(&ss, 0, &type),
                             arena_sprintf(a,
                                           "cimport: imported 1 of 1 resource into stack organization/shop/dev at "
                                           "file://%s/state",
                                           dir));
            ck_assert_ptr_nonnull(strstr(now, "urn:pulumi:dev::shop::" PET "::server-name"));
            ck_assert_ptr_nonnull(strstr(now, "\"mq7xk2vt9fzr\""));
            /* the lock was released */
            size_t n_locks;
            tu_find_files(a, arena_sprintf(a, "%s/state/.pulumi/locks", dir), ".json", &n_locks);
            ck_assert_uint_eq(n_locks, 0);
        }
        free(now);
        sess_free(&ss);
    }
    unsetenv("PULUMI_BACKEND_URL");
    unsetenv("PULUMI_HOME");
    arena_free(a);
    tu_rmtree(dir);
    free(dir);
}
END_TEST

/* A workspace in dir of project shop (Pulumi.yaml) with a DIY backend in dir/state (the
 * environment's PULUMI_BACKEND_URL) holding stack `project`/dev, empty. Returns its checkpoint file. */
static const char *diy_workspace(arena_t *a, const char *dir, const char *project) {
    ck_assert(tu_write(arena_sprintf(a, "%s/Pulumi.yaml", dir), "name: shop\nruntime: nodejs\n"));
    const char *stacks = arena_sprintf(a, "%s/state/.pulumi/stacks/%s", dir, project);
    const char *dirs[] = {"state", "state/.pulumi", "state/.pulumi/stacks"};
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++)
        ck_assert_int_eq(mkdir(arena_sprintf(a, "%s/%s", dir, dirs[i]), 0755), 0);
    ck_assert_int_eq(mkdir(stacks, 0755), 0);
    ck_assert(tu_write(arena_sprintf(a, "%s/state/.pulumi/meta.yaml", dir), "version: 1\n"));
    const char *cp_path = arena_sprintf(a, "%s/dev.json", stacks);
    ck_assert(tu_write(cp_path, arena_sprintf(a,
                                              "{\"version\":3,\"checkpoint\":{\"stack\":\"organization/%s/dev\","
                                              "\"latest\":{\"manifest\":{\"time\":\"2026-01-01T00:00:00Z\",\"magic\":"
                                              "\"\",\"version\":\"v3.100.0\"},\"resources\":[]}}}",
                                              project)));
    setenv("PULUMI_HOME", arena_sprintf(a, "%s/home", dir), 1);
    setenv("PULUMI_BACKEND_URL", arena_sprintf(a, "file://%s/state", dir), 1);
    unsetenv("PULUMI_ACCESS_TOKEN");
    return cp_path;
}

/* initialize (+ initialized) with the workspace root dir, the offline quickstart options, the stack
 * and intoStack; extra is more initializationOptions members (",\"project\":\"x\"", or ""). */
static void sess_init_into_named_stack(session_t *ss, const char *dir, const char *stack, const char *extra) {
    sess_json(ss,
              "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"processId\":null,"
              "\"rootUri\":\"file://%s\",\"capabilities\":{\"workspace\":{\"applyEdit\":true}},"
              "\"initializationOptions\":{\"offlineState\":\"%s/stack.json\",\"schemas\":[\"%s\"],"
              "\"stack\":\"%s\",\"intoStack\":true%s}}}",
              dir, QUICKSTART, RANDOM_SCHEMA, stack, extra);
    sess_json(ss, "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}");
}

/* The same with stack dev. */
static void sess_init_into_stack(session_t *ss, const char *dir, const char *extra) {
    sess_init_into_named_stack(ss, dir, "dev", extra);
}

/* intoStack with initializationOptions.stack naming another project's stack, or an organization a DIY
 * backend does not have (read13 F10): the refusal named the command line's flags the editor user never
 * set — "--stack organization/other/dev names project 'other' ...: run in that project's directory
 * (--cwd), or name a stack of project 'shop'". Now in the editor's words, and nothing changes. */
START_TEST(test_into_stack_named_stack_refused_in_editor_words) {
    char *dir = tu_mkdtemp();
    arena_t *a = arena_new();
    const char *cp_path = diy_workspace(a, dir, "shop");
    char *before = tu_read(cp_path, NULL);
    const char *uri = arena_sprintf(a, "file://%s/index.ts", dir);
    const char *stacks[] = {"organization/other/dev", "acme/shop/dev"};
    const char *want[] = {
        arena_sprintf(a,
                      "cimport: cannot find the stack to import into: initializationOptions.stack "
                      "organization/other/dev names project 'other', but this is project 'shop' (%s/Pulumi.yaml): "
                      "open that project's directory as the workspace, or set initializationOptions.stack to a stack "
                      "of project 'shop'",
                      dir),
        arena_sprintf(a,
                      "cimport: cannot find the stack to import into: initializationOptions.stack acme/shop/dev names "
                      "organization 'acme', but a DIY backend (file://%s/state) has only 'organization': name the "
                      "stack as organization/PROJECT/STACK or just STACK",
                      dir)};
    for (size_t k = 0; k < 2; k++) {
        session_t ss;
        sess_init(&ss);
        sess_init_into_named_stack(&ss, dir, stacks[k], "");
        sess_open(&ss, uri, "typescript", TS_PROGRAM);
        sess_import(&ss, 2, "mq7xk2vt9fzr", uri, "");
        sess_end(&ss, 3);
        sess_run(&ss);
        ck_assert_int_eq(error_code(&ss, 2), LSP_REQUEST_FAILED);
        ck_assert_str_eq(error_message(&ss, 2), want[k]);
        ck_assert_int_eq(count_method(&ss, "workspace/applyEdit"), 0);
        sess_free(&ss);
    }
    char *now = tu_read(cp_path, NULL);
    ck_assert_str_eq(now, before);
    free(now);
    free(before);
    unsetenv("PULUMI_BACKEND_URL");
    unsetenv("PULUMI_HOME");
    arena_free(a);
    tu_rmtree(dir);
    free(dir);
}
END_TEST

/* intoStack with initializationOptions.project naming another project than the workspace's
 * Pulumi.yaml (read10a F19): the resource went into that project's stack and its code into this
 * program, whose `pulumi up` uses its own project's stacks. Refused as the command line refuses
 * --project (884aff5, the same check), and neither stack nor document changes. */
START_TEST(test_into_stack_other_project) {
    char *dir = tu_mkdtemp();
    arena_t *a = arena_new();
    const char *cp_path = diy_workspace(a, dir, "otherproj");
    char *before = tu_read(cp_path, NULL);
    const char *uri = arena_sprintf(a, "file://%s/index.ts", dir);
    session_t ss;
    sess_init(&ss);
    sess_init_into_stack(&ss, dir, ",\"project\":\"otherproj\"");
    sess_open(&ss, uri, "typescript", TS_PROGRAM);
    sess_import(&ss, 2, "mq7xk2vt9fzr", uri, "");
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"applied\":true}}");
    sess_end(&ss, 3);
    sess_run(&ss);
    ck_assert_int_eq(error_code(&ss, 2), LSP_REQUEST_FAILED);
    ck_assert_str_eq(error_message(&ss, 2),
                     arena_sprintf(a,
                                   "cimport: cannot import into a stack: project 'otherproj' is not this program's "
                                   "('shop', %s/Pulumi.yaml), whose stacks its `pulumi preview` and `pulumi up` "
                                   "use: open project otherproj's directory as the workspace, or drop "
                                   "initializationOptions.project",
                                   dir));
    ck_assert_int_eq(count_method(&ss, "workspace/applyEdit"), 0);
    char *now = tu_read(cp_path, NULL);
    ck_assert_str_eq(now, before);
    free(now);
    free(before);
    sess_free(&ss);
    unsetenv("PULUMI_BACKEND_URL");
    unsetenv("PULUMI_HOME");
    arena_free(a);
    tu_rmtree(dir);
    free(dir);
}
END_TEST

/* intoStack, a re-run where the resource read is in the stack already and another failed: the
 * message says the one read is there, not that "the resources are" (the failed one was never read,
 * and the stack does not hold it), as the command line says since 67ea162. */
START_TEST(test_into_stack_up_to_date_with_failure) {
    char *dir = tu_mkdtemp();
    arena_t *a = arena_new();
    ck_assert(tu_write(arena_sprintf(a, "%s/Pulumi.yaml", dir), "name: shop\nruntime: nodejs\n"));
    ck_assert_int_eq(mkdir(arena_sprintf(a, "%s/state", dir), 0755), 0);
    ck_assert_int_eq(mkdir(arena_sprintf(a, "%s/state/.pulumi", dir), 0755), 0);
    ck_assert_int_eq(mkdir(arena_sprintf(a, "%s/state/.pulumi/stacks", dir), 0755), 0);
    ck_assert_int_eq(mkdir(arena_sprintf(a, "%s/state/.pulumi/stacks/shop", dir), 0755), 0);
    ck_assert(tu_write(arena_sprintf(a, "%s/state/.pulumi/meta.yaml", dir), "version: 1\n"));
    ck_assert(
        tu_write(arena_sprintf(a, "%s/state/.pulumi/stacks/shop/dev.json", dir),
                 "{\"version\":3,\"checkpoint\":{\"stack\":\"organization/shop/dev\",\"latest\":{\"manifest\":{"
                 "\"time\":\"2026-01-01T00:00:00Z\",\"magic\":\"\",\"version\":\"v3.100.0\"},\"resources\":[]}}}"));
    setenv("PULUMI_HOME", arena_sprintf(a, "%s/home", dir), 1);
    unsetenv("PULUMI_ACCESS_TOKEN");
    setenv("PULUMI_BACKEND_URL", arena_sprintf(a, "file://%s/state", dir), 1);
    char uri[4200], uri_imports[4200];
    snprintf(uri, sizeof uri, "file://%s/index.ts", dir);
    snprintf(uri_imports, sizeof uri_imports, "file://%s/imports.json", dir);
    const char *imports = "{\"resources\":[{\"type\":\"" PET "\",\"name\":\"server-name\",\"id\":\"mq7xk2vt9fzr\"},"
                          "{\"type\":\"random:index/nothing0:Nothing0\",\"name\":\"n0\",\"id\":\"x0\"}]}";
    for (int run = 0; run < 2; run++) { /* the first puts the pet into the stack */
        session_t ss;
        sess_init(&ss);
        sess_json(&ss,
                  "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"processId\":null,"
                  "\"rootUri\":\"file://%s\",\"capabilities\":{\"workspace\":{\"applyEdit\":true}},"
                  "\"initializationOptions\":{\"offlineState\":\"%s/stack.json\",\"schemas\":[\"%s\"],"
                  "\"stack\":\"dev\",\"intoStack\":true}}}",
                  dir, QUICKSTART, RANDOM_SCHEMA);
        sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}");
        sess_open(&ss, uri, "typescript", TS_PROGRAM);
        if (run == 0) {
            sess_import(&ss, 2, "mq7xk2vt9fzr", uri, "");
        } else {
            sess_open(&ss, uri_imports, "json", imports);
            sess_json(&ss,
                      "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"workspace/executeCommand\",\"params\":{\"command\":"
                      "\"cimport.importFile\",\"arguments\":[{\"path\":\"%s\",\"uri\":\"%s\"}]}}",
                      uri_imports, uri);
        }
        sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"applied\":true}}");
        sess_end(&ss, 3);
        sess_run(&ss);
        const cJSON *r = cJSON_GetObjectItem(resp(&ss, 2), "result");
        ck_assert_msg(r != NULL, "no result in run %d", run);
        if (run == 1) {
            ck_assert_int_eq(cJSON_GetObjectItem(r, "failed")->valueint, 1);
            ck_assert_int_eq(cJSON_GetObjectItem(r, "importedIntoStack")->valueint, 0);
            const char *want = arena_sprintf(
                a,
                "cimport: the one read is already in stack organization/shop/dev at file://%s/state: nothing to import",
                dir);
            bool seen = false;
            for (int i = 0; show_text(&ss, i, NULL); i++)
                if (strcmp(show_text(&ss, i, NULL), want) == 0) seen = true;
            ck_assert_msg(seen, "no '%s' among: %s / %s", want, show_text(&ss, 0, NULL),
                          show_text(&ss, 1, NULL) ? show_text(&ss, 1, NULL) : "");
        }
        sess_free(&ss);
    }
    unsetenv("PULUMI_BACKEND_URL");
    unsetenv("PULUMI_HOME");
    arena_free(a);
    tu_rmtree(dir);
    free(dir);
}
END_TEST

/* intoStack, cimport.showReport's results: the first import adds the resource to the stack, a second
 * finds it there and imports nothing — its report said "Imported into stack" like the first's (the
 * document had nothing to tell them apart, read13 F8). */
START_TEST(test_into_stack_report_already) {
    char *dir = tu_mkdtemp();
    arena_t *a = arena_new();
    diy_workspace(a, dir, "shop");
    const char *uri = arena_sprintf(a, "file://%s/index.ts", dir);
    const char *report = arena_sprintf(a, "%s/report.html", dir);
    for (int run = 0; run < 2; run++) {
        session_t ss;
        sess_init(&ss);
        sess_init_into_stack(&ss, dir, "");
        sess_open(&ss, uri, "typescript", TS_PROGRAM);
        sess_import(&ss, 2, "mq7xk2vt9fzr", uri, "");
        sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"applied\":true}}");
        sess_json(&ss,
                  "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"workspace/executeCommand\",\"params\":{\"command\":"
                  "\"cimport.showReport\",\"arguments\":[{\"path\":\"%s\"}]}}",
                  report);
        sess_end(&ss, 4);
        sess_run(&ss);
        const cJSON *r = cJSON_GetObjectItem(resp(&ss, 3), "result");
        ck_assert_msg(r != NULL, "no report in run %d", run);
        const cJSON *sum = cJSON_GetObjectItem(r, "summary");
        const cJSON *added = cJSON_GetObjectItem(sum, "addedToStack"),
                    *already = cJSON_GetObjectItem(sum, "alreadyInStack");
        ck_assert_msg(cJSON_IsNumber(added) && cJSON_IsNumber(already),
                      "run %d: the report does not say what the "
                      "stack holds",
                      run);
        ck_assert_int_eq(added->valueint, run == 0 ? 1 : 0);
        ck_assert_int_eq(already->valueint, run == 0 ? 0 : 1);
        ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(sum, "written"))); /* the code went into the program */
        char *page = tu_read(report, NULL);                           /* the page's data: the resource's own field */
        ck_assert_ptr_nonnull(strstr(page, run == 0 ? "\"stack\":\"added\"" : "\"stack\":\"already\""));
        free(page);
        sess_free(&ss);
    }
    unsetenv("PULUMI_BACKEND_URL");
    unsetenv("PULUMI_HOME");
    arena_free(a);
    tu_rmtree(dir);
    free(dir);
}
END_TEST

/* intoStack, and the editor refuses the edit: the stack was written before the edit was sent, so
 * neither the message nor the report may read as if nothing happened. Before, the user saw "the
 * editor did not apply the edit to index.ts: buffer moved; run the command again" and the report
 * said nothing was written (summary.written false), while the stack held the resource. */
START_TEST(test_into_stack_edit_refused) {
    char *dir = tu_mkdtemp();
    arena_t *a = arena_new();
    const char *cp_path = diy_workspace(a, dir, "shop");
    const char *uri = arena_sprintf(a, "file://%s/index.ts", dir);
    const char *report = arena_sprintf(a, "%s/report.html", dir);
    session_t ss;
    sess_init(&ss);
    sess_init_into_stack(&ss, dir, "");
    sess_open(&ss, uri, "typescript", TS_PROGRAM);
    sess_import(&ss, 2, "mq7xk2vt9fzr", uri, "");
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"applied\":false,\"failureReason\":\"buffer moved\"}}");
    sess_json(&ss,
              "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"workspace/executeCommand\",\"params\":{\"command\":"
              "\"cimport.showReport\",\"arguments\":[{\"path\":\"%s\"}]}}",
              report);
    sess_end(&ss, 4);
    sess_run(&ss);
    char *now = tu_read(cp_path, NULL);
    ck_assert_ptr_nonnull(strstr(now, "urn:pulumi:dev::shop::" PET "::server-name")); /* the stack was written */
    free(now);
    const cJSON *r = cJSON_GetObjectItem(resp(&ss, 2), "result");
    ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(r, "applied")));
    ck_assert_int_eq(cJSON_GetObjectItem(r, "importedIntoStack")->valueint, 1);
    bool said = false;
    for (int i = 0; show_text(&ss, i, NULL); i++)
        if (strstr(show_text(&ss, i, NULL), "the editor did not apply the edit to index.ts: buffer moved") &&
            strstr(show_text(&ss, i, NULL),
                   "the resources were imported into stack organization/shop/dev at file://") &&
            strstr(show_text(&ss, i, NULL), "before the edit was sent: run the command again to insert the code"))
            said = true;
    ck_assert_msg(said, "the refusal does not say the stack holds the resources: %s", show_text(&ss, 1, NULL));
    const cJSON *rr = cJSON_GetObjectItem(resp(&ss, 3), "result");
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(rr, "summary"), "written")));
    unsetenv("PULUMI_BACKEND_URL");
    unsetenv("PULUMI_HOME");
    sess_free(&ss);
    arena_free(a);
    tu_rmtree(dir);
    free(dir);
}
END_TEST

/* The client's input through a pipe: when the server writes a message holding `trigger`, `more` is
 * written into the pipe (what the client sends meanwhile) and the pipe is closed. A test hangs until
 * its timeout if the trigger never comes. */
typedef struct late_input {
    session_t *ss;
    int fd;
    const char *trigger;
    buf_t more;
    bool sent;
} late_input_t;

static bool late_write(void *user, const char *data, size_t len) {
    late_input_t *li = user;
    buf_append(&li->ss->out, data, len);
    char *text = strndup(data, len);
    bool hit = text && strstr(text, li->trigger);
    free(text);
    if (!li->sent && hit) {
        li->sent = true;
        ck_assert(write(li->fd, li->more.data, li->more.len) == (ssize_t)li->more.len);
        close(li->fd);
    }
    return true;
}

/* A workspace with a Pulumi.yaml, and an import of a RandomString whose length is a secret into its
 * index.ts (its secret value goes to <dir>/cimport-secrets.json); caps: the client's capabilities. The
 * secret is its length, which its importer rebuilds (the ID's), so the code's `import` option can import
 * it: tests/fixtures/cli/secret-string-stack.json's secret keeper is refused for that option. */
static const char *secret_import(session_t *ss, arena_t *a, const char *dir, const char *caps) {
    ck_assert(tu_write(arena_sprintf(a, "%s/Pulumi.yaml", dir), "name: shop\nruntime: nodejs\n"));
    setenv("PULUMI_HOME", arena_sprintf(a, "%s/home", dir), 1);
    unsetenv("PULUMI_BACKEND_URL");
    unsetenv("PULUMI_CONFIG_PASSPHRASE");
    unsetenv("PULUMI_CONFIG_PASSPHRASE_FILE");
    const char *uri = arena_sprintf(a, "file://%s/index.ts", dir);
    sess_json(ss,
              "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"processId\":null,"
              "\"rootUri\":\"file://%s\",\"capabilities\":%s,"
              "\"initializationOptions\":{\"offlineState\":\"%s/tests/fixtures/cli/secret-length-stack.json\","
              "\"schemas\":[\"%s\"]}}}",
              dir, caps, SOURCE_DIR, RANDOM_SCHEMA);
    sess_json(ss, "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}");
    sess_open(ss, uri, "typescript", "import * as pulumi from \"@pulumi/pulumi\";\n");
    sess_json(ss,
              "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"workspace/executeCommand\",\"params\":{\"command\":"
              "\"cimport.importResource\",\"arguments\":[{\"type\":\"" PET "\",\"name\":\"apiName\",\"id\":"
              "\"brave-otter\",\"uri\":\"%s\"}]}}",
              uri);
    return uri;
}

/* The secret values of an import without intoStack go beside the workspace's project, where the note
 * says and `pulumi config set` is run, not into the server's working directory (an editor starts it
 * anywhere: $HOME, /): the value landed in ./cimport-secrets.json of that directory and the note named
 * "cimport-secrets.json", which the user, in the project, could not find. */
START_TEST(test_secrets_beside_the_project) {
    char *dir = tu_mkdtemp();
    arena_t *a = arena_new();
    session_t ss;
    sess_init(&ss);
    secret_import(&ss, a, dir, "{\"workspace\":{\"applyEdit\":true}}");
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"applied\":true}}");
    sess_end(&ss, 3);
    unlink("cimport-secrets.json");
    sess_run(&ss);
    ck_assert_msg(access("cimport-secrets.json", F_OK) != 0, "the secrets went to the server's working directory");
    char *saved = tu_read(arena_sprintf(a, "%s/cimport-secrets.json", dir), NULL);
    ck_assert_ptr_nonnull(saved);
    ck_assert_ptr_nonnull(strstr(saved, "\"apiNameLength\":\t11"));
    free(saved);
    bool said = false;
    for (int i = 0; show_text(&ss, i, NULL); i++)
        if (strstr(show_text(&ss, i, NULL), arena_sprintf(a, "the values are in %s/cimport-secrets.json", dir)))
            said = true;
    ck_assert_msg(said, "the note does not name the file: %s", show_text(&ss, 0, NULL));
    unsetenv("PULUMI_HOME");
    sess_free(&ss);
    arena_free(a);
    tu_rmtree(dir);
    free(dir);
}
END_TEST

/* The editor refuses the edit of an import whose secret value was saved before the edit was sent:
 * the message said only "the editor did not apply the edit to index.ts: buffer moved; run the command
 * again", as if nothing had been written, while cimport-secrets.json held the value. It says what
 * was written and where now. */
START_TEST(test_secrets_saved_edit_refused) {
    char *dir = tu_mkdtemp();
    arena_t *a = arena_new();
    session_t ss;
    sess_init(&ss);
    secret_import(&ss, a, dir, "{\"workspace\":{\"applyEdit\":true}}");
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"applied\":false,\"failureReason\":\"buffer moved\"}}");
    sess_json(&ss,
              "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"workspace/executeCommand\",\"params\":{\"command\":"
              "\"cimport.importResource\",\"arguments\":[{\"type\":\"" PET "\",\"name\":\"apiName\",\"id\":"
              "\"brave-otter\",\"uri\":\"file://%s/index.ts\"}]}}",
              dir);
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"applied\":true}}");
    sess_end(&ss, 3);
    sess_run(&ss);
    /* run again, as the message says: the value saved is read under the same key, and kept once */
    char *edit2 = cJSON_PrintUnformatted(apply_edits(&ss, 1, arena_sprintf(a, "file://%s/index.ts", dir)));
    tu_has(edit2, "config.requireSecretNumber(\\\"apiNameLength\\\")");
    free(edit2);
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(resp(&ss, 4), "result"), "applied")));
    const char *secrets = arena_sprintf(a, "%s/cimport-secrets.json", dir);
    char *saved = tu_read(secrets, NULL);
    ck_assert_ptr_nonnull(saved);
    ck_assert_str_eq(saved, "{\n\t\"apiNameLength\":\t11\n}\n");
    free(saved);
    const cJSON *r = cJSON_GetObjectItem(resp(&ss, 2), "result");
    ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(r, "applied")));
    const char *said = NULL;
    for (int i = 0; show_text(&ss, i, NULL); i++)
        if (strstr(show_text(&ss, i, NULL), "the editor did not apply the edit to index.ts: buffer moved"))
            said = show_text(&ss, i, NULL);
    ck_assert_ptr_nonnull(said);
    ck_assert_str_eq(said, arena_sprintf(a,
                                         "cimport: the editor did not apply the edit to index.ts: buffer moved, but "
                                         "1 secret value was saved to %s before the edit was sent: run the command "
                                         "again to insert the code",
                                         secrets));
    unsetenv("PULUMI_HOME");
    sess_free(&ss);
    arena_free(a);
    tu_rmtree(dir);
    free(dir);
}
END_TEST

/* The user types while the import's secret values are saved (a commit can wait for a lock or a
 * stack's backend): the server had looked at the document before the commit only, so the edit went
 * out against the text it had read, and a client without versioned documentChanges applied it at
 * the old positions in the changed text. The document is looked at again after the commit: nothing
 * is sent, and the failure says what was written. */
START_TEST(test_document_changed_during_commit) {
    char *dir = tu_mkdtemp();
    arena_t *a = arena_new();
    session_t ss;
    sess_init(&ss);
    const char *uri = secret_import(&ss, a, dir, "{\"workspace\":{\"applyEdit\":true}}");
    late_input_t li = {.ss = &ss, .trigger = "secret value"};
    buf_init(&li.more);
    char *body =
        arena_sprintf(a,
                      "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didChange\",\"params\":{\"textDocument\":"
                      "{\"uri\":\"%s\",\"version\":2},\"contentChanges\":[{\"text\":\"// typed\\n\"}]}}",
                      uri);
    buf_printf(&li.more, "Content-Length: %zu\r\n\r\n%s", strlen(body), body);
    body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"applied\":true}}";
    buf_printf(&li.more, "Content-Length: %zu\r\n\r\n%s", strlen(body), body);
    session_t tail;
    sess_init(&tail);
    sess_end(&tail, 3);
    buf_append(&li.more, tail.in.data, tail.in.len);
    sess_free(&tail);
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    ck_assert(write(fds[1], ss.in.data, ss.in.len) == (ssize_t)ss.in.len);
    li.fd = fds[1];
    lsp_server_t *s = lsp_server_new(NULL, late_write, &li);
    ss.rc = lsp_server_run(s, fds[0]);
    close(fds[0]);
    ck_assert(li.sent);
    lsp_server_free(s);
    sess_parse_out(&ss);
    ck_assert_int_eq(count_method(&ss, "workspace/applyEdit"), 0);
    ck_assert_int_eq(error_code(&ss, 2), LSP_REQUEST_FAILED);
    tu_has(error_message(&ss, 2), "index.ts changed while cimport imported into it");
    tu_has(error_message(&ss, 2), arena_sprintf(a, "1 secret value was saved to %s/cimport-secrets.json", dir));
    tu_has(error_message(&ss, 2), "the code was not inserted: run the command again");
    buf_free(&li.more);
    unsetenv("PULUMI_HOME");
    sess_free(&ss);
    arena_free(a);
    tu_rmtree(dir);
    free(dir);
}
END_TEST

/* A RandomBytes imported by its ID (its base64 output, a secret) without intoStack: the code's `import`
 * option would hold it in plaintext, so it fails; the message sent the editor user to "--stack of a
 * stack cimport can write, or --stack-state", flags of the command line (read13 F10's kin). */
START_TEST(test_secret_import_id_refused_in_editor_words) {
    char *dir = tu_mkdtemp();
    arena_t *a = arena_new();
    setenv("PULUMI_HOME", dir, 1);
    unsetenv("PULUMI_BACKEND_URL");
    const char *uri = arena_sprintf(a, "file://%s/index.ts", dir);
    session_t ss;
    sess_init(&ss);
    sess_json(&ss,
              "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"processId\":null,"
              "\"rootUri\":\"file://%s\",\"capabilities\":{\"workspace\":{\"applyEdit\":true}},"
              "\"initializationOptions\":{\"offlineState\":\"" SHARED_DATA
              "/pulumi-state/pulumi-random/provider/testdata/recorded/TestProviderUpgrade/index_randombytes/4.16.0/"
              "stack.json\",\"schemas\":[\"%s\"]}}}",
              dir, RANDOM_SCHEMA);
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}");
    sess_open(&ss, uri, "typescript", TS_PROGRAM);
    sess_json(&ss,
              "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"workspace/executeCommand\",\"params\":{\"command\":"
              "\"cimport.importResource\",\"arguments\":[{\"type\":\"random:index/randomBytes:RandomBytes\",\"name\":"
              "\"rb\",\"id\":\"fE+Jesqco6w20rpufjykBA==\",\"uri\":\"%s\"}]}}",
              uri);
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"applied\":true}}");
    sess_end(&ss, 3);
    sess_run(&ss);
    ck_assert_int_eq(count_method(&ss, "workspace/applyEdit"), 0);
    char *all = strndup(ss.out.data, ss.out.len);
    ck_assert_msg(strstr(all, "import it into a stack (initializationOptions.intoStack) only if the value in "
                              "plaintext in the stack's state is acceptable"),
                  "%s", all);
    ck_assert_msg(!strstr(all, "--stack"), "%s", all);
    ck_assert_msg(!strstr(all, "fE+Jesqco6w20rpufjykBA=="), "the secret: %s", all);
    free(all);
    sess_free(&ss);
    unsetenv("PULUMI_HOME");
    arena_free(a);
    tu_rmtree(dir);
    free(dir);
}
END_TEST

/* What a library diagnostic advises, in the editor's words: never a command-line flag of the import
 * command (the stack, the stack state's stack and project, a read-only file). */
START_TEST(test_advice_in_editor_words) {
    lsp_server_t *s = lsp_server_new(NULL, sess_write, NULL);
    char out[DIAG_ADVICE_MAX];
    ck_assert_str_eq(diag_advice(out, DIAG_ADVICE_SELECT_STACK, NULL),
                     ": set initializationOptions.stack or run `pulumi stack select`");
    ck_assert_str_eq(diag_advice(out, DIAG_ADVICE_OTHER_STACK, NULL),
                     ", or set another in initializationOptions.stack");
    ck_assert_str_eq(diag_advice(out, DIAG_ADVICE_STACK_OF_STATE, "dev::proj"),
                     ": set initializationOptions.stack to 'dev' and initializationOptions.project to 'proj', or "
                     "merge into the export of the right stack");
    ck_assert_str_eq(diag_advice(out, DIAG_ADVICE_DIFF_INSTEAD, NULL), "");
    ck_assert_str_eq(diag_advice(out, DIAG_ADVICE_IMPORT_OPTION, NULL),
                     "; insert the code with the `import` option instead, and your `pulumi up` imports them");
    for (int k = DIAG_ADVICE_SCHEMA; k <= DIAG_ADVICE_SECRETS_DIR; k++) {
        diag_advice(out, (diag_advice_t)k, "pkg");
        ck_assert_msg(!strstr(out, "--stack") && !strstr(out, "--project") && !strstr(out, "--diff") &&
                          !strstr(out, "--import-option") && !strstr(out, "--schema") && !strstr(out, "--cwd") &&
                          !strstr(out, "--secrets-dir") && !strstr(out, "--config-file"),
                      "advice %d names a flag of the import command: %s", k, out);
    }
    lsp_server_free(s);
}
END_TEST

/* One cimport.importResource into the document at uri (opened with language_id and text), the
 * workspace root dir (its own PULUMI_HOME, no backend); the request's error message, or NULL when it
 * succeeded; whether an edit went out in *edits. */
static char *import_into_root_doc(const char *dir, const char *uri, const char *language_id, const char *text,
                                  int *edits) {
    setenv("PULUMI_HOME", dir, 1);
    unsetenv("PULUMI_BACKEND_URL");
    session_t ss;
    sess_init(&ss);
    sess_json(&ss,
              "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"processId\":null,"
              "\"rootUri\":\"file://%s\",\"capabilities\":{\"workspace\":{\"applyEdit\":true}},"
              "\"initializationOptions\":{\"offlineState\":\"%s/stack.json\",\"schemas\":[\"%s\"]}}}",
              dir, QUICKSTART, RANDOM_SCHEMA);
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}");
    sess_open(&ss, uri, language_id, text);
    sess_import(&ss, 2, "mq7xk2vt9fzr", uri, "");
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"applied\":true}}");
    sess_end(&ss, 3);
    sess_run(&ss);
    *edits = count_method(&ss, "workspace/applyEdit");
    const cJSON *r = resp(&ss, 2);
    ck_assert_msg(r != NULL, "no response to request 2");
    const char *m = cJSON_HasObjectItem(r, "error") ? error_message(&ss, 2) : NULL;
    char *out = m ? strdup(m) : NULL;
    sess_free(&ss);
    unsetenv("PULUMI_HOME");
    return out;
}

/* The command line's checks of the program a run writes into, in the editor too (read11 F8): the
 * server inserted TypeScript into a JavaScript document and Python into the __main__.py of a
 * `runtime: nodejs` project, "applied", where the command line refuses both; and a document of
 * another project nested below the workspace (read11 F14). Each is refused, no edit. */
START_TEST(test_program_checked_as_cli) {
    char *dir = tu_mkdtemp();
    arena_t *a = arena_new();
    ck_assert(tu_write(arena_sprintf(a, "%s/Pulumi.yaml", dir), "name: shop\nruntime: nodejs\n"));
    ck_assert_int_eq(mkdir(arena_sprintf(a, "%s/sub", dir), 0755), 0);
    ck_assert(tu_write(arena_sprintf(a, "%s/sub/Pulumi.yaml", dir), "name: sub\nruntime: nodejs\n"));
    int edits = -1;
    char *err = import_into_root_doc(dir, arena_sprintf(a, "file://%s/index.js", dir), "javascript",
                                     "const pulumi = require(\"@pulumi/pulumi\");\nconst a = 1;\n", &edits);
    ck_assert_ptr_nonnull(err);
    ck_assert_str_eq(err, arena_sprintf(a,
                                        "cimport: cannot import into index.js: %s/index.js: this is a JavaScript "
                                        "program, but cimport writes TypeScript, which does not parse as JavaScript: "
                                        "insert into a TypeScript program (.ts)",
                                        dir));
    ck_assert_int_eq(edits, 0);
    free(err);
    err = import_into_root_doc(dir, arena_sprintf(a, "file://%s/__main__.py", dir), "python", "import pulumi\nx = 1\n",
                               &edits);
    ck_assert_ptr_nonnull(err);
    ck_assert_str_eq(err, arena_sprintf(a,
                                        "cimport: cannot import into __main__.py: %s/__main__.py: the project's "
                                        "runtime (Pulumi.yaml) is nodejs, so `pulumi up` runs its TypeScript program, "
                                        "not this Python file: insert into that program instead",
                                        dir));
    ck_assert_int_eq(edits, 0);
    free(err);
    err = import_into_root_doc(dir, arena_sprintf(a, "file://%s/sub/index.ts", dir), "typescript", TS_PROGRAM, &edits);
    ck_assert_ptr_nonnull(err);
    ck_assert_str_eq(err, arena_sprintf(a,
                                        "cimport: cannot import into index.ts: %s/sub/index.ts: this program is of "
                                        "project 'sub' (%s/sub/Pulumi.yaml), not of project 'shop' (%s/Pulumi.yaml), "
                                        "whose stack and config the run uses: open that project's directory "
                                        "(%s/sub) as the workspace",
                                        dir, dir, dir, dir));
    ck_assert_int_eq(edits, 0);
    free(err);
    /* a nested project whose project file is JSON (Pulumi.json), which cimport does not read: it was
     * taken for no project, and the code went into its program with the workspace's stack and config
     * (read13c F7) */
    ck_assert_int_eq(mkdir(arena_sprintf(a, "%s/kid", dir), 0755), 0);
    ck_assert(tu_write(arena_sprintf(a, "%s/kid/Pulumi.json", dir), "{\"name\": \"kid\", \"runtime\": \"nodejs\"}"));
    err = import_into_root_doc(dir, arena_sprintf(a, "file://%s/kid/index.ts", dir), "typescript", TS_PROGRAM, &edits);
    ck_assert_ptr_nonnull(err);
    ck_assert_str_eq(err, arena_sprintf(a,
                                        "cimport: cannot import into index.ts: %s/kid/Pulumi.json: a Pulumi project "
                                        "file in JSON, which cimport does not read (it reads Pulumi.yaml, and would "
                                        "otherwise take a project above this one for it): write the project as "
                                        "Pulumi.yaml (the same keys), or import into a program outside that project",
                                        dir));
    ck_assert_int_eq(edits, 0);
    free(err);
    /* the workspace's own TypeScript program goes in */
    err = import_into_root_doc(dir, arena_sprintf(a, "file://%s/index.ts", dir), "typescript", TS_PROGRAM, &edits);
    ck_assert_msg(err == NULL, "%s", err ? err : "");
    ck_assert_int_eq(edits, 1);
    arena_free(a);
    tu_rmtree(dir);
    free(dir);
}
END_TEST

/* A module of the project that its entry never imports, opened in the editor (5bbcc90 refuses it on
 * the command line: `pulumi up` runs the entry and what it imports, so code added there never runs):
 * refused in the editor too, no edit; a module the entry imports still takes the code. */
START_TEST(test_unreached_module_refused) {
    char *dir = tu_mkdtemp();
    arena_t *a = arena_new();
    ck_assert(tu_write(arena_sprintf(a, "%s/Pulumi.yaml", dir), "name: shop\nruntime: python\n"));
    ck_assert(tu_write(arena_sprintf(a, "%s/__main__.py", dir), "import pulumi\nimport storage\n"));
    const char *py = "import pulumi\nx = 1\n";
    ck_assert(tu_write(arena_sprintf(a, "%s/storage.py", dir), py));
    ck_assert(tu_write(arena_sprintf(a, "%s/stray.py", dir), py));
    int edits = -1;
    char *err = import_into_root_doc(dir, arena_sprintf(a, "file://%s/stray.py", dir), "python", py, &edits);
    ck_assert_ptr_nonnull(err);
    ck_assert_str_eq(err, arena_sprintf(a,
                                        "cimport: cannot insert the code into stray.py (nothing was changed):\nerror: "
                                        "%s/stray.py: this file is not imported by the program's entry %s/__main__.py, "
                                        "nor by any module it imports (as cimport reads the imports), so `pulumi up` "
                                        "would not run code added here: nothing was changed; import this file from "
                                        "%s/__main__.py (directly or through a module it imports), or insert into "
                                        "%s/__main__.py",
                                        dir, dir, dir, dir));
    ck_assert_int_eq(edits, 0);
    free(err);
    err = import_into_root_doc(dir, arena_sprintf(a, "file://%s/storage.py", dir), "python", py, &edits);
    ck_assert_msg(err == NULL, "%s", err ? err : "");
    ck_assert_int_eq(edits, 1);
    /* TypeScript: index.ts (the entry) imports ./lib; old.ts is imported by nothing */
    char *ts = tu_mkdtemp();
    ck_assert(tu_write(arena_sprintf(a, "%s/Pulumi.yaml", ts), "name: shop\nruntime: nodejs\n"));
    ck_assert(
        tu_write(arena_sprintf(a, "%s/index.ts", ts), "import * as lib from \"./lib\";\nexport const x = lib;\n"));
    ck_assert(tu_write(arena_sprintf(a, "%s/lib.ts", ts), TS_PROGRAM));
    ck_assert(tu_write(arena_sprintf(a, "%s/old.ts", ts), TS_PROGRAM));
    err = import_into_root_doc(ts, arena_sprintf(a, "file://%s/old.ts", ts), "typescript", TS_PROGRAM, &edits);
    ck_assert_ptr_nonnull(err);
    ck_assert_msg(
        strstr(err, arena_sprintf(a, "%s/old.ts: this file is not imported by the program's entry %s/index.ts", ts,
                                  ts)) != NULL,
        "%s", err);
    ck_assert_int_eq(edits, 0);
    free(err);
    err = import_into_root_doc(ts, arena_sprintf(a, "file://%s/lib.ts", ts), "typescript", TS_PROGRAM, &edits);
    ck_assert_msg(err == NULL, "%s", err ? err : "");
    ck_assert_int_eq(edits, 1);
    arena_free(a);
    tu_rmtree(dir);
    tu_rmtree(ts);
    free(dir);
    free(ts);
}
END_TEST

/* The code actions offered on the import file at uri_imports, which must be one: that action. The
 * session is run to its end (shutdown id 3). */
static const cJSON *only_code_action(session_t *ss, const char *uri_imports) {
    sess_code_action(ss, 2, uri_imports);
    sess_end(ss, 3);
    sess_run(ss);
    const cJSON *actions = cJSON_GetObjectItem(resp(ss, 2), "result");
    char *shown = cJSON_PrintUnformatted(actions);
    ck_assert_msg(cJSON_GetArraySize(actions) == 1, "actions: %s", shown);
    free(shown);
    return cJSON_GetArrayItem(actions, 0);
}

/* A workspace root in no project, a document of a project nested below it whose project file is JSON
 * (Pulumi.json, which cimport does not read): the command line refuses --insert-into that program
 * (1f4afb3, 733887e); the server took the document for a file in no project, inserted the code and
 * offered it as a code action. Refused now, in the editor's words, and not offered; a document in no
 * project still takes the import. */
START_TEST(test_json_project_below_root_in_no_project) {
    char *dir = tu_mkdtemp();
    arena_t *a = arena_new();
    ck_assert_int_eq(mkdir(arena_sprintf(a, "%s/kid", dir), 0755), 0);
    ck_assert(tu_write(arena_sprintf(a, "%s/kid/Pulumi.json", dir), "{\"name\": \"kid\", \"runtime\": \"nodejs\"}"));
    int edits = -1;
    char *err =
        import_into_root_doc(dir, arena_sprintf(a, "file://%s/kid/index.ts", dir), "typescript", TS_PROGRAM, &edits);
    ck_assert_msg(err != NULL, "the import went into kid/index.ts");
    ck_assert_str_eq(err, arena_sprintf(a,
                                        "cimport: cannot import into index.ts: %s/kid/Pulumi.json: a Pulumi project "
                                        "file in JSON, which cimport does not read (it reads Pulumi.yaml, and would "
                                        "otherwise take a project above this one for it): write the project as "
                                        "Pulumi.yaml (the same keys), or import into a program outside that project",
                                        dir));
    ck_assert_int_eq(edits, 0);
    free(err);
    err = import_into_root_doc(dir, arena_sprintf(a, "file://%s/index.ts", dir), "typescript", TS_PROGRAM, &edits);
    ck_assert_msg(err == NULL, "%s", err ? err : "");
    ck_assert_int_eq(edits, 1);
    char *imports = tu_read(QUICKSTART "/imports.json", NULL);
    ck_assert_ptr_nonnull(imports);
    const char *uri_imports = arena_sprintf(a, "file://%s/imports.json", dir);
    session_t ss;
    sess_init(&ss);
    sess_init_root(&ss, dir);
    sess_open(&ss, arena_sprintf(a, "file://%s/kid/index.ts", dir), "typescript", TS_PROGRAM);
    sess_open(&ss, arena_sprintf(a, "file://%s/prog.ts", dir), "typescript", TS_PROGRAM);
    sess_open(&ss, uri_imports, "json", imports);
    const cJSON *a0 = only_code_action(&ss, uri_imports);
    ck_assert_str_eq(cJSON_GetObjectItem(a0, "title")->valuestring, "Import these resources into prog.ts");
    sess_free(&ss);
    free(imports);
    arena_free(a);
    tu_rmtree(dir);
    free(dir);
}
END_TEST

/* The code actions on an import file offered every open program and the project's main program,
 * a JavaScript one too (app.js, the project's index.js), which the command then refused as the
 * command line refuses --insert-into app.js; and a program of a nested project or of another language
 * than the runtime's. Offered now: the documents the command would import into. */
START_TEST(test_code_actions_agree_with_the_run) {
    char *dir = tu_mkdtemp();
    arena_t *a = arena_new();
    ck_assert(tu_write(arena_sprintf(a, "%s/Pulumi.yaml", dir), "name: shop\nruntime: nodejs\n"));
    ck_assert(tu_write(arena_sprintf(a, "%s/index.js", dir), "const pulumi = require(\"@pulumi/pulumi\");\n"));
    ck_assert_int_eq(mkdir(arena_sprintf(a, "%s/sub", dir), 0755), 0);
    ck_assert(tu_write(arena_sprintf(a, "%s/sub/Pulumi.yaml", dir), "name: sub\nruntime: nodejs\n"));
    ck_assert_int_eq(mkdir(arena_sprintf(a, "%s/kid", dir), 0755), 0);
    ck_assert(tu_write(arena_sprintf(a, "%s/kid/Pulumi.json", dir), "{\"name\": \"kid\", \"runtime\": \"nodejs\"}"));
    char *imports = tu_read(QUICKSTART "/imports.json", NULL);
    ck_assert_ptr_nonnull(imports);
    const char *uri_imports = arena_sprintf(a, "file://%s/imports.json", dir);
    session_t ss;
    sess_init(&ss);
    sess_init_root(&ss, dir);
    sess_open(&ss, arena_sprintf(a, "file://%s/app.js", dir), "javascript", "const a = 1;\n");
    sess_open(&ss, arena_sprintf(a, "file://%s/lib.mjs", dir), "typescript", "export const a = 1;\n");
    sess_open(&ss, arena_sprintf(a, "file://%s/sub/index.ts", dir), "typescript", TS_PROGRAM);
    sess_open(&ss, arena_sprintf(a, "file://%s/kid/index.ts", dir), "typescript", TS_PROGRAM);
    sess_open(&ss, arena_sprintf(a, "file://%s/__main__.py", dir), "python", "import pulumi\n");
    sess_open(&ss, arena_sprintf(a, "file://%s/prog.ts", dir), "typescript", TS_PROGRAM);
    sess_open(&ss, uri_imports, "json", imports);
    const cJSON *a0 = only_code_action(&ss, uri_imports);
    ck_assert_str_eq(cJSON_GetObjectItem(a0, "title")->valuestring, "Import these resources into prog.ts");
    sess_free(&ss);
    free(imports);
    arena_free(a);
    tu_rmtree(dir);
    free(dir);
}
END_TEST

/* A Java project laid out by Maven (`runtime: java`, src/main/java/<package>/App.java): its program
 * was never offered as the project's main program (index.ts, __main__.py, main.go, Program.cs and
 * Pulumi.yaml were). It is found as the source file holding Pulumi.run, and the import goes in. */
START_TEST(test_code_action_java_program) {
    char *dir = tu_mkdtemp();
    arena_t *a = arena_new();
    ck_assert(tu_write(arena_sprintf(a, "%s/Pulumi.yaml", dir), "name: shop\nruntime: java\n"));
    ck_assert(tu_write(arena_sprintf(a, "%s/pom.xml", dir), "<project><artifactId>shop</artifactId></project>\n"));
    const char *src = arena_sprintf(a, "%s/src/main/java/myproject", dir);
    ck_assert_int_eq(mkdir(arena_sprintf(a, "%s/src", dir), 0755), 0);
    ck_assert_int_eq(mkdir(arena_sprintf(a, "%s/src/main", dir), 0755), 0);
    ck_assert_int_eq(mkdir(arena_sprintf(a, "%s/src/main/java", dir), 0755), 0);
    ck_assert_int_eq(mkdir(src, 0755), 0);
    ck_assert(tu_write(arena_sprintf(a, "%s/Names.java", src), "package myproject;\n\nclass Names {}\n"));
    ck_assert(tu_write(arena_sprintf(a, "%s/App.java", src),
                       "package myproject;\n\nimport com.pulumi.Pulumi;\n\npublic class App {\n"
                       "    public static void main(String[] args) {\n        Pulumi.run(ctx -> {\n        });\n"
                       "    }\n}\n"));
    const char *uri_imports = arena_sprintf(a, "file://%s/imports.json", dir);
    session_t ss;
    sess_init(&ss);
    sess_init_root(&ss, dir);
    sess_open(&ss, uri_imports, "json",
              "{\"resources\":[{\"type\":\"" PET "\",\"name\":\"pet\",\"id\":\"mq7xk2vt9fzr\"}]}");
    const cJSON *a0 = only_code_action(&ss, uri_imports);
    ck_assert_str_eq(cJSON_GetObjectItem(a0, "title")->valuestring, "Import these resources into App.java");
    const cJSON *arg = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetObjectItem(a0, "command"), "arguments"), 0);
    ck_assert_str_eq(cJSON_GetObjectItem(arg, "uri")->valuestring, arena_sprintf(a, "file://%s/App.java", src));
    sess_free(&ss);
    arena_free(a);
    tu_rmtree(dir);
    free(dir);
}
END_TEST

START_TEST(test_same_id_twice) {
    /* an import file naming one cloud resource twice is refused, as in the CLI, and nothing changes */
    char *dir = tu_mkdtemp();
    char uri_imports[4200], uri_prog[4200];
    snprintf(uri_imports, sizeof uri_imports, "file://%s/imports.json", dir);
    snprintf(uri_prog, sizeof uri_prog, "file://%s/index.ts", dir);
    session_t ss;
    run_import_file(&ss, uri_prog, uri_imports,
                    "{\"resources\":[{\"type\":\"" PET "\",\"name\":\"a\",\"id\":\"mq7xk2vt9fzr\"},"
                    "{\"type\":\"" PET "\",\"name\":\"b\",\"id\":\"mq7xk2vt9fzr\"}]}",
                    false);
    ck_assert_int_eq(error_code(&ss, 2), LSP_REQUEST_FAILED);
    ck_assert_ptr_nonnull(strstr(error_message(&ss, 2), "is imported twice, as 'a' and as 'b'"));
    ck_assert_int_eq(count_method(&ss, "workspace/applyEdit"), 0);
    ck_assert_int_eq(count_method(&ss, "window/showMessage"), 0);
    sess_free(&ss);
    tu_rmtree(dir);
    free(dir);
}
END_TEST

START_TEST(test_command_line_options) {
    /* `cimport lsp` options parse as the CLI's and are the defaults; initializationOptions win */
    cli_options_t o;
    int rc;
    char *argv[] = {"cimport",  "--offline-state", QUICKSTART "/stack.json",
                    "--schema", RANDOM_SCHEMA,     "--stack",
                    "prod",     "--spec",          "x"};
    ck_assert(cli_parse_import_args(9, argv, &o, &rc));
    session_options_t so;
    cli_session_options(&o, &so);
    session_t ss;
    sess_init(&ss);
    sess_json(&ss,
              "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"capabilities\":{\"workspace\":"
              "{\"applyEdit\":true}},\"initializationOptions\":{\"protect\":false}}}");
    sess_open(&ss, "file:///nowhere/index.ts", "typescript", TS_PROGRAM);
    sess_import(&ss, 2, "mq7xk2vt9fzr", "file:///nowhere/index.ts", NULL);
    sess_json(&ss, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"applied\":true}}");
    sess_end(&ss, 3);
    lsp_server_t *s = sess_run_keep(&ss, &so);
    ck_assert_str_eq(lsp_server_options(s)->stack, "prod");
    ck_assert(!lsp_server_options(s)->protect);
    ck_assert_ptr_null(lsp_server_options(s)->spec_path);
    lsp_server_free(s);
    char *after = client_apply(TS_PROGRAM, apply_edits(&ss, 0, "file:///nowhere/index.ts"), false);
    ck_assert_ptr_nonnull(strstr(after, "new random.RandomString(\"server-name\""));
    ck_assert_ptr_null(strstr(after, "protect: true"));
    free(after);
    sess_free(&ss);
    free(o.schemas);
    free(o.attach);
    free(o.config);
    /* options that make no sense for a server are refused */
    char *bad[] = {"lsp", "--out", "x.ts"};
    ck_assert_int_eq(cli_lsp_main(3, bad), EXIT_USAGE);
    char *bad2[] = {"lsp", "--inputs", "everything"};
    ck_assert_int_eq(cli_lsp_main(3, bad2), EXIT_USAGE);
}
END_TEST

int main(void) {
    Suite *s = suite_create("lsp");
    TCase *t = tcase_create("framing");
    tcase_add_test(t, test_reader_split_glued_lf);
    tcase_add_test(t, test_reader_bad_headers_resync);
    suite_add_tcase(s, t);
    t = tcase_create("text");
    tcase_add_test(t, test_positions_utf16_utf8);
    tcase_add_test(t, test_diff_smallest_edits);
    tcase_add_test(t, test_diff_large_file);
    tcase_add_test(t, test_uris);
    suite_add_tcase(s, t);
    t = tcase_create("protocol");
    tcase_add_test(t, test_malformed_framing_and_json);
    tcase_add_test(t, test_not_initialized_and_unknown_methods);
    tcase_add_test(t, test_exit_codes);
    tcase_add_test(t, test_bad_command_params);
    suite_add_tcase(s, t);
    t = tcase_create("commands");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, test_import_resource_into_unsaved_document);
    tcase_add_test(t, test_document_changed_during_import);
    tcase_add_test(t, test_utf8_negotiation_document_changes_and_imports);
    tcase_add_test(t, test_progress_and_created_token);
    tcase_add_test(t, test_cancel);
    tcase_add_test(t, test_failures_reach_the_user);
    tcase_add_test(t, test_failures_grouped_and_counted);
    tcase_add_test(t, test_parse_budget);
    tcase_add_test(t, test_no_change_and_edit_in_result);
    tcase_add_test(t, test_code_action_import_file);
    tcase_add_test(t, test_import_file_relative_to_root);
    tcase_add_test(t, test_show_report);
    tcase_add_test(t, test_show_report_refused_edit);
    tcase_add_test(t, test_command_line_options);
    tcase_add_test(t, test_same_id_twice);
    tcase_add_test(t, test_program_checked_as_cli);
    tcase_add_test(t, test_unreached_module_refused);
    tcase_add_test(t, test_code_actions_agree_with_the_run);
    tcase_add_test(t, test_code_action_java_program);
    tcase_add_test(t, test_advice_in_editor_words);
    tcase_add_test(t, test_import_into_stack);
    tcase_add_test(t, test_into_stack_other_project);
    tcase_add_test(t, test_into_stack_up_to_date_with_failure);
    tcase_add_test(t, test_into_stack_edit_refused);
    tcase_add_test(t, test_into_stack_report_already);
    tcase_add_test(t, test_secrets_beside_the_project);
    tcase_add_test(t, test_secrets_saved_edit_refused);
    tcase_add_test(t, test_document_changed_during_commit);
    tcase_add_test(t, test_json_project_below_root_in_no_project);
    tcase_add_test(t, test_into_stack_named_stack_refused_in_editor_words);
    tcase_add_test(t, test_secret_import_id_refused_in_editor_words);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
