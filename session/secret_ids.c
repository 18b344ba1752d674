/* secret_ids.c — IDs of a run that are secret values, kept out of what the run shows.
 *
 * A RandomBytes' ID is its base64 output, a secret, and a RandomPassword is imported by its value.
 * Pulumi records a resource's ID in plaintext in the stack's state (it cannot be made secret:
 * pulumi/pulumi#8946), so a stack holds such an ID unencrypted, as after `pulumi up` created the
 * resource; the run says so. What the run prints (messages, the preview) and its results document
 * (unless show_secrets) show the ID as "[secret]". session.c notes the IDs as results arrive. */
#include <string.h>

#include "base/arena.h"
#include "session/session.h"

const char *session_shown_id(const import_session_t *p, const char *id) {
    return id && hashmap_find_str(&p->secret_ids, id) ? "[secret]" : id;
}

const char *session_scrub_text(const import_session_t *p, arena_t *a, const char *text) {
    if (!text || !hashmap_count(&p->secret_ids)) return text;
    const char *cur = text;
    size_t it = 0;
    for (const hashmap_entry_t *e; (e = hashmap_next(&p->secret_ids, &it));) {
        /* an ID of fewer than 4 bytes only where the text quotes it whole ('ab'), not inside words */
        bool quoted = e->len < 4;
        const char *hit = quoted ? NULL : strstr(cur, e->key);
        char *q = quoted ? arena_sprintf(a, "'%s'", e->key) : NULL;
        if (quoted) hit = strstr(cur, q);
        if (!hit) continue;
        buf_t b;
        buf_init(&b);
        const char *from = cur, *needle = quoted ? q : e->key;
        size_t nl = strlen(needle);
        for (; hit; hit = strstr(from, needle)) {
            buf_append(&b, from, (size_t)(hit - from));
            buf_puts(&b, quoted ? "'[secret]'" : "[secret]");
            from = hit + nl;
        }
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

/* Every string under j but the inputs (whose secrets report_redact cuts by their paths): an ID
 * whole, else scrubbed out of the text. */
static void redact_walk(const import_session_t *p, arena_t *a, cJSON *j) {
    for (cJSON *c = j ? j->child : NULL; c; c = c->next) {
        if (c->string && strcmp(c->string, "inputs") == 0 && cJSON_IsObject(c)) continue;
        if (cJSON_IsString(c)) {
            const char *t = hashmap_find_str(&p->secret_ids, c->valuestring) ? "[secret]"
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
