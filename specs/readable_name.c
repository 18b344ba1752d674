/* readable_name.c — candidate names for a resource whose own name is taken (see readable_name.h).
 *
 * Words come from the type token and the ID: a word is a run of letters and digits, and a new word
 * starts at a lower-to-upper change (`internetGateway` → internet, Gateway; `ACMCertificate` → ACM,
 * Certificate). The camel style title-cases each word's first letter the way Pulumi's import does
 * for its type suffix; the snake (kebab) style lowercases the words and joins them with `_` (`-`). */
#include <string.h>

#include "specs/readable_name.h"

/* An ID longer than this (an ARN, an Azure resource path) makes a name nobody wants to read. */
#define READABLE_ID_MAX 32

static bool is_lower(char c) {
    return c >= 'a' && c <= 'z';
}
static bool is_upper(char c) {
    return c >= 'A' && c <= 'Z';
}
static bool is_alnum(char c) {
    return is_lower(c) || is_upper(c) || (c >= '0' && c <= '9');
}

/* Appends the words of s[0..n) to b in the given style; returns false when s has no word. */
static bool put_words(buf_t *b, readable_style_t style, const char *s, size_t n) {
    bool any = false;
    for (size_t i = 0; i < n;) {
        if (!is_alnum(s[i])) {
            i++;
            continue;
        }
        size_t j = i + 1;
        while (j < n && is_alnum(s[j]) &&
               !(is_upper(s[j]) && (!is_upper(s[j - 1]) || (j + 1 < n && is_lower(s[j + 1])))))
            j++;
        if (style != READABLE_CAMEL) {
            buf_putc(b, style == READABLE_KEBAB ? '-' : '_');
            for (size_t k = i; k < j; k++)
                buf_putc(b, is_upper(s[k]) ? (char)(s[k] - 'A' + 'a') : s[k]);
        } else {
            buf_putc(b, is_lower(s[i]) ? (char)(s[i] - 'a' + 'A') : s[i]);
            buf_append(b, s + i + 1, j - i - 1);
        }
        any = true;
        i = j;
    }
    return any;
}

/* Pulumi's title casing of the type suffix (cases.Title over Unicode words): a letter after a
 * non-word character is uppercased; letters, digits, `_` and UTF-8 bytes join a word, so `bucket_v2`
 * stays one word. */
static void put_pulumi_title(buf_t *b, const char *s) {
    for (size_t i = 0; s[i]; i++) {
        unsigned char prev = i ? (unsigned char)s[i - 1] : 0;
        bool word_start = i == 0 || !(is_alnum((char)prev) || prev == '_' || prev >= 0x80);
        buf_putc(b, word_start && is_lower(s[i]) ? (char)(s[i] - 'a' + 'A') : s[i]);
    }
}

/* Whether a and b are the same words (`MetricAlarm`, `metric_alarm`, `metric-alarm`). */
static bool same_words(const char *a, const char *b) {
    for (;; a++, b++) {
        while (*a && !is_alnum(*a))
            a++;
        while (*b && !is_alnum(*b))
            b++;
        if (!*a || !*b) return !*a && !*b;
        char x = is_upper(*a) ? (char)(*a - 'A' + 'a') : *a, y = is_upper(*b) ? (char)(*b - 'A' + 'a') : *b;
        if (x != y) return false;
    }
}

size_t readable_name_candidates(arena_t *a, readable_style_t style, const char *base, const char *token,
                                const char *logical, const char *id, const char *out[READABLE_MAX]) {
    size_t n = 0;
    const char *t = token ? token : "";
    /* `pkg:module/sub:Type`: the type name after the last `:`, the module's first segment */
    const char *c1 = strchr(t, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    const char *type = c2 ? c2 + 1 : c1 ? c1 + 1 : t;
    const char *mod = c2 ? c1 + 1 : NULL;
    size_t mod_len = mod ? strcspn(mod, "/:") : 0;
    if (mod_len == 5 && strncmp(mod, "index", 5) == 0) mod_len = 0;
    /* A resource named after its type (`MetricAlarm`, `vpc`) gains nothing from repeating it
     * (`MetricAlarmMetricAlarm`): its module says more (`CloudwatchMetricAlarm`, `ec2_vpc`). */
    bool named_as_type = same_words(base, type);
    buf_t b;
    buf_init(&b);

    if (!named_as_type) {
        buf_puts(&b, base);
        if (style == READABLE_CAMEL) put_pulumi_title(&b, type);
        if (style == READABLE_CAMEL ? *type != '\0' : put_words(&b, style, type, strlen(type)))
            out[n++] = buf_arena_str(&b, a);
    }
    if (logical && *logical && strcmp(logical, base) != 0) out[n++] = logical;
    b.len = 0;
    if (!named_as_type) buf_puts(&b, base);
    if (mod_len && put_words(&b, style, mod, mod_len) && put_words(&b, style, type, strlen(type))) {
        if (named_as_type && style != READABLE_CAMEL) memmove(b.data, b.data + 1, --b.len); /* no leading `_` */
        if (named_as_type && is_lower(base[0]) && is_upper(b.data[0])) b.data[0] = (char)(b.data[0] - 'A' + 'a');
        out[n++] = buf_arena_str(&b, a);
    }
    b.len = 0;
    buf_puts(&b, base);
    if (!named_as_type) put_words(&b, style, type, strlen(type));
    if (id && strlen(id) <= READABLE_ID_MAX && put_words(&b, style, id, strlen(id))) out[n++] = buf_arena_str(&b, a);
    buf_free(&b);
    return n;
}
