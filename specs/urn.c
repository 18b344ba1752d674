/* urn.c — Pulumi resource URNs: building them the way the engine does and taking them apart.
 *
 * A URN is `urn:pulumi:<stack>::<project>::<qualified type>::<name>`. The qualified type is the
 * resource's own type prefixed by its parent's qualified type and `$` (`A$B$C`), except that a
 * parent of type `pulumi:pulumi:Stack` (or no parent) adds nothing. The name is everything after
 * the third `::` and may itself contain `::`. */
#include <string.h>

#include "specs/importfile.h"

#define URN_PREFIX "urn:pulumi:"
#define URN_DELIM "::"
#define URN_STACK_TYPE "pulumi:pulumi:Stack"

char *urn_make(arena_t *a, const char *stack, const char *project, const char *parent_qualified_type, const char *type,
               const char *name) {
    const char *t = type ? type : "";
    if (parent_qualified_type && *parent_qualified_type && strcmp(parent_qualified_type, URN_STACK_TYPE) != 0)
        return arena_sprintf(a, URN_PREFIX "%s" URN_DELIM "%s" URN_DELIM "%s$%s" URN_DELIM "%s", stack ? stack : "",
                             project ? project : "", parent_qualified_type, t, name ? name : "");
    return arena_sprintf(a, URN_PREFIX "%s" URN_DELIM "%s" URN_DELIM "%s" URN_DELIM "%s", stack ? stack : "",
                         project ? project : "", t, name ? name : "");
}

/* Start of the n-th (0-based) `::`-separated part after the prefix, or NULL. Part 0 is the stack. */
static const char *urn_part(const char *urn, int n) {
    if (!urn || strncmp(urn, URN_PREFIX, strlen(URN_PREFIX)) != 0) return NULL;
    const char *p = urn + strlen(URN_PREFIX);
    for (int i = 0; i < n; i++) {
        const char *d = strstr(p, URN_DELIM);
        if (!d) return NULL;
        p = d + 2;
    }
    return p;
}

/* Same rule as Go's URN.IsValid: the prefix and at least three `::` separators. */
bool urn_is_valid(const char *urn) {
    return urn_part(urn, 3) != NULL;
}

char *urn_name(arena_t *a, const char *urn) {
    const char *p = urn_part(urn, 3);
    return p ? arena_strdup(a, p) : NULL;
}

char *urn_qualified_type(arena_t *a, const char *urn) {
    if (!urn_is_valid(urn)) return NULL;
    const char *p = urn_part(urn, 2);
    return arena_strndup(a, p, (size_t)(strstr(p, URN_DELIM) - p));
}

char *urn_type(arena_t *a, const char *urn) {
    char *qt = urn_qualified_type(a, urn);
    if (!qt) return NULL;
    char *dollar = strrchr(qt, '$');
    return dollar ? dollar + 1 : qt;
}
