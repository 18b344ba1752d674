/* emit.c — dispatch to the per-language emitters (language names and config types: lang.c). */
#include <stdlib.h>

#include "emitters/emit_internal.h"

char *emit_program(const pcl_program_t *p, lang_t lang, diag_list_t *diags) {
    if (lang == LANG_PCL) return emit_check_pcl(p, diags) ? pcl_print(p) : NULL;
    /* YAML has no operators or loops: those whose value is certain are written as that value */
    arena_t *folds = lang == LANG_YAML ? arena_new() : NULL;
    pcl_program_t folded;
    if (folds) p = emit_yaml_fold(p, folds, &folded);
    /* refuse what the language cannot say, then declare every node after what it refers to */
    pcl_program_t sorted;
    if (!emit_check_program(p, lang, diags) || !emit_sort_program(p, &sorted, diags)) {
        arena_free(folds);
        return NULL;
    }
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
    arena_free(folds);
    if (r && diags->errors > errors_before) { /* an emitter refused part of the program: no file */
        free(r);
        r = NULL;
    }
    return r;
}
