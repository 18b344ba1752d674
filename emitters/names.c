/* names.c — naming rules shared by every language emitter: reserved words, valid identifiers,
 * case conversions (incl. Pulumi's PyName state machine), unique names, string escaping and
 * Go-`%g` number formatting. See names.h for the contract of each function. */
#include "emitters/names.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hashmap.h"

/* --- reserved words ----------------------------------------------------------------------------- */

/* ECMAScript reserved words (incl. strict-mode and module ones) plus literals; `arguments`/`eval`
 * cannot be bound in strict code, which a module always is. */
static const char *const TS_RESERVED[] = {
    "arguments", "await",  "break",    "case",    "catch",      "class",     "const",  "continue",   "debugger",
    "default",   "delete", "do",       "else",    "enum",       "eval",      "export", "extends",    "false",
    "finally",   "for",    "function", "if",      "implements", "import",    "in",     "instanceof", "interface",
    "let",       "new",    "null",     "package", "private",    "protected", "public", "return",     "static",
    "super",     "switch", "this",     "throw",   "true",       "try",       "typeof", "var",        "void",
    "while",     "with",   "yield",    NULL};

static const char *const PY_RESERVED[] = {
    "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
    "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
    "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
    "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield",    NULL};

/* Go keywords and predeclared identifiers (shadowing `string` or `len` breaks later code). */
static const char *const GO_RESERVED[] = {
    "break",  "case",       "chan",      "const",      "continue", "default", "defer",     "else",   "fallthrough",
    "for",    "func",       "go",        "goto",       "if",       "import",  "interface", "map",    "package",
    "range",  "return",     "select",    "struct",     "switch",   "type",    "var",       "any",    "bool",
    "byte",   "comparable", "complex64", "complex128", "error",    "float32", "float64",   "int",    "int8",
    "int16",  "int32",      "int64",     "rune",       "string",   "uint",    "uint8",     "uint16", "uint32",
    "uint64", "uintptr",    "true",      "false",      "iota",     "nil",     "append",    "cap",    "clear",
    "close",  "complex",    "copy",      "delete",     "imag",     "len",     "make",      "max",    "min",
    "new",    "panic",      "print",     "println",    "real",     "recover", NULL};

/* C# keywords and contextual keywords. */
static const char *const CS_RESERVED[] = {
    "abstract", "as",        "base",       "bool",       "break",    "byte",     "case",      "catch",     "char",
    "checked",  "class",     "const",      "continue",   "decimal",  "default",  "delegate",  "do",        "double",
    "else",     "enum",      "event",      "explicit",   "extern",   "false",    "finally",   "fixed",     "float",
    "for",      "foreach",   "goto",       "if",         "implicit", "in",       "int",       "interface", "internal",
    "is",       "lock",      "long",       "namespace",  "new",      "null",     "object",    "operator",  "out",
    "override", "params",    "private",    "protected",  "public",   "readonly", "ref",       "return",    "sbyte",
    "sealed",   "short",     "sizeof",     "stackalloc", "static",   "string",   "struct",    "switch",    "this",
    "throw",    "true",      "try",        "typeof",     "uint",     "ulong",    "unchecked", "unsafe",    "ushort",
    "using",    "virtual",   "void",       "volatile",   "while",    "add",      "alias",     "ascending", "async",
    "await",    "by",        "descending", "dynamic",    "equals",   "from",     "get",       "global",    "group",
    "into",     "join",      "let",        "nameof",     "on",       "orderby",  "partial",   "remove",    "select",
    "set",      "unmanaged", "value",      "var",        "when",     "where",    "yield",     NULL};

static const char *const JAVA_RESERVED[] = {
    "abstract", "assert",       "boolean",  "break",     "byte",   "case",      "catch",    "char",
    "class",    "const",        "continue", "default",   "do",     "double",    "else",     "enum",
    "extends",  "final",        "finally",  "float",     "for",    "goto",      "if",       "implements",
    "import",   "instanceof",   "int",      "interface", "long",   "native",    "new",      "package",
    "private",  "protected",    "public",   "return",    "short",  "static",    "strictfp", "super",
    "switch",   "synchronized", "this",     "throw",     "throws", "transient", "try",      "void",
    "volatile", "while",        "true",     "false",     "null",   "var",       "record",   "yield",
    "sealed",   "permits",      "_",        NULL};

/* Globals the TypeScript and Python code cimport writes calls (Object.entries, JSON.stringify,
 * float(2), len(x), str() in a template's join, ...): a variable of that name would hide them, so a
 * program's names take another (names_builtins). */
static const char *const TS_BUILTINS[] = {"Array", "Boolean", "Buffer",  "Error",     "Intl",   "JSON",
                                          "Math",  "Number",  "Object",  "Promise",   "String", "crypto",
                                          "fs",    "process", "require", "undefined", NULL};
static const char *const PY_BUILTINS[] = {"Exception", "NotImplementedError",
                                          "abs",       "all",
                                          "enumerate", "float",
                                          "int",       "isinstance",
                                          "len",       "max",
                                          "min",       "open",
                                          "repr",      "sorted",
                                          "str",       NULL};

/* C#: the namespaces, classes and helper functions the written code names unqualified (`using`
 * directives, Pulumi's classes, the helpers written before the program): a local of that name hides
 * it (`var File = ...; File.ReadAllText(File)` does not compile). */
static const char *const CS_BUILTINS[] = {
    /* Pulumi's */
    "Alias", "AssetArchive", "AssetOrArchive", "ComponentResource", "ComponentResourceOptions", "Config",
    "CustomResourceOptions", "CustomTimeouts", "Deployment", "DictionaryResourceArgs", "Either", "FileArchive",
    "FileAsset", "Input", "InputList", "InputMap", "InvokeOptions", "Output", "Pulumi", "PulumiOutput", "RemoteArchive",
    "RemoteAsset", "ResourceArgs", "ResourceHook", "ResourceHookBinding", "ResourceHookOptions", "ResourceOptions",
    "StackReference", "StackReferenceArgs", "Stash", "StashArgs", "StringAsset",
    /* System's */
    "ArgumentException", "BitConverter", "Convert", "CultureInfo", "Dictionary", "Directory", "Encoding", "Enumerable",
    "Exception", "File", "IFormattable", "IReadOnlyList", "ImmutableArray", "ImmutableDictionary", "JsonElement",
    "JsonSerializer", "JsonValueKind", "Math", "NotImplementedException", "NumberStyles", "Process", "SHA1", "SHA256",
    "String", "StringBuilder", "StringComparer", "StringInfo", "System", "Task", "TimeSpan",
    /* the helpers, and the lambda parameter singleOrNone's Select takes */
    "Can", "CompareCodePoints", "ComputeFileBase64Sha256", "ComputeSHA1", "Element", "FormatValue", "Func",
    "NotImplemented", "ReadFileBase64", "ToJsonText", "Try", "__item", NULL};
/* Java: the roots of the fully qualified names written in the program's method (java.math.BigDecimal,
 * com.pulumi....) and the parameters of the lambdas its calls write (_v -> ..., _k in a map's key order), which a local
 * may not take (a local `java` makes `java.math` a field access of it; a lambda's parameter may not shadow a local).
 * Classes are imported by simple name, which a camelCase local does not hide. */
static const char *const JAVA_BUILTINS[] = {"_k", "_kv", "_v", "_vs", "com", "java", NULL};

const char *const *names_builtins(lang_t lang) {
    static const char *const none[] = {NULL};
    switch (lang) {
    case LANG_TYPESCRIPT: return TS_BUILTINS;
    case LANG_PYTHON: return PY_BUILTINS;
    case LANG_CSHARP: return CS_BUILTINS;
    case LANG_JAVA: return JAVA_BUILTINS;
    default: return none;
    }
}

/* The modules (Python) and packages (Go, by their local names) the emitters import for PCL's built-in
 * functions: a name the body's calls read, so an apply's parameter never takes one (read18 F13). */
static const char *const PY_MODULES_READ[] = {"base64", "hashlib", "json", "math", "mimetypes", "os", NULL};
static const char *const GO_PACKAGES_READ[] = {"base64", "bytes", "filepath", "fmt",     "hex",
                                               "json",   "math",  "mime",     "os",      "sha1",
                                               "sha256", "sort",  "strconv",  "strings", NULL};

const char *const *names_modules(lang_t lang) {
    static const char *const none[] = {NULL};
    switch (lang) {
    case LANG_PYTHON: return PY_MODULES_READ;
    case LANG_GO: return GO_PACKAGES_READ;
    default: return none;
    }
}

static const char *const *reserved_table(lang_t lang) {
    switch (lang) {
    case LANG_TYPESCRIPT: return TS_RESERVED;
    case LANG_PYTHON: return PY_RESERVED;
    case LANG_GO: return GO_RESERVED;
    case LANG_CSHARP: return CS_RESERVED;
    case LANG_JAVA: return JAVA_RESERVED;
    case LANG_YAML:
    case LANG_PCL: return NULL;
    }
    return NULL;
}

bool names_is_reserved(lang_t lang, const char *word) {
    const char *const *t = reserved_table(lang);
    /* the first byte decides most: a strcmp only where it matches (called for every key written) */
    for (; t && *t; t++)
        if ((*t)[0] == word[0] && strcmp(*t, word) == 0) return true;
    return false;
}

static bool dollar_allowed(lang_t lang) {
    return lang == LANG_TYPESCRIPT || lang == LANG_JAVA;
}

static bool is_ident_start(lang_t lang, unsigned char c) {
    return isalpha(c) || c == '_' || (c == '$' && dollar_allowed(lang));
}

static bool is_ident_part(lang_t lang, unsigned char c) {
    return is_ident_start(lang, c) || isdigit(c);
}

bool names_is_identifier(lang_t lang, const char *s) {
    if (!s || !*s || !is_ident_start(lang, (unsigned char)s[0])) return false;
    for (const char *p = s + 1; *p; p++)
        if (!is_ident_part(lang, (unsigned char)*p)) return false;
    return !names_is_reserved(lang, s);
}

char *names_make_valid_identifier(arena_t *a, lang_t lang, const char *name) {
    if (!name || !*name) return arena_strdup(a, "_");
    size_t n = strlen(name);
    bool lead = isdigit((unsigned char)name[0]);
    char *out = arena_alloc(a, n + 3);
    size_t o = 0;
    if (lead) out[o++] = '_';
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)name[i];
        out[o++] = is_ident_part(lang, c) ? (char)c : '_';
    }
    out[o] = 0;
    if (!names_is_reserved(lang, out)) return out;
    switch (lang) {
    case LANG_PYTHON:
    case LANG_JAVA: return arena_sprintf(a, "%s_", out);
    case LANG_CSHARP: return arena_sprintf(a, "@%s", out);
    default: return arena_sprintf(a, "_%s", out);
    }
}

/* --- case helpers ------------------------------------------------------------------------------- */

char *names_camel(arena_t *a, const char *s) {
    char *r = arena_strdup(a, s ? s : "");
    r[0] = (char)tolower((unsigned char)r[0]);
    return r;
}

char *names_pascal(arena_t *a, const char *s) {
    char *r = arena_strdup(a, s ? s : "");
    r[0] = (char)toupper((unsigned char)r[0]);
    return r;
}

char *names_title(arena_t *a, const char *s) {
    if (!s) return arena_strdup(a, "");
    if (*s == '$') s++;
    size_t n = strlen(s);
    char *r = arena_alloc(a, n + 1);
    size_t o = 0;
    bool up = true;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '-') {
            up = true;
            continue;
        }
        r[o++] = up ? (char)toupper((unsigned char)s[i]) : s[i];
        up = false;
    }
    r[o] = 0;
    return r;
}

/* Names whose PyName predates the state machine's acronym rule; Pulumi keeps them for
 * compatibility with published SDKs. */
static const struct { const char *from, *to; } PY_LEGACY[] = {{"openXJsonSerDe", "open_x_json_ser_de"}};

char *names_py_name(arena_t *a, const char *s) {
    for (size_t i = 0; i < sizeof PY_LEGACY / sizeof PY_LEGACY[0]; i++)
        if (strcmp(s, PY_LEGACY[i].from) == 0) return arena_strdup(a, PY_LEGACY[i].to);
    /* States as in Pulumi's python.go: the last character was an uppercase letter after a
     * lowercase/digit (UPPER), an uppercase letter after an uppercase one (ACRONYM), or a
     * lowercase letter/digit (LOWER). Components are joined with `_`. Digits and a plural `s`
     * right after an acronym stay in it (`SHA256Hash` → `sha256_hash`, `IPs` → `ips`). */
    enum { FIRST, UPPER, ACRONYM, LOWER } state = FIRST;
    size_t n = strlen(s);
    char *res = arena_alloc(a, 2 * n + 2);
    size_t rl = 0;
    char *cur = arena_alloc(a, n + 2);
    size_t cl = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (!(isalnum(c) || c == '_' || c >= 0x80)) c = '_';
        bool upper = isupper(c) != 0;
        switch (state) {
        case FIRST:
            if (!(isalpha(c) || c == '_' || c >= 0x80)) cur[cl++] = '_';
            if (upper) {
                state = UPPER;
                cur[cl++] = (char)tolower(c);
            } else {
                state = LOWER;
                cur[cl++] = (char)c;
            }
            break;
        case UPPER:
            if (upper) {
                state = ACRONYM;
                cur[cl++] = (char)tolower(c);
            } else {
                state = LOWER;
                cur[cl++] = (char)c;
            }
            break;
        case ACRONYM:
            if (upper) {
                cur[cl++] = (char)tolower(c);
            } else if (isdigit(c) || c == 's') {
                cur[cl++] = (char)c;
                state = LOWER;
            } else {
                /* the acronym's last letter starts the next word: `HTTPServer` → http_server */
                char last = cur[cl - 1];
                if (rl) res[rl++] = '_';
                memcpy(res + rl, cur, cl - 1);
                rl += cl - 1;
                cl = 0;
                cur[cl++] = last;
                cur[cl++] = (char)c;
                state = LOWER;
            }
            break;
        case LOWER:
            if (upper) {
                if (rl) res[rl++] = '_';
                memcpy(res + rl, cur, cl);
                rl += cl;
                cl = 0;
                cur[cl++] = (char)tolower(c);
                state = UPPER;
            } else {
                cur[cl++] = (char)c;
            }
            break;
        }
    }
    if (cl) {
        if (rl) res[rl++] = '_';
        memcpy(res + rl, cur, cl);
        rl += cl;
    }
    res[rl] = 0;
    return res;
}

/* Pulumi's ExpandShortEnumName: single symbols and digits that cannot be identifiers. */
static const char *enum_short_name(const char *s) {
    static const char *const digits[] = {"Zero", "One", "Two",   "Three", "Four",
                                         "Five", "Six", "Seven", "Eight", "Nine"};
    if (s[0] && !s[1]) {
        if (s[0] == '*') return "Asterisk";
        if (isdigit((unsigned char)s[0])) return digits[s[0] - '0'];
    }
    return s;
}

static void collapse_underscores(char *s) {
    char *o = s;
    for (const char *p = s; *p; p++)
        if (!(*p == '_' && o > s && o[-1] == '_')) *o++ = *p;
    *o = 0;
}

char *names_enum_member(arena_t *a, lang_t lang, const schema_enum_value_t *v, const char *type_name) {
    const char *raw = v->name;
    if (!raw && v->value) {
        if (v->value->kind == PV_STRING)
            raw = v->value->u.str.s;
        else if (v->value->kind == PV_NUMBER) {
            buf_t b;
            buf_init(&b);
            names_append_number(&b, v->value->u.n);
            raw = buf_arena_str(&b, a);
            buf_free(&b);
        } else if (v->value->kind == PV_BOOL)
            raw = v->value->u.b ? "True" : "False";
    }
    if (!raw || !*raw) return NULL;
    raw = enum_short_name(raw);
    if (!raw[1] && !isalpha((unsigned char)raw[0]) && raw[0] != '_') return NULL;
    char *r;
    if (lang == LANG_PYTHON) {
        r = names_py_name(a, raw);
        for (char *p = r; *p; p++)
            *p = (char)toupper((unsigned char)*p);
        r = names_make_valid_identifier(a, LANG_PYTHON, r);
        if (r[0] == '_' && type_name) {
            char *t = names_py_name(a, type_name);
            for (char *p = t; *p; p++)
                *p = (char)toupper((unsigned char)*p);
            r = arena_sprintf(a, "%s%s", t, r);
        }
    } else {
        r = names_pascal(a, names_make_valid_identifier(a, lang, raw));
        if (r[0] == '@') r++; /* C# escape no longer needed once capitalised */
    }
    collapse_underscores(r);
    if (lang != LANG_PYTHON && type_name && strcmp(r, type_name) == 0) r = arena_sprintf(a, "%sValue", r);
    return r;
}

/* --- tokens ------------------------------------------------------------------------------------- */

bool names_token_split(arena_t *a, const char *token, char **package, char **module, char **member) {
    const char *c1 = token ? strchr(token, ':') : NULL;
    const char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c1 || !c2) return false;
    if (strncmp(token, "pulumi:providers:", 17) == 0) {
        if (package) *package = arena_strdup(a, token + 17);
        if (module) *module = NULL;
        if (member) *member = arena_strdup(a, "Provider");
        return true;
    }
    if (package) *package = arena_strndup(a, token, (size_t)(c1 - token));
    if (module) *module = arena_strndup(a, c1 + 1, (size_t)(c2 - c1 - 1));
    if (member) *member = arena_strdup(a, c2 + 1);
    return true;
}

/* --- unique names ------------------------------------------------------------------------------- */

struct names_table {
    arena_t *arena;
    hashmap_t map; /* name (an arena copy) → its int value; freed with the arena */
};

static void names_table_release(void *t) {
    hashmap_free(&((names_table_t *)t)->map);
}

names_table_t *names_table_new(arena_t *a) {
    names_table_t *t = arena_alloc(a, sizeof *t);
    t->arena = a;
    arena_on_free(a, names_table_release, t);
    return t;
}

void names_table_put(names_table_t *t, const char *name, int value) {
    void **v = hashmap_find_str(&t->map, name);
    if (v)
        *v = (void *)(intptr_t)value;
    else
        hashmap_add_str(&t->map, arena_strdup(t->arena, name), (void *)(intptr_t)value);
}

int names_table_get(const names_table_t *t, const char *name) {
    void **v = hashmap_find_str(&t->map, name);
    return v ? (int)(intptr_t)*v : -1;
}

void names_table_reserve(names_table_t *t, const char *name) {
    if (!names_table_has(t, name)) names_table_put(t, name, -1);
}

bool names_table_has(const names_table_t *t, const char *name) {
    return hashmap_find_str(&t->map, name) != NULL;
}

const char *names_table_unique(names_table_t *t, const char *base, const char *sep, int first) {
    const char *name = base;
    for (int k = first; names_table_has(t, name); k++)
        name = arena_sprintf(t->arena, "%s%s%d", base, sep, k);
    names_table_reserve(t, name);
    return name;
}

/* --- literals ----------------------------------------------------------------------------------- */

/* Whether Go's strconv.Quote (and Pulumi's TypeScript and Python generators) escapes the code point r
 * (unicode.IsPrint is false): the C1 controls,
 * the spaces but ASCII's, the line and paragraph separators, the format characters (U+00AD, the
 * zero-width and bidirectional marks, U+FEFF, the tag characters, ...), the private-use planes and
 * U+FFFE/U+FFFF. (Unassigned code points, which it escapes too, are written as they are: valid
 * UTF-8, the same string.) */
bool names_unprintable(uint32_t r) {
    static const uint32_t ranges[][2] = {{0x80, 0xa0},       {0xad, 0xad},       {0x600, 0x605},     {0x61c, 0x61c},
                                         {0x6dd, 0x6dd},     {0x70f, 0x70f},     {0x890, 0x891},     {0x8e2, 0x8e2},
                                         {0x1680, 0x1680},   {0x180e, 0x180e},   {0x2000, 0x200f},   {0x2028, 0x202f},
                                         {0x205f, 0x2064},   {0x2066, 0x206f},   {0x3000, 0x3000},   {0xe000, 0xf8ff},
                                         {0xfeff, 0xfeff},   {0xfff9, 0xfffb},   {0xfffe, 0xffff},   {0x110bd, 0x110bd},
                                         {0x110cd, 0x110cd}, {0x13430, 0x1343f}, {0x1bca0, 0x1bca3}, {0x1d173, 0x1d17a},
                                         {0xe0001, 0xe0001}, {0xe0020, 0xe007f}, {0xf0000, 0x10ffff}};
    for (size_t i = 0; i < sizeof ranges / sizeof *ranges; i++)
        if (r >= ranges[i][0] && r <= ranges[i][1]) return true;
    return false;
}

bool names_yaml_escapes(uint32_t r) {
    return (r >= 0x80 && r <= 0x9f) || r == 0x2028 || r == 0x2029 || r == 0xfeff || r == 0xfffe || r == 0xffff;
}

bool names_csharp_newline(uint32_t r) {
    return r == 0x85 || r == 0x2028 || r == 0x2029;
}

uint32_t names_utf8_rune(const unsigned char *p, size_t *w) {
    int n = p[0] >= 0xf0 && p[0] < 0xf5 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc2 && p[0] < 0xe0 ? 2 : 0;
    if (!n) return 0;
    uint32_t r = p[0] & (0x7f >> n);
    for (int i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80) return 0;
        r = (r << 6) | (p[i] & 0x3f);
    }
    *w = (size_t)n;
    return r;
}

void names_rune_escape(char *out, size_t size, lang_t lang, uint32_t r) {
    if (lang == LANG_TYPESCRIPT)
        snprintf(out, size, "\\u{%x}", (unsigned)r);
    else
        snprintf(out, size, r > 0xffff ? "\\U%08x" : "\\u%04x", (unsigned)r);
}

bool names_escape_unprintable(buf_t *b, lang_t lang, const char **p) {
    size_t w = 0;
    uint32_t r = names_utf8_rune((const unsigned char *)*p, &w);
    if (!w || !names_unprintable(r)) return false;
    char tmp[16];
    names_rune_escape(tmp, sizeof tmp, lang, r);
    buf_puts(b, tmp);
    *p += w - 1;
    return true;
}

void names_append_quoted(buf_t *b, lang_t lang, const char *s) {
    buf_putc(b, '"');
    const char *run = s;
    for (const char *p = s; *p; p++) {
        unsigned char c = (unsigned char)*p;
        const char *esc = NULL;
        char tmp[16];
        size_t w = 1;
        if (pcl_is_nul(p)) c = 0, w = 2; /* PCL_NUL: both bytes become the escape below */
        switch (c) {
        case '"': esc = "\\\""; break;
        case '\\': esc = "\\\\"; break;
        case '\n': esc = "\\n"; break;
        case '\r': esc = "\\r"; break;
        case '\t': esc = lang == LANG_TYPESCRIPT || lang == LANG_PYTHON ? "\\x09" : "\\t"; break; /* Pulumi's forms */
        default:
            if (lang == LANG_GO && (c == 7 || c == 8 || c == 0x0b || c == 0x0c)) { /* strconv.Quote's forms */
                esc = c == 7 ? "\\a" : c == 8 ? "\\b" : c == 0x0b ? "\\v" : "\\f";
                break;
            }
            if ((lang == LANG_GO || lang == LANG_TYPESCRIPT || lang == LANG_PYTHON || lang == LANG_YAML) && c >= 0x80) {
                size_t n = 0;
                uint32_t r = names_utf8_rune((const unsigned char *)p, &n);
                if (n && (lang == LANG_YAML ? names_yaml_escapes(r) : names_unprintable(r))) {
                    names_rune_escape(tmp, sizeof tmp, lang, r);
                    esc = tmp;
                    w = n;
                }
                break;
            }
            if (lang == LANG_CSHARP && c >= 0x80) { /* C#'s new-line characters end a regular literal */
                size_t n = 0;
                uint32_t r = names_utf8_rune((const unsigned char *)p, &n);
                if (n && names_csharp_newline(r)) {
                    names_rune_escape(tmp, sizeof tmp, lang, r);
                    esc = tmp;
                    w = n;
                }
                break;
            }
            if (c < 0x20 || c == 0x7f) {
                /* Java translates \uXXXX before lexing (a \u000a would end the line) and C#'s \x
                 * is variable-length, so each gets the escape that is safe in it. */
                if (lang == LANG_JAVA)
                    snprintf(tmp, sizeof tmp, "\\%03o", c);
                else if (lang == LANG_CSHARP)
                    snprintf(tmp, sizeof tmp, "\\u%04x", c);
                else
                    snprintf(tmp, sizeof tmp, "\\x%02x", c);
                esc = tmp;
            }
        }
        if (!esc) continue;
        buf_append(b, run, (size_t)(p - run));
        buf_puts(b, esc);
        run = p + w;
        p += w - 1;
    }
    buf_puts(b, run);
    buf_putc(b, '"');
}

bool names_number_is_int(double n) {
    /* 2^63 itself is not representable as int64; everything strictly inside is */
    return isfinite(n) && n == trunc(n) && n >= -9223372036854775808.0 && n < 9223372036854775808.0;
}

void names_append_number(buf_t *b, double n) {
    if (isnan(n)) {
        buf_puts(b, "NaN");
        return;
    }
    if (isinf(n)) {
        buf_puts(b, n > 0 ? "+Inf" : "-Inf");
        return;
    }
    pv_format_number(b, n);
}

bool names_append_path_literal(buf_t *b, lang_t lang, const pcl_expr_t *e) {
    if (e->kind == PCL_STRING) {
        names_append_quoted(b, lang, e->s);
        return true;
    }
    if (e->kind != PCL_TRAVERSAL) return false;
    buf_t p;
    buf_init(&p);
    buf_puts(&p, e->trav.root);
    for (size_t i = 0; i < e->trav.n; i++) {
        const pcl_trav_part_t *part = &e->trav.parts[i];
        if (part->attr) {
            buf_printf(&p, ".%s", part->attr);
        } else if (part->index_is_string) {
            buf_putc(&p, '[');
            names_append_quoted(&p, lang, part->index_str);
            buf_putc(&p, ']');
        } else {
            buf_printf(&p, "[%zu]", part->index_num);
        }
    }
    char *s = buf_take(&p);
    names_append_quoted(b, lang, s);
    free(s);
    return true;
}

void names_memo_init(names_memo_t *m, arena_t *a) {
    memset(m, 0, sizeof *m);
    m->a = a;
    m->index = names_table_new(a);
}

const char *names_memo_get(const names_memo_t *m, const char *key) {
    int k = names_table_get(m->index, key);
    return k >= 0 ? m->values[k] : NULL;
}

void names_memo_put(names_memo_t *m, const char *key, const char *value) {
    m->values = arena_grow_array(m->a, m->values, &m->cap, m->n + 1, sizeof *m->values);
    m->values[m->n] = value;
    names_table_put(m->index, arena_strdup(m->a, key), (int)m->n++);
}

names_table_t *names_node_index(arena_t *a, const pcl_program_t *p) {
    names_table_t *t = names_table_new(a);
    for (size_t i = 0; i < p->n_nodes; i++)
        if (p->nodes[i].kind != PCL_NODE_PACKAGE && p->nodes[i].kind != PCL_NODE_OUTPUT && p->nodes[i].name &&
            names_table_get(t, p->nodes[i].name) < 0)
            names_table_put(t, p->nodes[i].name, (int)i);
    return t;
}

bool names_check_tokens(const pcl_program_t *p, const char *language, diag_list_t *diags) {
    for (size_t i = 0; i < p->n_nodes; i++) {
        const pcl_node_t *n = &p->nodes[i];
        if ((n->kind == PCL_NODE_RESOURCE || n->kind == PCL_NODE_COMPONENT) && !n->token) {
            diag_add(diags, DIAG_ERROR, DIAG_CODEGEN, NULL, NULL, "resource '%s' has no type token; cannot emit %s",
                     n->name, language);
            return false;
        }
    }
    return true;
}

const schema_type_t *names_enum_type_at(const schema_type_t *t) {
    if (!t) return NULL;
    if (t->kind == SCHEMA_ENUM) return t;
    if (t->kind == SCHEMA_UNION)
        for (size_t i = 0; i < t->n_members; i++)
            if (t->members[i] && t->members[i]->kind == SCHEMA_ENUM) return t->members[i];
    return NULL;
}

const schema_enum_value_t *names_enum_value_of(const schema_type_t *enum_type, const pcl_expr_t *e) {
    for (size_t i = 0; enum_type && i < enum_type->n_enum_values; i++) {
        const pv_t *v = enum_type->enum_values[i].value;
        if (v && ((e->kind == PCL_STRING && v->kind == PV_STRING && strcmp(v->u.str.s, e->s) == 0) ||
                  (e->kind == PCL_NUMBER && v->kind == PV_NUMBER && v->u.n == e->n) ||
                  (e->kind == PCL_BOOL && v->kind == PV_BOOL && v->u.b == e->b)))
            return &enum_type->enum_values[i];
    }
    return NULL;
}
