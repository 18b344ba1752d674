/* lang.c — what every emitter reads and nothing dispatches: the languages' names and titles, and the
 * config types of a PCL program. Below the emitters (emit.c dispatches to them, they call this). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "emitters/emit_internal.h"

bool lang_from_name(const char *name, lang_t *out) {
    static const struct {
        const char *name;
        lang_t lang;
    } names[] = {{"pcl", LANG_PCL},       {"typescript", LANG_TYPESCRIPT},
                 {"ts", LANG_TYPESCRIPT}, {"nodejs", LANG_TYPESCRIPT},
                 {"python", LANG_PYTHON}, {"py", LANG_PYTHON},
                 {"go", LANG_GO},         {"csharp", LANG_CSHARP},
                 {"cs", LANG_CSHARP},     {"c#", LANG_CSHARP},
                 {"dotnet", LANG_CSHARP}, {"java", LANG_JAVA},
                 {"yaml", LANG_YAML}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcasecmp(name, names[i].name) == 0) {
            *out = names[i].lang;
            return true;
        }
    return false;
}

const char *lang_name(lang_t l) {
    switch (l) {
    case LANG_PCL: return "pcl";
    case LANG_TYPESCRIPT: return "typescript";
    case LANG_PYTHON: return "python";
    case LANG_GO: return "go";
    case LANG_CSHARP: return "csharp";
    case LANG_JAVA: return "java";
    case LANG_YAML: return "yaml";
    }
    return "pcl";
}

const char *lang_title(lang_t l) {
    switch (l) {
    case LANG_TYPESCRIPT: return "TypeScript";
    case LANG_PYTHON: return "Python";
    case LANG_GO: return "Go";
    case LANG_CSHARP: return "C#";
    case LANG_JAVA: return "Java";
    case LANG_YAML: return "YAML";
    case LANG_PCL: return "PCL";
    }
    return "?";
}

bool lang_from_runtime(const char *runtime, lang_t *out) {
    if (strcmp(runtime, "nodejs") == 0) return *out = LANG_TYPESCRIPT, true;
    if (strcmp(runtime, "python") == 0) return *out = LANG_PYTHON, true;
    if (strcmp(runtime, "go") == 0) return *out = LANG_GO, true;
    if (strcmp(runtime, "dotnet") == 0) return *out = LANG_CSHARP, true;
    if (strcmp(runtime, "java") == 0) return *out = LANG_JAVA, true;
    if (strcmp(runtime, "yaml") == 0) return *out = LANG_YAML, true;
    return false;
}

static const emit_cfg_type_t *cfg_parse(arena_t *a, const char *s, size_t n, bool optional);

/* The fields `name=T, ...` of an object type's text (between `object({` and `})`) into t, sorted by
 * name; none when a field is not `name=T`. */
static void cfg_fields(arena_t *a, emit_cfg_type_t *t, const char *s, size_t n) {
    size_t cap = 1;
    for (size_t i = 0; i < n; i++)
        cap += s[i] == ',';
    emit_cfg_field_t *f = arena_alloc(a, cap * sizeof *f);
    size_t nf = 0, start = 0;
    int depth = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && (s[i] == '(' || s[i] == '{')) depth++;
        if (i < n && (s[i] == ')' || s[i] == '}')) depth--;
        if (i < n && (s[i] != ',' || depth > 0)) continue;
        const char *p = s + start, *eq = memchr(p, '=', i - start);
        size_t nlen = eq ? (size_t)(eq - p) : 0;
        while (nlen && (*p == ' ' || *p == '\t' || *p == '\n'))
            p++, nlen--;
        while (nlen && (p[nlen - 1] == ' ' || p[nlen - 1] == '\t'))
            nlen--;
        if (!eq && i - start == 0 && i == n) break; /* `object({})` or a trailing comma */
        if (!eq || !nlen || nf == cap) return;
        char *name = arena_strndup(a, p, nlen);
        size_t k = nf++;
        for (; k > 0 && strcmp(f[k - 1].name, name) > 0; k--) /* insertion by name */
            f[k] = f[k - 1];
        f[k].name = name;
        f[k].type = cfg_parse(a, eq + 1, (size_t)(s + i - eq - 1), false);
        start = i + 1;
    }
    t->fields = f;
    t->n_fields = nf;
}

static const emit_cfg_type_t *cfg_parse(arena_t *a, const char *s, size_t n, bool optional) {
    while (n && (*s == ' ' || *s == '\t'))
        s++, n--;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    if (optional && n > 10 && memcmp(s, "optional(", 9) == 0 && s[n - 1] == ')') /* T, which may be null */
        return cfg_parse(a, s + 9, n - 10, optional);
    emit_cfg_type_t *t = arena_alloc(a, sizeof *t);
    t->kind = EMIT_CFG_ANY;
    static const struct {
        const char *name;
        emit_cfg_kind_t kind;
    } scalars[] = {
        {"string", EMIT_CFG_STRING}, {"int", EMIT_CFG_INT}, {"number", EMIT_CFG_NUMBER}, {"bool", EMIT_CFG_BOOL}};
    for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++)
        if (strlen(scalars[i].name) == n && memcmp(s, scalars[i].name, n) == 0) {
            t->kind = scalars[i].kind;
            return t;
        }
    if (n > 9 && memcmp(s, "object({", 8) == 0 && memcmp(s + n - 2, "})", 2) == 0) {
        cfg_fields(a, t, s + 8, n - 10);
        return t;
    }
    size_t open = n > 5 && memcmp(s, "list(", 5) == 0 ? 5 : n > 4 && memcmp(s, "map(", 4) == 0 ? 4 : 0;
    if (open && s[n - 1] == ')') {
        t->kind = open == 5 ? EMIT_CFG_LIST : EMIT_CFG_MAP;
        t->elem = cfg_parse(a, s + open, n - open - 1, optional);
    }
    return t;
}

const emit_cfg_type_t *emit_config_type(arena_t *a, const char *token) {
    if (!token) token = "string";
    return cfg_parse(a, token, strlen(token), false);
}

const emit_cfg_type_t *emit_config_type_nullable(arena_t *a, const char *token) {
    if (!token) token = "string";
    return cfg_parse(a, token, strlen(token), true);
}

bool emit_config_scalar(const emit_cfg_type_t *t) {
    return t->kind == EMIT_CFG_STRING || t->kind == EMIT_CFG_INT || t->kind == EMIT_CFG_NUMBER ||
           t->kind == EMIT_CFG_BOOL;
}

int emit_config_depth(const emit_cfg_type_t *t) {
    int d = 0;
    for (; t && (t->kind == EMIT_CFG_LIST || t->kind == EMIT_CFG_MAP); t = t->elem)
        d++;
    return d;
}
