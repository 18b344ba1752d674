/* java.c — the Java emitter: PCL program → App.java (package generated_program).
 *
 * Same shape as the other emitters: a program walker (emit_java), an expression printer
 * (java_expr) and names (java_class_ref, java_package). Output follows pulumi-java's program
 * generator (pcl-emitters §3.5, §4.5): `public static void stack(Context ctx)` called through
 * `Pulumi.run(App::stack)`, one `new <Type>("name", <Type>Args.builder()...build())` per resource
 * with builder chains indented 4 more than the statement, options through
 * `CustomResourceOptions.builder()` indented 8 more, list properties as varargs, maps as
 * `Map.ofEntries(Map.entry(..))`, secrets from `ctx.config().requireSecret` and `Output.ofSecret`.
 *
 * Classes are imported by simple name; when two imported classes share a simple name (two
 * packages' `Provider`), neither is imported and both are written fully qualified. That needs to
 * know every class first, so the body is rendered twice: once to collect classes, once for real. */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "emitters/walk.h"

typedef struct java_class {
    const char *fqcn;
    const char *simple;
    bool qualify; /* its simple name is ambiguous: write the full name, do not import */
} java_class_t;

/* A map's keys in PCL's order, by code point: String.compareTo compares UTF-16 code units, which puts
 * U+10000 and above (surrogates) before U+E000..U+FFFF. (_k is a names_builtins name.) */
#define JAVA_KEY_ORDER                                                                                                 \
    "java.util.Comparator.comparing((String _k) -> _k.codePoints().toArray(), java.util.Arrays::compare)"

/* The helper methods some calls need (written in App after main; names fully qualified). */
static const emit_helper_t JAVA_HELPERS[] = {
    {"sha1", "computeSHA1",
     "    private static String computeSHA1(String input) {\n"
     "        try {\n"
     "            var hash = java.security.MessageDigest.getInstance(\"SHA-1\")\n"
     "                .digest(input.getBytes(java.nio.charset.StandardCharsets.UTF_8));\n"
     "            var hex = new StringBuilder();\n"
     "            for (byte b : hash) {\n"
     "                hex.append(String.format(\"%02x\", b));\n"
     "            }\n"
     "            return hex.toString();\n"
     "        } catch (java.security.NoSuchAlgorithmException e) {\n"
     "            throw new RuntimeException(e);\n"
     "        }\n"
     "    }\n\n"},
    {"filebase64sha256", "computeFileBase64Sha256",
     "    private static String computeFileBase64Sha256(String path) {\n"
     "        try {\n"
     "            var hash = java.security.MessageDigest.getInstance(\"SHA-256\")\n"
     "                .digest(java.nio.file.Files.readAllBytes(java.nio.file.Paths.get(path)));\n"
     "            return java.util.Base64.getEncoder().encodeToString(hash);\n"
     "        } catch (java.security.NoSuchAlgorithmException | java.io.IOException e) {\n"
     "            throw new RuntimeException(e);\n"
     "        }\n"
     "    }\n\n"},
    /* Files.readString and Files.readAllBytes throw IOException, which the stack method (a
     * Consumer<Context>) cannot throw: read in a helper that rethrows it unchecked */
    {"readFile", "readFile",
     "    private static String readFile(String path) {\n"
     "        try {\n"
     "            return java.nio.file.Files.readString(java.nio.file.Paths.get(path));\n"
     "        } catch (java.io.IOException e) {\n"
     "            throw new java.io.UncheckedIOException(e);\n"
     "        }\n"
     "    }\n\n"},
    {"filebase64", "readFileBase64",
     "    private static String readFileBase64(String path) {\n"
     "        try {\n"
     "            return java.util.Base64.getEncoder()\n"
     "                .encodeToString(java.nio.file.Files.readAllBytes(java.nio.file.Paths.get(path)));\n"
     "        } catch (java.io.IOException e) {\n"
     "            throw new java.io.UncheckedIOException(e);\n"
     "        }\n"
     "    }\n\n"},
    {"formatValue", "formatValue",
     "    private static String formatValue(Object value) {\n"
     "        if (value instanceof com.google.gson.JsonPrimitive) {\n"
     "            // a Json value as JavaScript prints it: a string without its quotes, a number as one\n"
     "            var json = (com.google.gson.JsonPrimitive) value;\n"
     "            value = json.isNumber() ? (Object) json.getAsDouble()\n"
     "                : json.isBoolean() ? (Object) json.getAsBoolean() : json.getAsString();\n"
     "        }\n"
     "        if (!(value instanceof Double) || ((Double) value).isNaN() || ((Double) value).isInfinite()) {\n"
     "            return String.valueOf(value);\n"
     "        }\n"
     "        double d = (Double) value;\n"
     "        if (d == 0) {\n"
     "            return \"0\";\n"
     "        }\n"
     "        // as JavaScript prints a number: its shortest digits that read back as it, plain from 1e-6 to 1e21\n"
     "        var exact = new java.math.BigDecimal(Math.abs(d));\n"
     "        var n = exact;\n"
     "        for (int p = 1; p <= 17; p++) {\n"
     "            // the nearest p digits (halfway: the even ones), else the next p digits up (a power of two)\n"
     "            n = exact.round(new java.math.MathContext(p, java.math.RoundingMode.HALF_EVEN));\n"
     "            if (n.doubleValue() == Math.abs(d)) {\n"
     "                break;\n"
     "            }\n"
     "            var above = n.add(n.ulp());\n"
     "            if (n.compareTo(exact) < 0 && above.doubleValue() == Math.abs(d)) {\n"
     "                n = above;\n"
     "                break;\n"
     "            }\n"
     "        }\n"
     "        n = n.stripTrailingZeros();\n"
     "        String digits = n.unscaledValue().toString();\n"
     "        int k = digits.length();\n"
     "        int e = k - n.scale();\n"
     "        String text;\n"
     "        if (k <= e && e <= 21) {\n"
     "            text = digits + \"0\".repeat(e - k);\n"
     "        } else if (0 < e && e <= 21) {\n"
     "            text = digits.substring(0, e) + \".\" + digits.substring(e);\n"
     "        } else if (-6 < e && e <= 0) {\n"
     "            text = \"0.\" + \"0\".repeat(-e) + digits;\n"
     "        } else {\n"
     "            text = (k == 1 ? digits : digits.charAt(0) + \".\" + digits.substring(1))\n"
     "                + (e > 0 ? \"e+\" : \"e-\") + Math.abs(e - 1);\n"
     "        }\n"
     "        return d < 0 ? \"-\" + text : text;\n"
     "    }\n\n"},
    /* PCL's toJSON writes JSON as JavaScript's JSON.stringify does: pulumi-java's serializeJson is
     * Gson over Map.ofEntries, whose order differs from one JVM run to the next, with < > & = '
     * escaped and a double as Double.toString prints it (1.23456785E7). The object keeps its keys in
     * their written order (a LinkedHashMap). */
    {"toJSON", "toJson",
     "    private static String toJson(Object value) {\n"
     "        var out = new StringBuilder();\n"
     "        writeJson(out, value);\n"
     "        return out.toString();\n"
     "    }\n\n"
     "    // a value as JavaScript's JSON.stringify writes it: only \" \\ and control characters escaped,\n"
     "    // a number as JavaScript prints it\n"
     "    private static void writeJson(StringBuilder out, Object value) {\n"
     "        if (value == null) {\n"
     "            out.append(\"null\");\n"
     "        } else if (value instanceof java.util.Map) {\n"
     "            out.append('{');\n"
     "            var first = true;\n"
     "            for (var entry : ((java.util.Map<?, ?>) value).entrySet()) {\n"
     "                out.append(first ? \"\" : \",\");\n"
     "                first = false;\n"
     "                writeJson(out, String.valueOf(entry.getKey()));\n"
     "                out.append(':');\n"
     "                writeJson(out, entry.getValue());\n"
     "            }\n"
     "            out.append('}');\n"
     "        } else if (value instanceof java.util.List) {\n"
     "            out.append('[');\n"
     "            var first = true;\n"
     "            for (var item : (java.util.List<?>) value) {\n"
     "                out.append(first ? \"\" : \",\");\n"
     "                first = false;\n"
     "                writeJson(out, item);\n"
     "            }\n"
     "            out.append(']');\n"
     "        } else if (value instanceof String) {\n"
     "            var text = (String) value;\n"
     "            out.append('\"');\n"
     "            for (int i = 0; i < text.length(); i++) {\n"
     "                char c = text.charAt(i);\n"
     "                int escape = \"\\\"\\\\\\b\\f\\n\\r\\t\".indexOf(c);\n"
     "                if (escape >= 0) {\n"
     "                    out.append('\\\\').append(\"\\\"\\\\bfnrt\".charAt(escape));\n"
     "                } else if (c < 0x20) {\n"
     "                    out.append(String.format(\"\\\\u%04x\", (int) c));\n"
     "                } else {\n"
     "                    out.append(c);\n"
     "                }\n"
     "            }\n"
     "            out.append('\"');\n"
     "        } else if (value instanceof Double || value instanceof Float) {\n"
     "            double d = ((Number) value).doubleValue();\n"
     "            out.append(Double.isFinite(d) ? formatValue(d) : \"null\");\n"
     "        } else if (value instanceof Number || value instanceof Boolean) {\n"
     "            out.append(value);\n"
     "        } else {\n"
     "            throw new IllegalArgumentException(\"toJSON cannot write a \" + value.getClass().getName());\n"
     "        }\n"
     "    }\n\n"
     "    @SafeVarargs\n"
     "    private static java.util.Map<String, Object> jsonObject(java.util.Map.Entry<String, Object>... entries) {\n"
     "        var object = new java.util.LinkedHashMap<String, Object>();\n"
     "        for (var entry : entries) {\n"
     "            object.put(entry.getKey(), entry.getValue());\n"
     "        }\n"
     "        return object;\n"
     "    }\n\n"
     "    private static java.util.Map.Entry<String, Object> jsonProperty(String key, Object value) {\n"
     "        return new java.util.AbstractMap.SimpleImmutableEntry<>(key, value);\n"
     "    }\n\n"
     "    private static java.util.List<Object> jsonArray(Object... items) {\n"
     "        return java.util.Arrays.asList(items);\n"
     "    }\n\n"},
    /* PCL's length() of a string counts extended grapheme clusters (go-cty's, Unicode 15.0's rules, UAX
     * #29), as the Python and Go helpers count them (the tables are emit_helper_puts', walk.c);
     * categories from the JVM's Character.getType. pulumi-java's Strings.length approximates them. */
    {"length", "graphemeLength",
     "    private static int graphemeLength(String s) {\n"
     "        // extended grapheme clusters by Unicode 15.0's rules (UAX #29), as PCL counts them\n"
     "        @grapheme-tables\n"
     "        // bounds: starts and ends (exclusive), sorted\n"
     "        java.util.function.BiPredicate<int[], Integer> within = (bounds, c) -> {\n"
     "            int at = java.util.Arrays.binarySearch(bounds, c);\n"
     "            return (at >= 0 ? at + 1 : -at - 1) % 2 == 1;\n"
     "        };\n"
     "        // each code point's kind: \\r \\n, Z(WJ), R(egional indicator), Hangul L V T v(LV) t(LVT),\n"
     "        // P(repend), E(xtend), C(ontrol), S(pacingMark), X (Extended_Pictographic), ' ' any other\n"
     "        int count = 0, regional = 0, emoji = 0;\n"
     "        char prev = 0;\n"
     "        for (int i = 0; i < s.length(); i += Character.charCount(s.codePointAt(i))) {\n"
     "            int c = s.codePointAt(i), type = Character.getType(c);\n"
     "            char k;\n"
     "            if (c == '\\r' || c == '\\n') {\n"
     "                k = (char) c;\n"
     "            } else if (c == 0x200D) {\n"
     "                k = 'Z';\n"
     "            } else if (c >= 0x1F1E6 && c <= 0x1F1FF) {\n"
     "                k = 'R';\n"
     "            } else if (c >= 0x1100 && c <= 0x115F || c >= 0xA960 && c <= 0xA97C) {\n"
     "                k = 'L';\n"
     "            } else if (c >= 0x1160 && c <= 0x11A7 || c >= 0xD7B0 && c <= 0xD7C6) {\n"
     "                k = 'V';\n"
     "            } else if (c >= 0x11A8 && c <= 0x11FF || c >= 0xD7CB && c <= 0xD7FB) {\n"
     "                k = 'T';\n"
     "            } else if (c >= 0xAC00 && c <= 0xD7A3) {\n"
     "                k = (c - 0xAC00) % 28 == 0 ? 'v' : 't';\n"
     "            } else if (within.test(prepend, c)) {\n"
     "                k = 'P';\n"
     "            } else if (type == Character.NON_SPACING_MARK || type == Character.ENCLOSING_MARK\n"
     "                || within.test(otherExtend, c)) {\n"
     "                k = 'E';\n"
     "            } else if (type == Character.CONTROL || type == Character.FORMAT || type == "
     "Character.LINE_SEPARATOR\n"
     "                || type == Character.PARAGRAPH_SEPARATOR || type == Character.UNASSIGNED\n"
     "                && (c == 0x2065 || c >= 0xFFF0 && c <= 0xFFF8 || c >= 0xE0000 && c <= 0xE0FFF)) {\n"
     "                k = 'C';\n"
     "            } else if (type == Character.COMBINING_SPACING_MARK && !within.test(notSpacing, c)\n"
     "                || c == 0xE33 || c == 0xEB3) {\n"
     "                k = 'S';\n"
     "            } else {\n"
     "                k = within.test(pictographic, c) ? 'X' : ' ';\n"
     "            }\n"
     "            boolean joined;\n"
     "            if (i == 0 || prev == '\\r' && k == '\\n') {\n"
     "                joined = i != 0;\n"
     "            } else if (\"\\r\\nC\".indexOf(prev) >= 0 || \"\\r\\nC\".indexOf(k) >= 0) {\n"
     "                joined = false;\n"
     "            } else {\n"
     "                joined = prev == 'L' && \"LVvt\".indexOf(k) >= 0 || \"vV\".indexOf(prev) >= 0 && "
     "\"VT\".indexOf(k) >= 0\n"
     "                    || \"tT\".indexOf(prev) >= 0 && k == 'T' || \"EZS\".indexOf(k) >= 0 || prev == 'P'\n"
     "                    || prev == 'Z' && k == 'X' && emoji == 2 || prev == 'R' && k == 'R' && regional % 2 == 1;\n"
     "            }\n"
     "            count += joined ? 0 : 1;\n"
     "            regional = k == 'R' ? regional + 1 : 0;\n"
     "            emoji = k == 'X' ? 1 : emoji == 1 && k == 'Z' ? 2 : emoji == 1 && k == 'E' ? 1 : 0;\n"
     "            prev = k;\n"
     "        }\n"
     "        return count;\n"
     "    }\n\n"},
    /* PCL's element() wraps the index around (go-cty's ElementFunc); get() throws past the end */
    {"element", "element",
     "    private static <T> T element(java.util.List<T> list, double index) {\n"
     "        // PCL's element(): the index taken modulo the list's length (a whole number, not negative)\n"
     "        if (index < 0 || index != Math.floor(index)) {\n"
     "            throw new IllegalArgumentException(\"element: the index is not a whole number of 0 or more\");\n"
     "        }\n"
     "        if (list.isEmpty()) {\n"
     "            throw new IllegalArgumentException(\"element: the list is empty\");\n"
     "        }\n"
     "        return list.get((int) (index % list.size()));\n"
     "    }\n\n"},
    {"singleOrNone", "singleOrNone",
     "    private static <T> T singleOrNone(java.util.List<T> list) {\n"
     "        if (list.size() > 1) {\n"
     "            throw new IllegalArgumentException(\"singleOrNone: the list has more than one element\");\n"
     "        }\n"
     "        return list.isEmpty() ? null : list.get(0);\n"
     "    }\n\n"},
    /* PCL's can() and try(): what fails in PCL throws in the written Java (a map's missing key read
     * through keyIs, an index past the end, a value of no type cast to what it is not, null read
     * into), and the helper catches it */
    {"can", "can",
     "    private static boolean can(java.util.function.Supplier<Object> fn) {\n"
     "        // PCL's can(): whether evaluating fn succeeds (a failure throws)\n"
     "        try {\n"
     "            fn.get();\n"
     "            return true;\n"
     "        } catch (RuntimeException e) {\n"
     "            return false;\n"
     "        }\n"
     "    }\n\n"},
    {"try", "try_",
     "    @SafeVarargs\n"
     "    private static <T> T try_(java.util.function.Supplier<T>... fns) {\n"
     "        // PCL's try(): the value of the first of fns that succeeds (a failure throws)\n"
     "        for (var fn : fns) {\n"
     "            try {\n"
     "                return fn.get();\n"
     "            } catch (RuntimeException e) {\n"
     "                // the next one\n"
     "            }\n"
     "        }\n"
     "        throw new IllegalArgumentException(\"try: all parameters failed\");\n"
     "    }\n\n"},
    /* inside can() and try(), a map's key is read as its entry (JAVA_STRICT_VALUE_PARTS), which
     * orElseThrow fails for a missing key, where Map.get gives null */
    {"keyIs", "keyIs",
     "    private static <V> java.util.function.Predicate<java.util.Map.Entry<String, V>> keyIs(String key) {\n"
     "        return entry -> entry.getKey().equals(key);\n"
     "    }\n\n"},
};
#define JAVA_N_HELPERS (sizeof JAVA_HELPERS / sizeof JAVA_HELPERS[0])

typedef struct java_ctx {
    emit_typed_t base; /* program, names, the node being written */
    java_class_t *classes;
    size_t n_classes, cap_classes;
    bool helpers[JAVA_N_HELPERS]; /* per JAVA_HELPERS entry: the file needs it */
} java_ctx_t;

/* --- classes and imports --------------------------------------------------------------------------- */

/* Registers a class and returns how code refers to it (simple name, or fully qualified when its
 * simple name is shared by another class). */
static const char *java_class(java_ctx_t *j, const char *fqcn) {
    const char *dot = strrchr(fqcn, '.');
    const char *simple = dot ? dot + 1 : fqcn;
    for (size_t i = 0; i < j->n_classes; i++)
        if (strcmp(j->classes[i].fqcn, fqcn) == 0)
            return j->classes[i].qualify ? j->classes[i].fqcn : j->classes[i].simple;
    if (j->n_classes == j->cap_classes) {
        size_t nc = j->cap_classes ? j->cap_classes * 2 : 16;
        j->classes = arena_grow(j->base.a, j->classes, j->cap_classes * sizeof *j->classes, nc * sizeof *j->classes);
        j->cap_classes = nc;
    }
    j->classes[j->n_classes++] = (java_class_t){arena_strdup(j->base.a, fqcn), arena_strdup(j->base.a, simple), false};
    return simple;
}

static const char *java_lang_str(const schema_package_t *pkg, const char *key) {
    if (!pkg || !pkg->language) return NULL;
    const cJSON *jv = cJSON_GetObjectItemCaseSensitive(pkg->language, "java");
    const cJSON *v = jv ? cJSON_GetObjectItemCaseSensitive(jv, key) : NULL;
    return cJSON_GetStringValue(v);
}

/* A package-name segment: `-` removed, `/` → `_`, lower case (`apps/v1` → apps_v1); a Java reserved
 * word gets `_` after it as pulumi-java's names.Ident writes it (`enum` → enum_: `com.pulumi.enum`
 * does not compile). */
static char *java_segment(arena_t *a, const char *s) {
    char *r = arena_strdup(a, s);
    char *o = r;
    for (const char *p = s; *p; p++) {
        if (*p == '-' || *p == '.') continue;
        *o++ = *p == '/' ? '_' : (*p >= 'A' && *p <= 'Z') ? (char)(*p - 'A' + 'a') : *p;
    }
    *o = 0;
    return names_is_reserved(LANG_JAVA, r) ? arena_sprintf(a, "%s_", r) : r;
}

/* The Java package holding the module of `token`: com.pulumi.<pkg>[.<module>]. */
static const char *java_package_uncached(emit_typed_t *x, schema_package_t *pkg, const char *pkgname, const char *mod) {
    java_ctx_t *j = (java_ctx_t *)x;
    const char *base = java_lang_str(pkg, "basePackage");
    if (!base)
        base = arena_sprintf(j->base.a, "com.%s",
                             pkg && pkg->namespace_ ? java_segment(j->base.a, pkg->namespace_) : "pulumi");
    const char *root = arena_sprintf(j->base.a, "%s.%s", base, java_segment(j->base.a, pkgname));
    if (!*mod || strcmp(mod, "index") == 0) return root;
    return arena_sprintf(j->base.a, "%s.%s", root, java_segment(j->base.a, mod));
}

static const char *java_package(java_ctx_t *j, schema_package_t *pkg, const char *token) {
    return emit_typed_module(&j->base, pkg, token, java_package_uncached, "com.pulumi.unknown");
}

static const char *java_token_member(java_ctx_t *j, const char *token) {
    return emit_token_type_name(j->base.a, token, names_pascal);
}

/* `sub` is "" for resources, "inputs" for input types, "enums" for enums. */
static const char *java_class_ref(java_ctx_t *j, const char *token, const char *sub, const char *suffix) {
    const char *pkg = java_package(j, j->base.node ? j->base.node->package : NULL, token);
    const char *fq =
        arena_sprintf(j->base.a, "%s%s%s.%s%s", pkg, *sub ? "." : "", sub, java_token_member(j, token), suffix);
    return java_class(j, fq);
}

static const char *java_member_name(java_ctx_t *j, const char *name) {
    return names_make_valid_identifier(j->base.a, LANG_JAVA, name);
}

/* --- expressions ---------------------------------------------------------------------------------- */

static void java_expr(java_ctx_t *j, buf_t *b, const pcl_expr_t *e, const schema_type_t *t, int ind);
static const emit_typed_syntax_t JAVA_VALUES; /* the values Java writes: its hooks, below */

static const char *java_attr_name(emit_typed_t *x, int idx, const char *attr, bool first) {
    (void)idx, (void)first;
    return java_member_name((java_ctx_t *)x, attr);
}

static const emit_part_syntax_t JAVA_PARTS = {.lang = LANG_JAVA,
                                              .attr = ".applyValue(v -> v.%s())",
                                              .first_attr = ".%s()",
                                              .key_open = ".applyValue(v -> v.get(",
                                              .key_close = "))",
                                              .index = ".applyValue(v -> v.get(%zu))",
                                              .name = java_attr_name};

/* What is read from a resolved value (an apply's parameter): getters, list and map gets. */
static const emit_part_syntax_t JAVA_VALUE_PARTS = {.lang = LANG_JAVA,
                                                    .attr = ".%s()",
                                                    .key_open = ".get(",
                                                    .key_close = ")",
                                                    .index = ".get(%zu)",
                                                    .name = java_attr_name};

/* Inside can() and try()'s arguments (emit_typed_t.strict): a map's key read as its entry, which fails
 * where the map has no such key (PCL fails there; Map.get gives null), its value null where it is. */
#define JAVA_STRICT_KEY_OPEN ".entrySet().stream().filter(keyIs("
#define JAVA_STRICT_KEY_CLOSE ")).findFirst().orElseThrow().getValue()"
static const emit_part_syntax_t JAVA_STRICT_VALUE_PARTS = {.lang = LANG_JAVA,
                                                           .attr = ".%s()",
                                                           .key_open = JAVA_STRICT_KEY_OPEN,
                                                           .key_close = JAVA_STRICT_KEY_CLOSE,
                                                           .index = ".get(%zu)",
                                                           .name = java_attr_name};

/* What is read into a value of no type (an Object, as Gson decodes it: a Map, a List, a Double, a
 * String, a Boolean), as Pulumi's Java generator reads it: cast to a Map for an attribute or key,
 * to a List for an index, then get. */
static void java_untyped_read(emit_typed_t *x, buf_t *b, const char *value, const pcl_trav_part_t *parts, size_t n) {
    java_ctx_t *j = (java_ctx_t *)x;
    for (size_t k = n; k-- > 0;)
        buf_printf(b, "((%s) ",
                   parts[k].attr || parts[k].index_is_string
                       ? arena_sprintf(j->base.a, "%s<String, Object>", java_class(j, "java.util.Map"))
                       : arena_sprintf(j->base.a, "%s<Object>", java_class(j, "java.util.List")));
    buf_puts(b, value);
    for (size_t k = 0; k < n; k++) {
        bool key = parts[k].attr || parts[k].index_is_string;
        buf_puts(b, key && x->strict ? ")" JAVA_STRICT_KEY_OPEN : ").get(");
        if (key)
            names_append_quoted(b, LANG_JAVA, parts[k].attr ? parts[k].attr : parts[k].index_str);
        else
            buf_printf(b, "%zu", parts[k].index_num);
        buf_puts(b, key && x->strict ? JAVA_STRICT_KEY_CLOSE : ")");
    }
}

/* The property `name` of object type t, or NULL. */
static const schema_property_t *java_object_property(const schema_type_t *t, const char *name) {
    return t && t->kind == SCHEMA_OBJECT && t->object ? schema_find_property(t->object->props, t->object->n_props, name)
                                                      : NULL;
}

/* The output a traversal of a resource reads first (`res.out...`), or NULL. */
static const schema_property_t *java_first_output(emit_typed_t *x, const pcl_expr_t *e, int idx) {
    const pcl_node_t *n = idx >= 0 ? &x->p->nodes[idx] : NULL;
    if (!n || n->kind != PCL_NODE_RESOURCE || !n->schema || !e->trav.n || !e->trav.parts[0].attr) return NULL;
    return schema_find_property(n->schema->outputs, n->schema->n_outputs, e->trav.parts[0].attr);
}

/* Whether the getter of property q of an output type (an invoke's result's too) gives an Optional:
 * pulumi-java's getter of an optional scalar or object property gives an Optional<T>, of an optional
 * list or map the List or Map itself (List.of(), Map.of() when unset), of a required one the value. */
static bool java_getter_optional(const schema_property_t *q) {
    return q && !q->required && !(q->type && (q->type->kind == SCHEMA_ARRAY || q->type->kind == SCHEMA_MAP));
}

/* One read below a value of schema type *t (an Optional of it when *optional): `key` an attribute or
 * a string index (an object's property, a map's key) or NULL for a number index, `text` its index
 * (written `.get(text)`) when it is not an object's property; through an Optional by map, or flatMap
 * where the getter gives an Optional itself. *t and *optional become the read's. */
static void java_read_step(emit_typed_t *x, buf_t *b, const schema_type_t **t, bool *optional, const char *key,
                           const char *text) {
    const schema_type_t *ty = *t;
    const schema_property_t *q = key && ty && ty->kind == SCHEMA_OBJECT ? java_object_property(ty, key) : NULL;
    bool getter = q || (key && text == NULL); /* an object's property (of a type not known: by its getter) */
    bool opt = java_getter_optional(q);
    if (*optional) buf_printf(b, ".%s(x -> x", opt ? "flatMap" : "map");
    if (getter)
        buf_printf(b, ".%s()", java_attr_name(x, -1, key, false));
    else if (key && x->strict) /* a map's key, inside can() or try() */
        buf_printf(b, JAVA_STRICT_KEY_OPEN "%s" JAVA_STRICT_KEY_CLOSE, text);
    else
        buf_printf(b, ".get(%s)", text);
    if (*optional) buf_putc(b, ')');
    *optional |= opt;
    *t = q ? q->type : ty && (ty->kind == SCHEMA_ARRAY || ty->kind == SCHEMA_MAP) ? ty->element : NULL;
}

/* The parts of traversal e from `from` on, read from a value of type t (an Optional of it when
 * `optional`) by java_read_step: an attribute of a map its key. Returns whether the result is an
 * Optional. */
static bool java_read_chain(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, size_t from, const schema_type_t *t,
                            bool optional) {
    for (size_t k = from; k < e->trav.n; k++) {
        const pcl_trav_part_t *pt = &e->trav.parts[k];
        bool key = pt->attr && (t ? t->kind == SCHEMA_MAP : emit_reads_map_key(x->p, x->index, e, k));
        buf_t text;
        buf_init(&text);
        if (key || pt->index_is_string)
            names_append_quoted(&text, LANG_JAVA, pt->attr ? pt->attr : pt->index_str);
        else if (!pt->attr)
            buf_printf(&text, "%zu", pt->index_num);
        java_read_step(x, b, &t, &optional,
                       pt->attr              ? pt->attr
                       : pt->index_is_string ? pt->index_str
                                             : NULL,
                       text.len ? text.data : NULL);
        buf_free(&text);
    }
    return optional;
}

/* Whether a traversal of a resource's output p reads through an Optional (java_read_chain). */
static bool java_reads_optional(emit_typed_t *x, const schema_property_t *p, const pcl_expr_t *e) {
    buf_t scratch;
    buf_init(&scratch);
    bool optional = java_read_chain(x, &scratch, e, 1, p->type, !p->required);
    buf_free(&scratch);
    return optional;
}

/* A resource's output read with its getter and what is read below it. pulumi-java's getter of an
 * optional output gives an Output<Optional<T>>, an output type's getter of an optional property an
 * Optional<T>; an input wants an Output<T>: a read through an optional property is written in one
 * apply, through the Optional by map/flatMap, and gives the value or null:
 * `res.data().applyValue(v -> v.flatMap(x -> x.s()).orElse(null))`. */
static void java_traversal(emit_typed_t *x, buf_t *b, const pcl_expr_t *e) {
    int idx = emit_typed_find(x, e->trav.root);
    const pcl_node_t *n = idx >= 0 ? &x->p->nodes[idx] : NULL;
    if (n && n->kind == PCL_NODE_CONFIG && n->config_secret && emit_config_raw_int(x->a, n, e->trav.parts, e->trav.n)) {
        /* an int a secret config map holds: a Double, as Gson decodes a raw Map (JAVA_VALUES config_raw_int) */
        buf_printf(b, "%s.applyValue(v -> ((Number) v", x->var[idx]);
        for (size_t k = 0; k < e->trav.n; k++)
            emit_append_part(b, &e->trav.parts[k], NULL, &JAVA_VALUE_PARTS);
        buf_puts(b, e->type && e->type->kind == SCHEMA_NUMBER ? ").doubleValue())" : ").intValue())");
        return;
    }
    const schema_property_t *p = x->n_scope ? NULL : java_first_output(x, e, idx);
    if (p && p->required && p->type && p->type->kind == SCHEMA_RESOURCE && e->trav.n == 2 && e->trav.parts[1].attr) {
        /* an output of the resource an output refers to is an Output itself: read in apply, which
         * flattens it (applyValue would give an Output<Output<T>>); emit_check_program refuses deeper */
        buf_printf(b, "%s.%s().apply(v -> v.%s())", x->var[idx], java_attr_name(x, idx, e->trav.parts[0].attr, true),
                   java_attr_name(x, idx, e->trav.parts[1].attr, false));
        return;
    }
    if (!p || !java_reads_optional(x, p, e)) {
        emit_typed_traversal(x, b, e, &JAVA_PARTS);
        return;
    }
    buf_printf(b, "%s.%s().applyValue(v -> v", x->var[idx], java_attr_name(x, idx, e->trav.parts[0].attr, true));
    buf_puts(b, java_read_chain(x, b, e, 1, p->type, !p->required) ? ".orElse(null))" : ")");
}

/* Inside an apply of a resource's output: what an atom reads below it, by java_read_chain, the value
 * or null (emit_check_program: below a required output, compared with null); below another output
 * by the value's getters. */
static void java_read_below(emit_typed_t *x, buf_t *b, const pcl_expr_t *atom, size_t skip) {
    int idx = emit_typed_find(x, atom->trav.root);
    const schema_property_t *p = skip == 1 ? java_first_output(x, atom, idx) : NULL;
    if (java_read_chain(x, b, atom, skip, p ? p->type : NULL, false)) buf_puts(b, ".orElse(null)");
}

static const char *java_need(emit_typed_t *x, const char *fqcn);

/* A template as Pulumi's Java writes it: `String.format("a-%s", x)`, or `Output.format(...)` when it
 * reads outputs; `%` doubled in the text. */
static void java_template(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, int ind) {
    java_ctx_t *j = (java_ctx_t *)x;
    bool out = emit_has_output(j->base.p, j->base.index, e);
    buf_puts(b, out ? "Output.format(\"" : "String.format(\"");
    for (size_t i = 0; i < e->tuple.n; i++) {
        const pcl_expr_t *part = e->tuple.items[i];
        if (part->kind != PCL_STRING) {
            buf_puts(b, "%s");
            continue;
        }
        buf_t t;
        buf_init(&t);
        names_append_quoted(&t, LANG_JAVA, part->s);
        for (size_t k = 1; k + 1 < t.len; k++) {
            if (t.data[k] == '%') buf_putc(b, '%');
            buf_putc(b, t.data[k]);
        }
        buf_free(&t);
    }
    buf_putc(b, '"');
    for (size_t i = 0; i < e->tuple.n; i++) {
        const pcl_expr_t *part = e->tuple.items[i];
        if (part->kind == PCL_STRING) continue;
        buf_puts(b, ", ");
        /* a number (a Double: a config number or a config list's or map's, the schema's number,
         * arithmetic over them), a value of no type (Gson's Object: every number a Double) or one of
         * a type not known here (a for expression's variable, element(), ...) as PCL prints it: 1,
         * not 1.0; a String, Boolean and Integer print so */
        emit_print_t kind = emit_typed_print_kind(x, part);
        if (kind == EMIT_PRINT_STRING || kind == EMIT_PRINT_BOOL || kind == EMIT_PRINT_INT) {
            java_expr(j, b, part, NULL, ind);
        } else if (!x->apply && emit_has_output(j->base.p, j->base.index, part)) {
            bool paren = part->kind == PCL_COND;
            if (paren) buf_putc(b, '(');
            java_expr(j, b, part, NULL, ind);
            buf_printf(b, "%s.applyValue(v -> %s(v))", paren ? ")" : "", java_need(x, "=formatValue"));
        } else {
            buf_printf(b, "%s(", java_need(x, "=formatValue"));
            java_expr(j, b, part, NULL, ind);
            buf_putc(b, ')');
        }
    }
    buf_putc(b, ')');
}

/* Elements one per line at `ind`+4, separated by commas, closed by `)` on the last line. */
static void java_args_multiline(java_ctx_t *j, buf_t *b, const pcl_expr_t *const *items, size_t n,
                                const schema_type_t *et, int ind) {
    for (size_t i = 0; i < n; i++) {
        buf_putc(b, '\n');
        buf_indent(b, ind + 4);
        java_expr(j, b, items[i], et, ind + 4);
        if (i + 1 < n) buf_putc(b, ',');
    }
    buf_putc(b, ')');
}

/* Whether a list literal holds null, or a value that may be null (emit_may_be_null: a config value
 * whose default is null): the SDK's varargs setters (`items(String... items)`) make their List with
 * List.of, which throws NullPointerException on a null item, as List.of itself does, so such a list is
 * passed whole as Arrays.asList(...) (java_list), to the setter that takes a List. */
static bool java_null_item(const java_ctx_t *j, const pcl_expr_t *e) {
    for (size_t i = 0; e->kind == PCL_TUPLE && i < e->tuple.n; i++)
        if (emit_may_be_null(j->base.p, j->base.index, e->tuple.items[i])) return true;
    return false;
}

/* A builder's list or map property (of a type) holding outputs: the SDK's builders take a whole
 * Output<List<T>> / Output<Map<String, T>> or a plain one, so the items are gathered with
 * Output.all (each plain one as Output.of), a map's then made one in an apply:
 *   .numberArray(Output.all(Output.of(3.0), ids.get("a").applyValue(...)))
 *   .tags(Output.all(a.id(), b.id()).applyValue(_vs -> Map.ofEntries(Map.entry("a", _vs.get(0)), ...))) */
/* Whether an output at a number (an item of a list or map of numbers, or a builder's property) may
 * be an Output<Integer> (a resource's int output, arithmetic over one, ...), which Output.all cannot
 * gather beside an Output<Double> (Output<T>... of one T) nor a builder take for an Output<Double>
 * or Output<List<Double>>: all but a number output of a resource read whole (or of an invoke's
 * result a local holds), and a config value the typed walk converts already. */
static bool java_may_be_int_output(java_ctx_t *j, const pcl_expr_t *item, const schema_type_t *et) {
    if (!et || et->kind != SCHEMA_NUMBER || emit_expr_shape(j->base.p, j->base.index, item) != EMIT_SHAPE_NUMBER)
        return false;
    if (emit_typed_conversion(&JAVA_VALUES, &j->base, item) != EMIT_CONV_NONE) return false;
    int idx = item->kind == PCL_TRAVERSAL ? emit_typed_find(&j->base, item->trav.root) : -1;
    const pcl_node_t *n = idx >= 0 ? &j->base.p->nodes[idx] : NULL;
    if (n && n->kind == PCL_NODE_CONFIG && n->token && strcmp(n->token, "number") == 0) return false;
    const schema_property_t *p =
        item->kind == PCL_TRAVERSAL && item->trav.n == 1 ? java_first_output(&j->base, item, idx) : NULL;
    if (n && n->kind == PCL_NODE_LOCAL && n->n_attrs && emit_is_invoke(n->attrs[0].value)) /* its result's */
        p = emit_invoke_local_property(j->base.p, j->base.index, item);
    return !p || !p->type || p->type->kind != SCHEMA_NUMBER;
}

/* An Output<Integer> made an Output<Double>; an unset optional one (null) stays null, not an NPE. */
#define JAVA_INT_OUTPUT_TO_DOUBLE ".applyValue(v -> v == null ? null : v.doubleValue())"

static void java_output_all(java_ctx_t *j, buf_t *b, const pcl_expr_t *e, const schema_type_t *et, int ind) {
    bool map = e->kind == PCL_OBJECT;
    size_t n = map ? e->object.n : e->tuple.n;
    buf_puts(b, "Output.all(");
    for (size_t i = 0; i < n; i++) {
        const pcl_expr_t *item = map ? e->object.items[i].value : e->tuple.items[i];
        bool out = emit_has_output(j->base.p, j->base.index, item);
        buf_putc(b, '\n');
        buf_indent(b, ind + 4);
        if (!out) buf_puts(b, "Output.of(");
        java_expr(j, b, item, et, ind + 4);
        if (!out) buf_putc(b, ')');
        if (out && java_may_be_int_output(j, item, et)) buf_puts(b, JAVA_INT_OUTPUT_TO_DOUBLE);
        if (i + 1 < n) buf_putc(b, ',');
    }
    buf_putc(b, ')');
    if (!map) return;
    buf_printf(b, ".applyValue(_vs -> %s.ofEntries(", java_class(j, "java.util.Map"));
    for (size_t i = 0; i < n; i++) {
        buf_putc(b, '\n');
        buf_indent(b, ind + 8);
        buf_puts(b, "Map.entry(");
        names_append_quoted(b, LANG_JAVA, e->object.items[i].key);
        buf_printf(b, ", _vs.get(%zu))%s", i, i + 1 < n ? "," : "");
    }
    buf_putc(b, '\n');
    buf_indent(b, ind + 4);
    buf_puts(b, "))");
}

static void java_map(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, const schema_type_t *et, int ind) {
    java_ctx_t *j = (java_ctx_t *)x;
    if (e->object.n == 0) {
        buf_puts(b, "Map.of()");
        return;
    }
    java_class(j, "java.util.Map");
    buf_puts(b, "Map.ofEntries(");
    for (size_t i = 0; i < e->object.n; i++) {
        buf_putc(b, '\n');
        buf_indent(b, ind + 4);
        emit_typed_entry(&JAVA_VALUES, x, b, &e->object.items[i], et, ind + 4, "Map.entry(", ", ", ")");
        if (i + 1 < e->object.n) buf_putc(b, ',');
    }
    buf_putc(b, '\n');
    buf_indent(b, ind);
    buf_putc(b, ')');
}

/* A value inside toJSON() as pulumi-java writes it: an object `jsonObject(jsonProperty(key, value),
 * ...)`, a list `jsonArray(item, ...)` (the toJson helper's, JAVA_HELPERS; one item cast to Object, as
 * jsonArray(null) would pass no array and jsonArray(a List) take its items), any other value as it is. */
static void java_json_value(java_ctx_t *j, buf_t *b, const pcl_expr_t *e, int ind) {
    bool object = e->kind == PCL_OBJECT;
    size_t n = object ? e->object.n : e->kind == PCL_TUPLE ? e->tuple.n : 0;
    if (!object && e->kind != PCL_TUPLE) {
        java_expr(j, b, e, NULL, ind);
        return;
    }
    buf_puts(b, object ? "jsonObject(" : "jsonArray(");
    for (size_t i = 0; i < n; i++) {
        buf_putc(b, '\n');
        buf_indent(b, ind + 4);
        if (object) {
            buf_puts(b, "jsonProperty(");
            names_append_quoted(b, LANG_JAVA, e->object.items[i].key);
            buf_puts(b, ", ");
        } else if (n == 1) { /* the varargs overload: not jsonArray(List<Object>), nor a null array */
            buf_puts(b, "(Object) ");
        }
        java_json_value(j, b, object ? e->object.items[i].value : e->tuple.items[i], ind + 4);
        if (object) buf_putc(b, ')');
        if (i + 1 < n) buf_putc(b, ',');
    }
    if (n) {
        buf_putc(b, '\n');
        buf_indent(b, ind);
    }
    buf_putc(b, ')');
}

/* toJson (JAVA_HELPERS) of a value: a literal object's jsonObject, a literal list's jsonArray (on a
 * line of their own), any other value as it is. */
static void java_write_json(emit_typed_t *x, buf_t *b, const pcl_expr_t *value, int ind) {
    java_need(x, "=toJson");
    java_need(x, "=formatValue");
    buf_puts(b, "toJson(");
    if (value->kind == PCL_OBJECT || value->kind == PCL_TUPLE) {
        buf_putc(b, '\n');
        buf_indent(b, ind + 4);
    }
    java_json_value((java_ctx_t *)x, b, value, ind + 4);
    buf_putc(b, ')');
}

/* toJSON as pulumi-java writes it but by the toJson helper (an object literal's jsonObject), over one
 * Output in an apply of it (emit_check_program lets through plain values or one Output's); a local
 * holding a literal that reads the Output, by that literal (emit_java_json_arg). */
static void java_to_json(java_ctx_t *j, buf_t *b, const pcl_expr_t *e, int ind) {
    const pcl_expr_t *object = emit_java_json_arg(j->base.p, j->base.index, e->call.args[0]);
    if (!j->base.apply && emit_has_output(j->base.p, j->base.index, object))
        emit_typed_apply(&JAVA_VALUES, &j->base, b, object, ind, java_write_json);
    else
        java_write_json(&j->base, b, object, ind);
}

static bool java_asset_call(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, int ind) {
    java_ctx_t *j = (java_ctx_t *)x;
    if (strcmp(e->call.name, "toJSON") == 0 && e->call.n == 1) {
        java_to_json(j, b, e, ind);
        return true;
    }
    const char *cls = emit_asset_class(e->call.name);
    if (!cls) return false;
    buf_printf(b, "new %s(", java_class(j, arena_sprintf(j->base.a, "com.pulumi.asset.%s", cls)));
    if (e->call.n > 0) {
        if (e->call.args[0]->kind == PCL_OBJECT)
            java_map(x, b, e->call.args[0], NULL, ind);
        else
            java_expr(j, b, e->call.args[0], NULL, ind);
    }
    buf_putc(b, ')');
    return true;
}

static void java_enum_member(emit_typed_t *x, buf_t *b, const schema_type_t *t, const char *ename, const char *member) {
    (void)ename;
    buf_printf(b, "%s.%s", java_class_ref((java_ctx_t *)x, t->token, "enums", ""), member);
}

/* --- unions: pulumi-java's Either<L, R> (two Java types) and Object (more) ---------------------------- */

/* Whether the builder's setter of a union property takes either member as it is: pulumi-java's
 * genBuilderHelpers writes `prop(L)` and `prop(R)` beside `prop(Either<L, R>)`, but not for a plain
 * property, nor where L and R erase to one type (two Lists, two Maps). */
static bool java_union_setters(const schema_type_t *t, bool plain) {
    schema_kind_t kinds[2];
    size_t n = 0;
    for (size_t i = 0; !plain && i < t->n_members && n < 2; i++)
        if (java_union_side(t, t->members[i]) == (int)n) kinds[n++] = t->members[i]->kind;
    return n == 2 && !(kinds[0] == kinds[1] && (kinds[0] == SCHEMA_ARRAY || kinds[0] == SCHEMA_MAP));
}

/* A literal at a union of two Java types where no setter takes its member (an item of a list or map
 * of the union, a plain property): Either.ofLeft or Either.ofRight of the member it is; at a union of
 * more (an Object) the member as it is. False (the walk writes it) for a value of no member. */
static bool java_union_value(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, const schema_type_t *t, int ind) {
    java_ctx_t *j = (java_ctx_t *)x;
    const schema_type_t *m = java_union_member(t, e);
    size_t n = java_union_types(t);
    if (!m || n < 2) return false;
    if (n == 2)
        buf_printf(b, "%s.%s(", java_class(j, "com.pulumi.core.Either"),
                   java_union_side(t, m) == 1 ? "ofRight" : "ofLeft");
    java_expr(j, b, e, m, ind);
    if (n == 2) buf_putc(b, ')');
    return true;
}

/* A union property's value in its builder (emit_check_program lets through what java_union_lacks
 * does): a member's literal as that member where the setter takes it, else by java_union_value; a
 * resource's required output of a member's type (an Output<L>) made an Output<Either<L, R>> in an
 * apply; an output of a union of more types (an Output<Object>) as it is. */
static void java_union_setter(java_ctx_t *j, buf_t *b, const pcl_expr_t *v, const schema_type_t *t, bool plain,
                              int ind) {
    const schema_type_t *m = java_union_member(t, v);
    size_t n = java_union_types(t);
    if (m && (n > 2 || java_union_setters(t, plain))) {
        java_expr(j, b, v, m, ind);
        return;
    }
    if (m || n > 2 || v->kind != PCL_TRAVERSAL) {
        java_expr(j, b, v, t, ind);
        return;
    }
    const schema_type_t *rt = emit_read_type(j->base.p, j->base.index, v);
    java_expr(j, b, v, rt, ind);
    buf_printf(b, ".applyValue(%s::%s)", java_class(j, "com.pulumi.core.Either"),
               rt && java_union_side(t, rt) == 1 ? "ofRight" : "ofLeft");
}

/* A builder chain `<Type>Args.builder()` + `.prop(value)` lines at ind+4 + `.build()`. */
static void java_builder(java_ctx_t *j, buf_t *b, const char *cls, const pcl_attr_t *attrs, size_t n_attrs,
                         const pcl_object_item_t *items, size_t n_items, const schema_object_t *obj,
                         const schema_resource_t *res, int ind) {
    buf_printf(b, "%s.builder()", cls);
    size_t n = attrs ? n_attrs : n_items;
    for (size_t i = 0; i < n; i++) {
        const char *name = attrs ? attrs[i].name : items[i].key;
        const pcl_expr_t *v = attrs ? attrs[i].value : items[i].value;
        const schema_property_t *prop = attrs ? attrs[i].prop : items[i].prop;
        if (!prop && res) prop = schema_find_property(res->inputs, res->n_inputs, name);
        if (!prop && obj) prop = schema_find_property(obj->props, obj->n_props, name);
        const schema_type_t *t = prop ? prop->type : v->type;
        buf_putc(b, '\n');
        buf_indent(b, ind + 4);
        buf_printf(b, ".%s(", java_member_name(j, name));
        if (t && t->kind == SCHEMA_UNION && java_union_types(t) > 1) {
            java_union_setter(j, b, v, t, prop && prop->plain, ind + 4);
            buf_putc(b, ')');
            continue;
        }
        if (t && t->kind == SCHEMA_UNION) t = emit_union_pick(t, v, false);
        if (t && java_needs_output_all(j->base.p, j->base.index, v, t)) {
            java_output_all(j, b, v, t->element, ind + 4);
            buf_putc(b, ')');
            continue;
        }
        /* list properties take varargs: one element inline, more one per line */
        if (v->kind == PCL_TUPLE && (!t || t->kind == SCHEMA_ARRAY) && !java_null_item(j, v)) {
            const schema_type_t *et = t ? t->element : NULL;
            if (v->tuple.n == 1) {
                java_expr(j, b, v->tuple.items[0], et, ind + 4);
                buf_putc(b, ')');
            } else if (v->tuple.n == 0) {
                buf_putc(b, ')');
            } else {
                java_args_multiline(j, b, (const pcl_expr_t *const *)v->tuple.items, v->tuple.n, et, ind + 4);
            }
            continue;
        }
        java_expr(j, b, v, t, ind + 4);
        /* an Output<Integer> where the builder wants an Output<Double> */
        if (emit_has_output(j->base.p, j->base.index, v) && java_may_be_int_output(j, v, t))
            buf_puts(b, JAVA_INT_OUTPUT_TO_DOUBLE);
        buf_putc(b, ')');
    }
    buf_putc(b, '\n');
    buf_indent(b, ind + 4);
    buf_puts(b, ".build()");
}

/* A string literal. A class file holds a constant string of at most 65535 bytes (modified UTF-8, up to
 * 1.5 times the UTF-8 length): a longer one (javac: "constant string too long") is joined at run time
 * from pieces, `String.join("", "...", "...")` (a `+` of literals would be folded back into one
 * constant). */
enum { JAVA_STRING_PIECE = 20000 };
static void java_string(buf_t *b, const char *s) {
    size_t len = strlen(s);
    if (len <= JAVA_STRING_PIECE) {
        names_append_quoted(b, LANG_JAVA, s);
        return;
    }
    buf_puts(b, "String.join(\"\"");
    for (size_t i = 0; i < len;) {
        size_t n = len - i < JAVA_STRING_PIECE ? len - i : JAVA_STRING_PIECE;
        while (i + n < len && n > 1 && ((unsigned char)s[i + n] & 0xC0) == 0x80) /* not inside a character */
            n--;
        char *piece = malloc(n + 1);
        if (!piece) abort();
        memcpy(piece, s + i, n);
        piece[n] = 0;
        buf_puts(b, ", ");
        names_append_quoted(b, LANG_JAVA, piece);
        free(piece);
        i += n;
    }
    buf_putc(b, ')');
}

/* An invoke's options as pulumi-java's generator writes them: `InvokeOptions.builder()` and its
 * provider, parent, version and pluginDownloadURL; with dependsOn (a list: emit_check_program) the
 * output form's `(new InvokeOutputOptions.Builder())`, whose dependsOn takes the resources as varargs. */
static void java_invoke_options(java_ctx_t *j, buf_t *b, const pcl_expr_t *o, int ind) {
    bool depends = false;
    for (size_t i = 0; i < o->object.n; i++)
        depends |= strcmp(o->object.items[i].key, "dependsOn") == 0;
    const char *cls =
        java_class(j, depends ? "com.pulumi.deployment.InvokeOutputOptions" : "com.pulumi.deployment.InvokeOptions");
    buf_printf(b, depends ? ", (new %s.Builder())" : ", %s.builder()", cls);
    for (size_t i = 0; i < o->object.n; i++) {
        const char *key = o->object.items[i].key;
        const pcl_expr_t *v = o->object.items[i].value;
        buf_putc(b, '\n');
        buf_indent(b, ind + 4);
        buf_printf(b, ".%s(", strcmp(key, "pluginDownloadUrl") == 0 ? "pluginDownloadURL" : key);
        for (size_t k = 0; v->kind == PCL_TUPLE && k < v->tuple.n; k++) {
            if (k) buf_puts(b, ", ");
            java_expr(j, b, v->tuple.items[k], NULL, ind + 4);
        }
        if (v->kind != PCL_TUPLE) java_expr(j, b, v, NULL, ind + 4);
        buf_putc(b, ')');
    }
    buf_putc(b, '\n');
    buf_indent(b, ind + 4);
    buf_puts(b, ".build()");
}

/* `<Pkg>Functions.fn(FnArgs.builder()...build())` (multi-argument inputs given positionally too) and
 * the attributes and literal indexes read from its result in
 * `.applyValue(invoke -> invoke.result())`, as Pulumi's Java generator writes them;
 * emit_check_program lets through only arguments of no nested object type and known options. */
static void java_invoke(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, int ind) {
    java_ctx_t *j = (java_ctx_t *)x;
    const pcl_expr_t *chain[64];
    size_t n = 0;
    for (; (e->kind == PCL_GETATTR || e->kind == PCL_INDEX) && n < 64; e = e->x)
        chain[n++] = e;
    const schema_function_t *f = e->function;
    const char *pkg = java_package(j, e->package, f->token);
    const char *last = strrchr(pkg, '.');
    const char *fns = java_class(j, arena_sprintf(j->base.a, "%s.%sFunctions", pkg, names_title(j->base.a, last + 1)));
    const char *member = java_token_member(j, f->token);
    buf_printf(b, "%s.%s(", fns, java_member_name(j, names_camel(j->base.a, member)));
    const pcl_expr_t *a = e->call.n >= 2 ? e->call.args[1] : NULL;
    const char *args = java_class(j, arena_sprintf(j->base.a, "%s.inputs.%sArgs", pkg, member));
    if (a && a->kind != PCL_OBJECT) {
        /* multi-argument inputs given positionally: pulumi-java's SDK functions take one Args object
         * all the same (its codegen has no positional overload), built of the arguments given */
        size_t n_given = e->call.n - 1 < f->n_multi_args ? e->call.n - 1 : f->n_multi_args, n_items = 0;
        pcl_object_item_t *items = arena_alloc(j->base.a, (n_given + 1) * sizeof *items);
        for (size_t i = 0; i < n_given; i++) /* a null argument is one left unset */
            if (e->call.args[i + 1]->kind != PCL_NULL)
                items[n_items++] = (pcl_object_item_t){f->multi_args[i], false, e->call.args[i + 1],
                                                       schema_find_property(f->inputs, f->n_inputs, f->multi_args[i])};
        java_builder(j, b, args, NULL, 0, items, n_items, NULL, NULL, ind);
    } else {
        bool has_args = a && a->kind == PCL_OBJECT;
        java_builder(j, b, args, NULL, 0, has_args ? a->object.items : NULL, has_args ? a->object.n : 0, NULL, NULL,
                     ind);
        if (e->call.n >= 3) java_invoke_options(j, b, e->call.args[2], ind + 4);
    }
    buf_putc(b, ')');
    if (!n) return;
    /* the result's type, an output type's (java_read_step): an optional read gives the value or null */
    buf_puts(b, ".applyValue(invoke -> invoke");
    const schema_type_t *t = f->return_type;
    bool optional = false;
    while (n > 0) {
        const pcl_expr_t *p = chain[--n];
        const char *key = p->kind == PCL_GETATTR ? p->s : p->y->kind == PCL_STRING ? p->y->s : NULL;
        buf_t text;
        buf_init(&text);
        if (p->kind == PCL_INDEX)
            java_expr(j, &text, p->y, NULL, ind);
        else if (t && t->kind == SCHEMA_MAP)
            names_append_quoted(&text, LANG_JAVA, p->s); /* a map's key */
        java_read_step(x, b, &t, &optional, key, text.len ? text.data : NULL);
        buf_free(&text);
    }
    buf_puts(b, optional ? ".orElse(null))" : ")");
}

/* `List.of(...)`: the items a line. */
static void java_list(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, const schema_type_t *et, int ind) {
    java_ctx_t *j = (java_ctx_t *)x;
    if (e->tuple.n == 1 && e->tuple.items[0]->kind == PCL_NULL) { /* Arrays.asList(null): a null array, throws */
        if (!et || et->kind == SCHEMA_ANY)                        /* as pulumi-java writes l1-output-null */
            buf_printf(b, "%s.asList((Object) null)", java_class(j, "java.util.Arrays"));
        else /* a List of the setter's type */
            buf_printf(b, "%s.singletonList(null)", java_class(j, "java.util.Collections"));
        return;
    }
    if (java_null_item(j, e)) /* List.of throws on a null item; Arrays.asList keeps it */
        buf_printf(b, "%s.asList(", java_class(j, "java.util.Arrays"));
    else
        buf_printf(b, "%s.of(", java_class(j, "java.util.List"));
    if (e->tuple.n == 0)
        buf_putc(b, ')');
    else
        java_args_multiline(j, b, (const pcl_expr_t *const *)e->tuple.items, e->tuple.n, et, ind);
}

/* The input type's builder. */
static void java_object(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, const schema_type_t *t, int ind) {
    java_ctx_t *j = (java_ctx_t *)x;
    java_builder(j, b, java_class_ref(j, t->token, "inputs", "Args"), NULL, 0, e->object.items, e->object.n, t->object,
                 NULL, ind);
}

static const char *java_need(emit_typed_t *x, const char *fqcn) {
    java_ctx_t *j = (java_ctx_t *)x;
    if (fqcn[0] == '=') { /* a helper method */
        for (size_t i = 0; i < JAVA_N_HELPERS; i++)
            if (strcmp(JAVA_HELPERS[i].name, fqcn + 1) == 0) j->helpers[i] = true;
        return fqcn + 1;
    }
    return java_class(j, fqcn);
}

/* A for expression over a plain list or map in streams: a condition `.filter` first, a list result
 * `.map(...).collect(Collectors.toList())`, an object `.collect(Collectors.toMap(key, value))`; a
 * map's entries sorted by key (PCL iterates a map by its sorted keys), read as getKey()/getValue() of
 * the lambdas' one parameter, named after the key variable; a list's index through
 * `IntStream.range(0, list.size())`, the value `list.get(i)` (emit_check_program: a list the program
 * names, no condition, into a list). */
static void java_for(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, int ind) {
    java_ctx_t *j = (java_ctx_t *)x;
    bool map = emit_expr_shape(x->p, x->index, e->x) != EMIT_SHAPE_LIST;
    const char *v = names_make_valid_identifier(x->a, LANG_JAVA, e->vvar);
    const char *k = e->kvar ? names_make_valid_identifier(x->a, LANG_JAVA, e->kvar) : NULL;
    const char *param = map && k ? k : v;
    const char *collectors = java_class(j, "java.util.stream.Collectors");
    size_t saved = x->n_scope;
    if (!map && k) { /* IntStream.range(0, names.size()).mapToObj(i -> ...names.get(i)...) */
        buf_t coll;
        buf_init(&coll);
        java_expr(j, &coll, e->x, NULL, ind);
        char *list = buf_arena_str(&coll, x->a);
        buf_free(&coll);
        buf_printf(b, "%s.range(0, %s.size()).mapToObj(%s -> ", java_class(j, "java.util.stream.IntStream"), list, k);
        emit_typed_scope_push(x, e->kvar, k);
        emit_typed_scope_push(x, e->vvar, arena_sprintf(x->a, "%s.get(%s)", list, k));
        emit_typed_scope_entries(x, e);
        java_expr(j, b, e->z, NULL, ind);
        buf_printf(b, ").collect(%s.toList())", collectors);
        x->n_scope = saved;
        return;
    }
    bool paren = e->x->kind != PCL_TRAVERSAL && e->x->kind != PCL_CALL;
    if (paren) buf_putc(b, '(');
    java_expr(j, b, e->x, NULL, ind);
    if (paren) buf_putc(b, ')');
    /* ints a config map or nested list holds: Doubles, as Gson decodes them (JAVA_VALUES config_raw_int) */
    const char *item = emit_config_raw_int_items(x, e->x, map) ? "((Number) %s).intValue()" : "%s";
    if (map) {
        buf_puts(b, ".entrySet().stream().sorted(Map.Entry.comparingByKey(" JAVA_KEY_ORDER "))");
        if (k) emit_typed_scope_push(x, e->kvar, arena_sprintf(x->a, "%s.getKey()", param));
        emit_typed_scope_push(x, e->vvar, arena_sprintf(x->a, item, arena_sprintf(x->a, "%s.getValue()", param)));
        emit_typed_scope_entries(x, e);
    } else {
        buf_puts(b, ".stream()");
        emit_typed_scope_push(x, e->vvar, arena_sprintf(x->a, item, v));
        emit_typed_scope_entries(x, e);
    }
    const emit_for_syntax_t streams = {".filter(%s -> ", arena_sprintf(x->a, ".collect(%s.toMap(%%s -> ", collectors),
                                       ", %s -> ",       "))",
                                       ".map(%s -> ",    arena_sprintf(x->a, ").collect(%s.toList())", collectors)};
    emit_typed_for_body(&JAVA_VALUES, x, b, e, ind, param, &streams);
    x->n_scope = saved;
}

/* entries() or lookup() of an object of the schema's type t (emit_check_program lets through what
 * keyed_object_lacks does: every field required, or a literal key), written from the type's fields in
 * an apply of the object, as the C# emitter writes them; pulumi-java's output class has a getter per
 * field (a required one's gives the value):
 *   r.pair().applyValue(_v -> List.of(Map.of("key", "a", "value", _v.a()), ...))  entries, in key order
 *   r.pair().applyValue(_v -> _v.a())                                              lookup of a field
 *   r.pair().applyValue(_v -> "d")                                                 of a key it lacks */
static void java_keyed_object(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, const schema_type_t *t, int ind) {
    java_ctx_t *j = (java_ctx_t *)x;
    buf_t r;
    buf_init(&r);
    /* _v: a names_builtins name, no local's */
    bool apply = emit_typed_keyed_receiver(&JAVA_VALUES, x, b, &r, e->call.args[0], ".applyValue(_v -> ", "_v", ind);
    const schema_object_t *o = t->object;
    if (strcmp(e->call.name, "lookup") == 0) {
        const pcl_expr_t *k = e->call.args[1];
        const schema_property_t *p = k->kind == PCL_STRING ? schema_find_property(o->props, o->n_props, k->s) : NULL;
        if (p)
            buf_printf(b, "%s.%s()", r.data, java_member_name(j, p->name));
        else
            java_expr(j, b, e->call.args[2], NULL, ind);
    } else {
        const char **keys = emit_object_keys_sorted(x->a, o);
        const char *map = java_class(j, "java.util.Map");
        buf_printf(b, "%s.of(", java_class(j, "java.util.List"));
        for (size_t i = 0; i < o->n_props; i++) {
            buf_printf(b, "%s%s.of(\"key\", ", i ? ", " : "", map);
            java_string(b, keys[i]);
            buf_printf(b, ", \"value\", %s.%s())", r.data, java_member_name(j, keys[i]));
        }
        buf_putc(b, ')');
    }
    if (apply) buf_putc(b, ')');
    buf_free(&r);
}

/* can(x) and try(x, y, ...) by the helpers: each argument a lambda (a Supplier) the helper calls,
 * catching what it throws, its reads strict (emit_typed_t.strict: a map's missing key throws); try_'s
 * type the one scalar type it gives (emit_typed_try_kind: `App.<String>try_(...)`, the arguments
 * written as values of it), else what Java infers from the lambdas. */
static void java_can_try_plain(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, int ind) {
    static const char *const names[] = {[EMIT_PRINT_STRING] = "String",
                                        [EMIT_PRINT_BOOL] = "Boolean",
                                        [EMIT_PRINT_INT] = "Integer",
                                        [EMIT_PRINT_NUMBER] = "Double"};
    static const schema_type_t types[] = {[EMIT_PRINT_STRING] = {.kind = SCHEMA_STRING},
                                          [EMIT_PRINT_BOOL] = {.kind = SCHEMA_BOOL},
                                          [EMIT_PRINT_INT] = {.kind = SCHEMA_INT},
                                          [EMIT_PRINT_NUMBER] = {.kind = SCHEMA_NUMBER}};
    bool can = strcmp(e->call.name, "can") == 0;
    emit_print_t k = can ? EMIT_PRINT_UNKNOWN : emit_typed_try_kind(x, e);
    java_need(x, "=keyIs");
    if (can)
        buf_printf(b, "%s(", java_need(x, "=can"));
    else if (k != EMIT_PRINT_UNKNOWN)
        buf_printf(b, "App.<%s>%s(", names[k], java_need(x, "=try_"));
    else
        buf_printf(b, "%s(", java_need(x, "=try_"));
    bool strict = x->strict;
    x->strict = true;
    for (size_t i = 0; i < e->call.n; i++) {
        /* an int where a Double is given: widened (a Supplier<Double> takes no int) */
        bool widen = k == EMIT_PRINT_NUMBER && emit_typed_print_kind(x, e->call.args[i]) == EMIT_PRINT_INT;
        buf_puts(b, i ? ", () -> " : "() -> ");
        buf_puts(b, widen ? "(double) (" : "");
        java_expr((java_ctx_t *)x, b, e->call.args[i], k != EMIT_PRINT_UNKNOWN ? &types[k] : NULL, ind);
        buf_puts(b, widen ? ")" : "");
    }
    x->strict = strict;
    buf_putc(b, ')');
}

/* A plain call made an Output by ofNullable: try() gives null where its argument does (Output.of
 * throws for null). */
static bool java_can_try(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, int ind) {
    return emit_typed_can_try(&JAVA_VALUES, x, b, e, ind, java_can_try_plain, "Output.ofNullable(");
}

/* The built-in functions as pulumi-java's program generator writes them. */
static const emit_typed_call_t JAVA_CALLS[] = {
    {"cwd", "System.getProperty(\"user.dir\")", {NULL}, EMIT_SHAPE_UNKNOWN},
    {"stack", "$n.getInstance().getStackName()", {"com.pulumi.deployment.Deployment"}, EMIT_SHAPE_UNKNOWN},
    {"project", "$n.getInstance().getProjectName()", {"com.pulumi.deployment.Deployment"}, EMIT_SHAPE_UNKNOWN},
    {"organization",
     "$n.getInstance().getOrganizationName()",
     {"com.pulumi.deployment.Deployment"},
     EMIT_SHAPE_UNKNOWN},
    {"unsecret", "$r0.asPlaintext()", {NULL}, EMIT_SHAPE_UNKNOWN},
    {"readFile", "readFile($0)", {"=readFile"}, EMIT_SHAPE_UNKNOWN},
    {"toBase64",
     "$n.getEncoder().encodeToString($r0.getBytes($m.UTF_8))",
     {"java.util.Base64", "java.nio.charset.StandardCharsets"},
     EMIT_SHAPE_UNKNOWN},
    {"fromBase64",
     "new String($n.getDecoder().decode($0), $m.UTF_8)",
     {"java.util.Base64", "java.nio.charset.StandardCharsets"},
     EMIT_SHAPE_UNKNOWN},
    {"join", "String.join($0, $1)", {NULL}, EMIT_SHAPE_UNKNOWN},
    /* String.split takes a regular expression: emit_check_program lets through a literal
     * separator without its special characters only */
    {"split", "$n.asList($r1.split($0, -1))", {"java.util.Arrays"}, EMIT_SHAPE_UNKNOWN},
    {"element", "element($0, $1)", {"=element"}, EMIT_SHAPE_LIST},
    {"length", "graphemeLength($0)", {"=graphemeLength"}, EMIT_SHAPE_STRING},
    {"length", "$r0.size()", {NULL}, EMIT_SHAPE_LIST},
    {"length", "$r0.size()", {NULL}, EMIT_SHAPE_MAP},
    {"filebase64", "readFileBase64($0)", {"=readFileBase64"}, EMIT_SHAPE_UNKNOWN},
    {"sha1", "computeSHA1($0)", {"=computeSHA1"}, EMIT_SHAPE_UNKNOWN},
    {"getOutput", "$r0.output($1)", {NULL}, EMIT_SHAPE_UNKNOWN},
    {"filebase64sha256", "computeFileBase64Sha256($0)", {"=computeFileBase64Sha256"}, EMIT_SHAPE_UNKNOWN},
    {"singleOrNone", "singleOrNone($0)", {"=singleOrNone"}, EMIT_SHAPE_LIST},
    /* a map's entries by key, each a map of key and value (TypeScript: Object.entries(m).sort()...) */
    {"entries",
     "$r0.entrySet().stream().sorted($n.Entry.comparingByKey(" JAVA_KEY_ORDER
     ")).map(_kv -> $n.of(\"key\", _kv.getKey(), \"value\", "
     "_kv.getValue())).collect($m.toList())",
     {"java.util.Map", "java.util.stream.Collectors"},
     EMIT_SHAPE_MAP},
    /* a value of no type's (Gson's Object: emit_check_program), as a map */
    {"entries",
     "(($n<String, Object>) $0).entrySet().stream().sorted($n.Entry.comparingByKey(" JAVA_KEY_ORDER
     ")).map(_kv -> $n.of(\"key\", "
     "_kv.getKey(), \"value\", _kv.getValue())).collect($m.toList())",
     {"java.util.Map", "java.util.stream.Collectors"},
     EMIT_SHAPE_UNKNOWN},
    {"lookup", "$r0.getOrDefault($1, $2)", {NULL}, EMIT_SHAPE_MAP},
    /* emit_check_program: two numbers, or one list expanded (`max(xs...)`) */
    {"max", "Math.max($0, $1)", {NULL}, EMIT_SHAPE_NUMBER},
    {"min", "Math.min($0, $1)", {NULL}, EMIT_SHAPE_NUMBER},
    {"max", "$n.max($0)", {"java.util.Collections"}, EMIT_SHAPE_LIST},
    {"min", "$n.min($0)", {"java.util.Collections"}, EMIT_SHAPE_LIST},
    {"pulumiResourceName", "$r0.pulumiResourceName()", {NULL}, EMIT_SHAPE_UNKNOWN},
    {"pulumiResourceType", "$r0.pulumiResourceType()", {NULL}, EMIT_SHAPE_UNKNOWN},
};

/* Over an output, in an apply of it. */
static const emit_typed_call_t JAVA_CALLS_OUTPUT[] = {
    {"toBase64",
     "$r0.applyValue(_v -> $n.getEncoder().encodeToString(_v.getBytes($m.UTF_8)))",
     {"java.util.Base64", "java.nio.charset.StandardCharsets"},
     EMIT_SHAPE_UNKNOWN},
    /* a resource's output map (emit_check_program) */
    {"entries",
     "$r0.applyValue(_v -> _v.entrySet().stream().sorted($n.Entry.comparingByKey(" JAVA_KEY_ORDER
     ")).map(_kv -> $n.of(\"key\", "
     "_kv.getKey(), \"value\", _kv.getValue())).collect($m.toList()))",
     {"java.util.Map", "java.util.stream.Collectors"},
     EMIT_SHAPE_UNKNOWN},
    {"lookup", "$r0.applyValue(_v -> _v.getOrDefault($1, $2))", {NULL}, EMIT_SHAPE_UNKNOWN},
};

/* A config value converted to the scalar type the schema wants, as PCL converts it: "true" alone is
 * true, an int's text is its digits; a number's is formatValue's (config_number_text: 3, not
 * Double.toString's 3.0; 1e+21, not toPlainString's 1000000000000000000000). */
static const char *const JAVA_CONFIG_CONV[EMIT_CONV_UNSUPPORTED] = {
    [EMIT_CONV_STRING_TO_BOOL] = "%s.equals(\"true\")",
    [EMIT_CONV_STRING_TO_INT] = "Integer.parseInt(%s)",
    [EMIT_CONV_STRING_TO_NUMBER] = "Double.parseDouble(%s)",
    [EMIT_CONV_NUMBER_TO_STRING] = "java.math.BigDecimal.valueOf(%s).stripTrailingZeros().toPlainString()",
    [EMIT_CONV_BOOL_TO_STRING] = "String.valueOf(%s)",
    /* a cast, not .doubleValue(): requireInteger gives a primitive int, getInteger an Integer */
    [EMIT_CONV_INT_TO_NUMBER] = "(double) %s",
};

static const emit_typed_syntax_t JAVA_VALUES = {
    .lang = LANG_JAVA,
    .secret = "Output.ofSecret",
    .secret_output = ".asSecret()", /* Output.ofSecret(output) would be an Output of an Output */
    /* an int that overflows throws ArithmeticException */
    .int_exact = {"Math.addExact", "Math.subtractExact", "Math.multiplyExact", "Math.negateExact"},
    .string = java_string,
    .enum_member = java_enum_member,
    .traversal = java_traversal,
    .asset_call = java_asset_call,
    .own_call = java_can_try,
    .interpolation = java_template,
    .invoke = java_invoke,
    .list = java_list,
    .object = java_object,
    .map = java_map,
    .union_value = java_union_value,
    .keyed_object = java_keyed_object,
    .untyped_read = java_untyped_read,
    .untyped_number = "((Number) %s).doubleValue()",
    .config_raw_int = "((Number) %s).intValue()", /* Gson: a raw Map's or List's numbers are Doubles */
    .config_raw_number = "((Number) %s).doubleValue()",
    .apply_open = ".applyValue(%s -> ",
    .param_prefix = "_", /* a lambda's parameter may not shadow a local variable */
    .value_parts = &JAVA_VALUE_PARTS,
    .strict_value_parts = &JAVA_STRICT_VALUE_PARTS,
    .calls = JAVA_CALLS,
    .n_calls = sizeof JAVA_CALLS / sizeof JAVA_CALLS[0],
    .need = java_need,
    .for_expr = java_for,
    .equals_class = "java.util.Objects",
    .config_conv = JAVA_CONFIG_CONV,
    .config_number_text = "=formatValue", /* 1e21, not 1E+21 / 1000000000000000000000 */
    .calls_output = JAVA_CALLS_OUTPUT,
    .n_calls_output = sizeof JAVA_CALLS_OUTPUT / sizeof JAVA_CALLS_OUTPUT[0],
    .read_below = java_read_below,
};

/* A value at a position of schema type `t`, written on a line indented `ind` spaces. */
static void java_expr(java_ctx_t *j, buf_t *b, const pcl_expr_t *e, const schema_type_t *t, int ind) {
    emit_typed_expr(&JAVA_VALUES, &j->base, b, e, t, ind);
}

/* --- options -------------------------------------------------------------------------------------- */

/* pulumi-java's option order. */
static const char *const JAVA_OPTION_NAMES[] = {"provider",
                                                "providers",
                                                "protect",
                                                "retainOnDelete",
                                                "parent",
                                                "aliases",
                                                "dependsOn",
                                                "deletedWith",
                                                "replaceWith",
                                                "ignoreChanges",
                                                "customTimeouts",
                                                "hideDiffs",
                                                "import",
                                                "replaceOnChanges",
                                                "deleteBeforeReplace",
                                                "replacementTrigger",
                                                "additionalSecretOutputs",
                                                "version",
                                                "pluginDownloadURL"};
static const emit_option_order_t JAVA_OPTIONS = {JAVA_OPTION_NAMES,
                                                 sizeof JAVA_OPTION_NAMES / sizeof JAVA_OPTION_NAMES[0]};

/* Aliases as pulumi-java's SDK takes them: `Alias.withUrn("urn")`, `Alias.noParent()` (a static
 * method: its builder has none; emit_check_program refuses noParent beside other fields), or an
 * alias's builder. */
static void java_aliases(java_ctx_t *j, buf_t *b, const pcl_expr_t *v, int ind) {
    const char *alias = java_class(j, "com.pulumi.core.Alias");
    for (size_t k = 0; k < v->tuple.n; k++) {
        const pcl_expr_t *it = v->tuple.items[k];
        if (k) buf_puts(b, ", ");
        if (it->kind == PCL_STRING) {
            buf_printf(b, "%s.withUrn(", alias);
            java_string(b, it->s);
            buf_putc(b, ')');
            continue;
        }
        bool no_parent = false;
        for (size_t f = 0; f < it->object.n; f++)
            no_parent |= strcmp(it->object.items[f].key, "noParent") == 0 && it->object.items[f].value->b;
        if (no_parent) {
            buf_printf(b, "%s.noParent()", alias);
            continue;
        }
        buf_printf(b, "%s.builder()", alias);
        for (size_t f = 0; f < it->object.n; f++) {
            const pcl_object_item_t *field = &it->object.items[f];
            if (strcmp(field->key, "noParent") == 0) continue; /* false */
            buf_printf(b, ".%s(", field->key);
            java_expr(j, b, field->value, NULL, ind);
            buf_putc(b, ')');
        }
        buf_puts(b, ".build()");
    }
}

static void java_options(java_ctx_t *j, buf_t *b, const pcl_node_t *n, int ind) {
    const pcl_attr_t **sorted = emit_sorted_options(j->base.a, n, &JAVA_OPTIONS);
    const char *cls = n->kind == PCL_NODE_COMPONENT || (n->schema && n->schema->is_component)
                          ? "com.pulumi.resources.ComponentResourceOptions"
                          : "com.pulumi.resources.CustomResourceOptions";
    buf_printf(b, "%s.builder()", java_class(j, cls));
    for (size_t i = 0; i < n->n_options; i++) {
        const pcl_attr_t *o = sorted[i];
        const pcl_expr_t *v = o->value;
        if (!emit_option_written(&JAVA_OPTIONS, o->name)) {
            if (j->base.report)
                diag_add(
                    j->base.diags, DIAG_WARNING, DIAG_CODEGEN, NULL, NULL,
                    "resource '%s': the resource option '%s' is not supported by the Java emitter and was left out",
                    n->name, o->name);
            continue;
        }
        buf_putc(b, '\n');
        buf_indent(b, ind + 4);
        bool import = strcmp(o->name, "import") == 0;
        buf_printf(b, ".%s(", import ? "importId" : o->name);
        if (strcmp(o->name, "aliases") == 0) { /* emit_check_program: URNs and alias objects */
            java_aliases(j, b, v, ind + 4);
            buf_putc(b, ')');
            continue;
        }
        if (pcl_option_kind(o->name) == PCL_OPT_TIMEOUTS) { /* emit_check_program: create, update, delete */
            const char *timeouts = java_class(j, "com.pulumi.resources.CustomTimeouts");
            buf_printf(b, "%s.builder()", timeouts);
            for (size_t k = 0; k < v->object.n; k++) {
                buf_putc(b, '\n');
                buf_indent(b, ind + 8);
                buf_printf(b, ".%s(%s.parseTimeoutString(", v->object.items[k].key, timeouts);
                java_expr(j, b, v->object.items[k].value, NULL, ind + 8);
                buf_puts(b, "))");
            }
            buf_putc(b, '\n');
            buf_indent(b, ind + 4);
            buf_puts(b, ".build())");
            continue;
        }
        bool providers = strcmp(o->name, "providers") == 0;
        if (v->kind == PCL_TUPLE || (providers && v->kind == PCL_OBJECT)) { /* varargs; a map's values */
            bool paths = pcl_option_kind(o->name) == PCL_OPT_PATHS;
            size_t n_items = v->kind == PCL_TUPLE ? v->tuple.n : v->object.n;
            for (size_t k = 0; k < n_items; k++) {
                const pcl_expr_t *item = v->kind == PCL_TUPLE ? v->tuple.items[k] : v->object.items[k].value;
                if (k) buf_puts(b, ", ");
                if (paths)
                    emit_path_literal(b, LANG_JAVA, item);
                else
                    java_expr(j, b, item, NULL, ind + 4);
            }
        } else if (strcmp(o->name, "replacementTrigger") == 0 && !emit_has_output(j->base.p, j->base.index, v)) {
            buf_puts(b, "Output.of("); /* the builder takes an Output */
            java_expr(j, b, v, NULL, ind + 4);
            buf_putc(b, ')');
        } else {
            java_expr(j, b, v, NULL, ind + 4);
        }
        buf_putc(b, ')');
    }
    buf_putc(b, '\n');
    buf_indent(b, ind + 4);
    buf_puts(b, ".build()");
}

/* --- program ---------------------------------------------------------------------------------------- */

static const emit_cfg_names_t JAVA_CFG = {
    .getter = {{"require", "requireInteger", "requireDouble", "requireBoolean"},
               {"requireSecret", "requireSecretInteger", "requireSecretDouble", "requireSecretBoolean"}},
    .scalar = {"String", "Integer", "Double", "Boolean"},
    .any = "Object",
    .get = {"get", "getInteger", "getDouble", "getBoolean"},
    .or_open = ".orElse(",
    .or_close = ")",
    .or_output_open = ".map(Output::of).orElse(",
    /* Config.getObject(key, Class) gives an Optional of the array Gson decodes */
    .get_object = "getObject",
    .get_object_tail = ", %s[].class).map(%s::asList",
    .get_object_need = "java.util.Arrays",
    .or_null = ".orElse(null)",
};

/* The Java type of a list, map or any config value: List<String>, Map<String, Integer>, Object
 * (List and Map as this file names them). */
static const char *java_cfg_type(java_ctx_t *j, const emit_cfg_type_t *t) {
    emit_cfg_names_t names = JAVA_CFG;
    names.list = arena_sprintf(j->base.a, "%s<%%s>", java_class(j, "java.util.List"));
    names.map = arena_sprintf(j->base.a, "%s<String, %%s>", java_class(j, "java.util.Map"));
    return emit_config_type_name(j->base.a, t, &names);
}

/* A list, map or any config value, read with Config's requireObject/requireSecretObject(key, Class)
 * (Gson), as the type the builders take: a list of scalars through an array class (Gson then makes
 * each element its own type), other lists and maps through their raw class, cast to their type:
 *   ctx.config().requireSecretObject("tags", String[].class).applyValue(Arrays::asList)
 *   ctx.config().requireSecretObject("labels", Map.class).applyValue(v -> (Map<String, String>) v) */
static void java_config_object(java_ctx_t *j, buf_t *b, const pcl_node_t *n, const emit_cfg_type_t *t, bool get) {
    bool s = n->config_secret && !get;
    const char *getter = get ? "getObject" : s ? "requireSecretObject" : "requireObject";
    const char *key = n->config_key ? n->config_key : n->name;
    bool array = t->kind == EMIT_CFG_LIST && (emit_config_scalar(t->elem) || t->elem->kind == EMIT_CFG_ANY);
    const char *cls = t->kind == EMIT_CFG_ANY    ? "Object"
                      : array                    ? arena_sprintf(j->base.a, "%s[]", java_cfg_type(j, t->elem))
                      : t->kind == EMIT_CFG_LIST ? java_class(j, "java.util.List")
                                                 : java_class(j, "java.util.Map");
    const char *type = java_cfg_type(j, t);
    if (!s && t->kind != EMIT_CFG_ANY && !(get && array))
        buf_puts(b, array ? arena_sprintf(j->base.a, "%s.asList(", java_class(j, "java.util.Arrays"))
                          : arena_sprintf(j->base.a, "(%s) ", type));
    buf_printf(b, "ctx.config().%s(", getter);
    names_append_quoted(b, LANG_JAVA, key);
    buf_printf(b, ", %s.class)", cls);
    if (get && array) /* an Optional of the array, as a List */
        buf_printf(b, ".map(%s::asList)", java_class(j, "java.util.Arrays"));
    else if (!s && array)
        buf_putc(b, ')');
    if (s && t->kind != EMIT_CFG_ANY) {
        if (array)
            buf_printf(b, ".applyValue(%s::asList)", java_class(j, "java.util.Arrays"));
        else
            buf_printf(b, ".applyValue(v -> (%s) v)", type);
    }
}

/* A list, map or any config value's statement. */
static void java_config_statement(emit_typed_t *x, buf_t *b, size_t i) {
    java_ctx_t *j = (java_ctx_t *)x;
    const pcl_node_t *n = &j->base.p->nodes[i];
    buf_indent(b, 8);
    buf_printf(b, "final var %s = ", j->base.var[i]);
    java_config_object(j, b, n, emit_config_type(j->base.a, n->token), false);
    buf_puts(b, ";\n\n");
}

/* A list, map or any config value read with getObject, an Optional (its default after it). */
static void java_config_get_object(emit_typed_t *x, buf_t *b, size_t i) {
    java_ctx_t *j = (java_ctx_t *)x;
    const pcl_node_t *n = &j->base.p->nodes[i];
    java_config_object(j, b, n, emit_config_type(j->base.a, n->token), true);
}

static const char *java_class_of(emit_typed_t *x, const pcl_node_t *n) {
    java_ctx_t *j = (java_ctx_t *)x;
    if (n->kind == PCL_NODE_COMPONENT) return java_class(j, "com.pulumi.resources.ComponentResource");
    if (emit_is_builtin(n, "pulumi:index:Stash")) return java_class(j, "com.pulumi.resources.Stash");
    if (emit_is_builtin(n, "pulumi:pulumi:StackReference")) return java_class(j, "com.pulumi.resources.StackReference");
    return java_class_ref(j, n->token, "", "");
}

/* The inputs' builder, or `<Type>Args.Empty` before options. */
static void java_args(emit_typed_t *x, buf_t *b, const pcl_node_t *n) {
    java_ctx_t *j = (java_ctx_t *)x;
    const char *args = emit_is_builtin(n, "pulumi:index:Stash") ? java_class(j, "com.pulumi.resources.StashArgs")
                       : emit_is_builtin(n, "pulumi:pulumi:StackReference")
                           ? java_class(j, "com.pulumi.resources.StackReferenceArgs")
                           : java_class_ref(j, n->token, "", "Args");
    if (n->n_attrs > 0) {
        buf_puts(b, ", ");
        java_builder(j, b, args, n->attrs, n->n_attrs, NULL, 0, NULL, n->schema, 8);
    } else if (n->n_options > 0) {
        buf_printf(b, ", %s.Empty", args);
    }
}

static void java_node_options(emit_typed_t *x, buf_t *b, const pcl_node_t *n) {
    java_options((java_ctx_t *)x, b, n, 12);
}

/* A read block's arguments after its name, as pulumi-java's `get(String name, Output<String> id,
 * @Nullable <Type>State state, @Nullable CustomResourceOptions options)` takes them: the ID as an
 * Output, the state's builder (inputs.<Type>State; emit_check_program: the read has state
 * attributes, so the resource has state inputs) and the options or null. */
static void java_read(emit_typed_t *x, buf_t *b, const pcl_node_t *n, const pcl_attr_t *id) {
    java_ctx_t *j = (java_ctx_t *)x;
    buf_puts(b, ", ");
    bool plain = !id || !emit_has_output(j->base.p, j->base.index, id->value);
    if (plain) buf_puts(b, "Output.of(");
    if (id) java_expr(j, b, id->value, NULL, 8);
    if (plain) buf_putc(b, ')');
    pcl_attr_t *state = arena_alloc(j->base.a, (n->n_attrs + 1) * sizeof *state);
    size_t k = 0;
    for (size_t i = 0; i < n->n_attrs; i++)
        if (&n->attrs[i] != id) {
            state[k] = n->attrs[i];
            state[k++].prop = emit_state_property(n, &n->attrs[i]);
        }
    buf_puts(b, ", ");
    java_builder(j, b, java_class_ref(j, n->token, "inputs", "State"), state, k, NULL, 0, NULL, NULL, 8);
    buf_puts(b, ", ");
    if (n->n_options > 0)
        java_options(j, b, n, 12);
    else
        buf_puts(b, "null");
}

static const emit_typed_program_t JAVA_PROGRAM = {
    .lang = LANG_JAVA,
    .indent = "        ",
    .depth = 8,
    .declare = "final var %s = ",
    .declare_resource = "var %s = ",
    .end = ";\n\n",
    .values = &JAVA_VALUES,
    .config = "ctx.config()",
    .cfg = &JAVA_CFG,
    .config_object = java_config_statement,
    .config_get_object = java_config_get_object,
    .export = "ctx.export(",
    .export_end = ");\n",
    /* Context.export(String, Output<?>) requires an Output and export(String, T) makes Output.of(value),
     * which throws NullPointerException for null (pulumi-java Context.java, Output.java) */
    .export_nullable = "%s.ofNullable(",
    .nullable_class = "com.pulumi.core.Output",
    .class_of = java_class_of,
    .args = java_args,
    .options = java_node_options,
    .read_get = ".get(",
    .read = java_read,
    .require_version = "%s.getInstance().requirePulumiVersion(",
    .deployment = "com.pulumi.deployment.Deployment",
    .require_close = ")",
};

static void java_body(emit_typed_t *x, buf_t *b) {
    emit_typed_nodes(x, b, &JAVA_PROGRAM);
}

static int java_class_cmp(const void *x, const void *y) {
    return strcmp(((const java_class_t *)x)->fqcn, ((const java_class_t *)y)->fqcn);
}

/* The fixed imports every program gets; their simple names are taken too. */
static const char *const JAVA_HEAD[] = {"com.pulumi.Context", "com.pulumi.Pulumi", "com.pulumi.core.Output"};
static const char *const JAVA_TAIL[] = {"java.util.List", "java.util.ArrayList", "java.util.Map",
                                        "java.io.File",   "java.nio.file.Files", "java.nio.file.Paths"};
#define JAVA_N_HEAD (sizeof JAVA_HEAD / sizeof JAVA_HEAD[0])
#define JAVA_N_TAIL (sizeof JAVA_TAIL / sizeof JAVA_TAIL[0])

/* The package, the imports (the fixed head, the program's own classes sorted, the fixed java.* tail)
 * and the class down to the body of `stack`. */
static void java_head(emit_typed_t *x, buf_t *out) {
    java_ctx_t *j = (java_ctx_t *)x;
    buf_puts(out, "package generated_program;\n\n");
    for (size_t i = 0; i < JAVA_N_HEAD; i++)
        buf_printf(out, "import %s;\n", JAVA_HEAD[i]);
    size_t n_own = 0;
    java_class_t *own = arena_alloc(j->base.a, (j->n_classes + 1) * sizeof *own);
    for (size_t i = 0; i < j->n_classes; i++) {
        bool fixed = false;
        for (size_t k = 0; k < JAVA_N_HEAD; k++)
            fixed |= strcmp(j->classes[i].fqcn, JAVA_HEAD[k]) == 0;
        for (size_t k = 0; k < JAVA_N_TAIL; k++)
            fixed |= strcmp(j->classes[i].fqcn, JAVA_TAIL[k]) == 0;
        if (!fixed && !j->classes[i].qualify) own[n_own++] = j->classes[i];
    }
    qsort(own, n_own, sizeof *own, java_class_cmp);
    for (size_t i = 0; i < n_own; i++)
        buf_printf(out, "import %s;\n", own[i].fqcn);
    for (size_t i = 0; i < JAVA_N_TAIL; i++)
        buf_printf(out, "import %s;\n", JAVA_TAIL[i]);
    buf_puts(out, "\npublic class App {\n"
                  "    public static void main(String[] args) {\n"
                  "        Pulumi.run(App::stack);\n"
                  "    }\n\n");
    for (size_t i = 0; i < JAVA_N_HELPERS; i++)
        if (j->helpers[i]) emit_helper_puts(out, JAVA_HELPERS[i].text, LANG_JAVA);
    buf_puts(out, "    public static void stack(Context ctx) {\n");
}

char *emit_java(const pcl_program_t *p, diag_list_t *diags) {
    java_ctx_t j = {0};
    if (!emit_typed_init(&j.base, p, diags, LANG_JAVA)) return NULL;
    /* and the lambdas' parameters the traversals and conversions write (`v -> v.get(0)`, `x ->
     * Integer.parseInt(x)`): a lambda's parameter may not shadow a local variable */
    static const char *const reserved[] = {"ctx", "args", "v", "x", NULL};
    names_table_t *names = emit_typed_name_nodes(&j.base, LANG_JAVA, names_camel, reserved, NULL, NULL);
    for (size_t i = 0; i < JAVA_N_HEAD; i++)
        java_class(&j, JAVA_HEAD[i]);
    for (size_t i = 0; i < JAVA_N_TAIL; i++)
        java_class(&j, JAVA_TAIL[i]);

    /* Pass 1 collects the classes; then ambiguous simple names are qualified everywhere. */
    buf_t scratch;
    buf_init(&scratch);
    java_body(&j.base, &scratch);
    buf_free(&scratch);
    for (size_t a = 0; a < j.n_classes; a++)
        for (size_t k = 0; k < j.n_classes; k++)
            if (a != k && strcmp(j.classes[a].simple, j.classes[k].simple) == 0) j.classes[a].qualify = true;
    /* App is this file's own class. */
    for (size_t a = 0; a < j.n_classes; a++)
        if (strcmp(j.classes[a].simple, "App") == 0) j.classes[a].qualify = true;
    /* a local named as the first part of a qualified class (a package's base, `io.x...`) would make
     * it a field access of the local (java and com are names_builtins) */
    for (size_t a = 0; a < j.n_classes; a++) {
        if (!j.classes[a].qualify) continue;
        const char *fq = j.classes[a].fqcn;
        char *root = arena_strndup(j.base.a, fq, strcspn(fq, "."));
        names_table_reserve(names, root);
        for (size_t i = 0; i < p->n_nodes; i++)
            if (j.base.var[i] && strcmp(j.base.var[i], root) == 0)
                j.base.var[i] = names_table_unique(names, root, "", 2);
    }
    return emit_typed_file(&j.base, java_body, java_head, "    }\n}\n");
}
