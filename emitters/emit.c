/* emit.c — language selection and dispatch to the per-language emitters. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "emitters/emit_internal.h"

bool lang_from_name(const char *name, lang_t *out) {
    static const struct {
        const char *name;
        lang_t lang;
    } names[] = {{"pcl", LANG_PCL},       {"typescript", LANG_TYPESCRIPT}, {"ts", LANG_TYPESCRIPT},
                 {"nodejs", LANG_TYPESCRIPT}, {"python", LANG_PYTHON},     {"py", LANG_PYTHON},
                 {"go", LANG_GO},          {"csharp", LANG_CSHARP},        {"cs", LANG_CSHARP},
                 {"c#", LANG_CSHARP},      {"dotnet", LANG_CSHARP},        {"java", LANG_JAVA},
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

bool lang_from_runtime(const char *runtime, lang_t *out) {
    if (strcmp(runtime, "nodejs") == 0) return *out = LANG_TYPESCRIPT, true;
    if (strcmp(runtime, "python") == 0) return *out = LANG_PYTHON, true;
    if (strcmp(runtime, "go") == 0) return *out = LANG_GO, true;
    if (strcmp(runtime, "dotnet") == 0) return *out = LANG_CSHARP, true;
    if (strcmp(runtime, "java") == 0) return *out = LANG_JAVA, true;
    if (strcmp(runtime, "yaml") == 0) return *out = LANG_YAML, true;
    return false;
}

char *emit_program(const pcl_program_t *p, lang_t lang, diag_list_t *diags) {
    if (lang == LANG_PCL) return pcl_print(p);
    /* refuse what the language cannot say, then declare every node after what it refers to */
    if (!emit_check_program(p, lang, diags)) return NULL;
    pcl_program_t sorted;
    if (!emit_sort_program(p, &sorted, diags)) return NULL;
    size_t errors_before = diags->errors;
    char *r = NULL;
    switch (lang) {
    case LANG_PCL: break;
    case LANG_TYPESCRIPT: r = emit_typescript(&sorted, diags); break;
    case LANG_PYTHON: r = emit_python(&sorted, diags); break;
    case LANG_GO: r = emit_go(&sorted, diags); break;
    case LANG_CSHARP: r = emit_csharp(&sorted, diags); break;
    case LANG_JAVA: r = emit_java(&sorted, diags); break;
    case LANG_YAML: r = emit_yaml(&sorted, diags); break;
    default: diag_error(diags, DIAG_USAGE, "unknown output language"); break;
    }
    free(sorted.nodes);
    if (r && diags->errors > errors_before) { /* an emitter refused part of the program: no file */
        free(r);
        r = NULL;
    }
    return r;
}
