/* emit.h — language emitters: PCL program → TypeScript, Python, Go, C#, Java, YAML (or PCL text).
 *
 * Every emitter has the same shape (a program walker, an expression printer, a names helper; see
 * emitters/README in the header comments of each file), so adding a language is adding one file. */
#ifndef CIMPORT_EMIT_H
#define CIMPORT_EMIT_H

#include <stdbool.h>

#include "base/diag.h"
#include "pcl/pcl.h"

typedef enum {
    LANG_PCL = 0,
    LANG_TYPESCRIPT,
    LANG_PYTHON,
    LANG_GO,
    LANG_CSHARP,
    LANG_JAVA,
    LANG_YAML,
} lang_t;

/* "typescript"/"ts"/"nodejs", "python"/"py", "go", "csharp"/"cs"/"dotnet", "java", "yaml", "pcl". */
bool lang_from_name(const char *name, lang_t *out);
const char *lang_name(lang_t l);
/* The language as messages name it: "TypeScript", "Python", "Go", "C#", "Java", "YAML", "PCL". */
const char *lang_title(lang_t l);
/* Maps a Pulumi.yaml `runtime` (nodejs, python, go, dotnet, java, yaml) to a language. */
bool lang_from_runtime(const char *runtime, lang_t *out);

/* Emits the whole program as one source file. malloc'd; NULL with error diagnostics when any part
 * of the program cannot be written with its meaning (never a file that silently leaves it out). */
char *emit_program(const pcl_program_t *p, lang_t lang, diag_list_t *diags);
/* Whether the program's PCL text says its values: false with an error diagnostic for a number
 * beyond a float64 (Infinity), which PCL's printer would write as null. emit_program asks it for
 * LANG_PCL; a front end printing PCL another way asks it first (pcl_print), or of each node of a program
 * printed as it is generated (pcl_gen_options_t.print_check). */
bool emit_check_pcl(const pcl_program_t *p, diag_list_t *diags);

#endif
