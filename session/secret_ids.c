/* secret_ids.c — IDs of a run that are secret values, kept out of what the run shows.
 *
 * A RandomBytes' ID is its base64 output, a secret, and a RandomPassword is imported by its value.
 * Pulumi records a resource's ID in plaintext in the stack's state (it cannot be made secret:
 * pulumi/pulumi#8946), so a stack holds such an ID unencrypted, as after `pulumi up` created the
 * resource; the run says so. What the run prints (messages, the preview) and its results document
 * (unless show_secrets) show the ID as "[secret]". session.c notes the IDs as results arrive. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "session/session.h"

const char *session_shown_id(const import_session_t *p, const char *id) {
    return id && hashmap_find_str(&p->secret_ids, id) ? "[secret]" : id;
}

/* Whether a secret ID could also be a word, a number or a name of the output's own text ("none", the
 * ID a stack export records for every RandomPassword; "dev", "1", "true"): shorter than 8 bytes, of
 * letters, digits, '_' and '-' only. */
static bool id_is_wordlike(const char *id, size_t len) {
    if (len >= 8) return false;
    for (size_t i = 0; i < len; i++)
        if (!isalnum((unsigned char)id[i]) && id[i] != '_' && id[i] != '-') return false;
    return true;
}

static bool id_char(char c) {
    return isalnum((unsigned char)c) || c == '_' || c == '-';
}

typedef struct secret_id {
    const char *text;
    size_t len;
} secret_id_t;

static int by_length_desc(const void *x, const void *y) {
    size_t a = ((const secret_id_t *)x)->len, b = ((const secret_id_t *)y)->len;
    return a < b ? 1 : a > b ? -1 : 0;
}

/* Where an ID is hidden in a text. cimport's messages quote an ID ('ID', "ID"), so a word-like one
 * is hidden only where it stands quoted whole: elsewhere the same letters are another ID's part
 * ('nonexistent-pet'), a word ("none verified"), a stack's name. Any other ID does not occur in other
 * text by chance, so it is hidden wherever it is, inside other text too (a provider's message may not
 * quote it), as Pulumi's log filter cuts every secret out of a line. The longest first, so that none
 * leaves the tail of a longer one it begins. */
const char *session_scrub_text(const import_session_t *p, arena_t *a, const char *text) {
    size_t n = 0, it = 0, k = 0;
    for (const hashmap_entry_t *e; text && (e = hashmap_next(&p->secret_ids, &it));)
        n += strstr(text, e->key) != NULL;
    if (!n) return text; /* most texts: nothing taken from the arena */
    secret_id_t *ids = arena_alloc(a, n * sizeof *ids);
    it = 0;
    for (const hashmap_entry_t *e; k < n && (e = hashmap_next(&p->secret_ids, &it));)
        if (strstr(text, e->key)) ids[k++] = (secret_id_t){e->key, e->len};
    qsort(ids, k, sizeof *ids, by_length_desc);
    const char *cur = text;
    for (size_t i = 0; i < k; i++) {
        const char *id = ids[i].text;
        size_t len = ids[i].len;
        /* a word-like ID: under 4 bytes only where it stands quoted whole, else where it stands as a
         * token of its own (no letter, digit, '_' or '-' beside it: 'Zq9x7,1', "(Zq9x7)") */
        bool wordlike = id_is_wordlike(id, len), quoted_only = wordlike && len < 4;
        buf_t b;
        buf_init(&b);
        bool cut = false;
        const char *from = cur;
        for (const char *hit = strstr(cur, id); hit; hit = strstr(hit + 1, id)) {
            if (hit < from) continue; /* inside the last one cut */
            char q = hit > cur ? hit[-1] : '\0';
            if (quoted_only && !((q == '\'' || q == '"' || q == '`') && hit[len] == q)) continue;
            if (wordlike && !quoted_only && (id_char(q) || id_char(hit[len]))) continue;
            buf_append(&b, from, (size_t)(hit - from));
            buf_puts(&b, "[secret]");
            from = hit + len;
            cut = true;
        }
        if (!cut) continue;
        buf_puts(&b, from);
        cur = arena_strndup(a, b.data, b.len);
        buf_free(&b);
    }
    return cur;
}

void session_scrub_diags(const import_session_t *p, diag_list_t *l) {
    if (!hashmap_count(&p->secret_ids)) return;
    for (diag_t *d = l->head; d; d = d->next) {
        d->message = session_scrub_text(p, l->arena, d->message);
        d->resource = session_scrub_text(p, l->arena, d->resource); /* "resource '<ID>'" of an unnamed one */
    }
}

void session_warn_plaintext_ids(const import_session_t *p, const stackstate_report_t *rep, const char *where,
                                diag_list_t *diags) {
    for (size_t i = 0; rep && i < rep->n_entries; i++) {
        const stackstate_report_entry_t *e = &rep->entries[i];
        if (e->outcome != STACKSTATE_ADDED || !e->id || !hashmap_find_str(&p->secret_ids, e->id)) continue;
        diag_add(diags, DIAG_WARNING, DIAG_INPUT, where, NULL,
                 "resource '%s': its ID is a secret value, and a stack records every resource's ID in plaintext "
                 "(Pulumi cannot make an ID secret), so the stack's state holds this value unencrypted, as it would "
                 "after `pulumi up` created the resource; its other secrets are encrypted",
                 e->urn);
    }
}

/* Every string under j but the inputs (whose secrets report_redact cuts by their paths): an ID field
 * ("id", "importId") holding a secret ID whole as "[secret]"; the others scrubbed as texts, so that a
 * value of the document's own ("verification": "none", the stack "dev") is not taken for an ID. */
static void redact_walk(const import_session_t *p, arena_t *a, cJSON *j) {
    for (cJSON *c = j ? j->child : NULL; c; c = c->next) {
        if (c->string && strcmp(c->string, "inputs") == 0 && cJSON_IsObject(c)) continue;
        if (cJSON_IsString(c)) {
            bool id_field = c->string && (strcmp(c->string, "id") == 0 || strcmp(c->string, "importId") == 0);
            bool whole = hashmap_find_str(&p->secret_ids, c->valuestring) != NULL;
            /* a field of the document's own vocabulary that happens to equal a word-like ID stays */
            bool own_word = whole && !id_field && id_is_wordlike(c->valuestring, strlen(c->valuestring));
            const char *t = id_field && whole ? "[secret]"
                            : own_word        ? c->valuestring
                                              : session_scrub_text(p, a, c->valuestring);
            if (t != c->valuestring) cJSON_SetValuestring(c, t);
        } else {
            redact_walk(p, a, c);
        }
    }
}

void session_redact_secret_ids(const import_session_t *p, cJSON *doc) {
    if (!doc || !hashmap_count(&p->secret_ids)) return;
    arena_t *a = arena_new();
    redact_walk(p, a, doc);
    arena_free(a);
}
