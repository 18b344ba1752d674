/* result.c — the names of an import result's status and of its inputs' provenance (engine.h), as the
 * CLI, the language server, the report and the resume file say them. A file of its own below the
 * engine and the resume reader, which both use them. */
#include <stddef.h>

#include "importer/engine.h"

const char *provenance_name(input_provenance_t p) {
    switch (p) {
    case PROVENANCE_REQUIRED: return "required";
    case PROVENANCE_DIFF: return "diff";
    case PROVENANCE_READ: return "read";
    case PROVENANCE_SPEC: return "spec";
    }
    return "?";
}

const char *import_status_name(import_status_t s) {
    switch (s) {
    case IMPORT_OK: return "ok";
    case IMPORT_FAILED: return "failed";
    case IMPORT_SKIPPED: return "skipped";
    }
    return "?";
}
