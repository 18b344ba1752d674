/* diag.h — diagnostics: what went wrong, where, and how to fix it.
 *
 * Library functions never print; they append diagnostics to a list the caller owns. A diagnostic
 * names the file and the resource it concerns when it has them; the message is a sentence a user
 * can act on. The front end decides how to show them, and words the advice that names its own
 * options (diag_advice). */
#ifndef CIMPORT_DIAG_H
#define CIMPORT_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/arena.h"

typedef enum {
    DIAG_ERROR = 0,
    DIAG_WARNING = 1,
    DIAG_INFO = 2,
    DIAG_DEBUG = 3,
} diag_severity_t;

/* Codes group diagnostics for scripts (`--json`); the message is what people read. */
typedef enum {
    DIAG_GENERIC = 0,
    DIAG_USAGE = 1,       /* bad command line */
    DIAG_INPUT = 2,       /* malformed or invalid input file */
    DIAG_SCHEMA = 3,      /* schema missing, malformed, or lacks a type */
    DIAG_PROVIDER = 4,    /* provider failed or answered badly */
    DIAG_CHECK = 5,       /* provider Check reported a failure for a property */
    DIAG_RESIDUAL = 6,    /* a diff remained after import */
    DIAG_IO = 7,          /* reading or writing a file failed */
    DIAG_CODEGEN = 8,     /* PCL or language code could not be generated */
    DIAG_PROVIDER_LOG = 9 /* a provider's Log message */
} diag_code_t;

typedef struct diag {
    diag_severity_t severity;
    diag_code_t code;
    const char *message;
    const char *file;     /* may be NULL */
    const char *resource; /* e.g. "resource 'web' of type 'aws:s3/bucket:Bucket'"; may be NULL */
    long line;            /* 1-based, 0 when unknown (long: inputs past 2 GiB can have more lines than int holds) */
    struct diag *next;
} diag_t;

typedef struct diag_list {
    diag_t *head;
    diag_t *tail;
    size_t count;
    size_t errors;
    arena_t *arena; /* owned; created on first use */
} diag_list_t;

void diag_list_init(diag_list_t *l);
void diag_list_free(diag_list_t *l);

diag_t *diag_add(diag_list_t *l, diag_severity_t sev, diag_code_t code, const char *file, const char *resource,
                 const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* As diag_add with a message that is not copied: message and resource (NULL or not) stay the caller's,
 * and must outlive the list — a constant, or a text in an arena its owner frees after the list. For a
 * reason many resources share: 100,000 resources failing for one reason hold it once, not 0.5 KB each.
 * diag_list_move copies them as it copies any message. */
diag_t *diag_add_shared(diag_list_t *l, diag_severity_t sev, diag_code_t code, const char *file, const char *resource,
                        const char *message);
/* Shorthand for an error with no file/resource context. */
diag_t *diag_error(diag_list_t *l, diag_code_t code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Moves every diagnostic of src to the end of dst (src is left empty but usable). */
void diag_list_move(diag_list_t *dst, diag_list_t *src);
bool diag_has_errors(const diag_list_t *l);
const char *diag_severity_name(diag_severity_t sev);
/* "file:line: resource: message" with the parts that are present. Allocated in the list's arena. */
const char *diag_format(diag_list_t *l, const diag_t *d);
/* Prints every diagnostic to `out`, "severity: text" a line, in order; a message said of more than
 * DIAG_SHOWN_WHOLE resources (the same severity, file, line and message, the resource apart) is
 * printed once, where it first occurs, with their count and the first DIAG_NAMED of them. */
void diag_list_print(diag_list_t *l, FILE *out);
enum { DIAG_SHOWN_WHOLE = 3, DIAG_NAMED = 20 };

/* What the user can do about a diagnostic, said by the front end in its own terms: the command line
 * names a flag, the language server an initializationOptions field. The library states the facts and
 * asks for the advice by kind; a front end registers how it says each (diag_set_advice). */
typedef enum {
    DIAG_ADVICE_SCHEMA = 0,              /* give the schema of package `subject` */
    DIAG_ADVICE_SCHEMA_WITH_TYPE = 1,    /* check the type token, or give a schema of `subject` that has it */
    DIAG_ADVICE_SCHEMA_LOADED = 2,       /* the schema of a package is not loaded: give it */
    DIAG_ADVICE_SCHEMA_INPUTS = 3,       /* give the package's schema to keep only input properties */
    DIAG_ADVICE_INPUT_SIZE = 4,          /* raise the input size cap */
    DIAG_ADVICE_INPUT_WAIT = 5,          /* raise how long to wait for input */
    DIAG_ADVICE_DEADLINE = 6,            /* a longer provider deadline */
    DIAG_ADVICE_IMPORT_OPTION = 7,       /* code with the `import` option instead, for `pulumi up` to import */
    DIAG_ADVICE_LOCK_WAIT = 8,           /* wait longer for another holder of a lock */
    DIAG_ADVICE_OTHER_STACK = 9,         /* select another stack */
    DIAG_ADVICE_SELECT_STACK = 10,       /* no stack is selected: name one */
    DIAG_ADVICE_STACK_ORG = 11,          /* name the stack with its organization: `subject` is PROJECT/STACK */
    DIAG_ADVICE_STACK_NAMES = 12,        /* import with the stack and project of the stack state */
    DIAG_ADVICE_STACK_NAMES_NEEDED = 13, /* name the stack and the project */
    DIAG_ADVICE_STACK_OF_STATE = 14,     /* the stack state is another stack's: `subject` is STACK::PROJECT (as
                                            in a URN), the ones it belongs to */
    DIAG_ADVICE_RESULTS_DOC = 15,        /* a results document is written by a run with the results as JSON */
    DIAG_ADVICE_CONFIG_VALUE = 16,       /* give the config value `subject` (an encrypted one) in plain */
    DIAG_ADVICE_DIFF_INSTEAD = 17,       /* show a diff instead of writing a read-only file */
    DIAG_ADVICE_ATTACH = 18,             /* attach to a running provider of package `subject` */
    DIAG_ADVICE_NO_PROTECT = 19,         /* import without the protect option */
    DIAG_ADVICE_OTHER_PROJECT = 20,      /* run in project `subject`'s directory, or name no project */
    DIAG_ADVICE_PROGRAM_PROJECT = 21,    /* run in the directory `subject` of the program's own project */
    DIAG_ADVICE_TYPESCRIPT_CODE = 22,    /* write the TypeScript code to a file of its own to port it */
    DIAG_ADVICE_RESUME_STACK = 23,       /* the results document is another stack's: `subject` is STACK::PROJECT */
    DIAG_ADVICE_JSON_PROJECT = 24,       /* a project file in JSON: work outside that project */
    DIAG_ADVICE_STACK_GIVEN = 25,        /* not advice: how the front end names the stack `subject` it was given
                                            (its flag or setting) */
    DIAG_ADVICE_STACK_OF_PROJECT = 26,   /* the stack named is another project's: work in that project, or name
                                            a stack of project `subject` */
    DIAG_ADVICE_INTO_STACK = 27,         /* import into a stack that cimport writes */
    DIAG_ADVICE_CONFIG_FILE = 28,        /* name another stack config file */
    DIAG_ADVICE_SECRETS_DIR = 29,        /* name another directory for the secrets file */
    DIAG_ADVICE_START_DEADLINE = 30,     /* a longer deadline for a plugin's start, handshake and schema */
} diag_advice_t;

/* Writes the advice (with its leading punctuation, e.g. "; pass --schema …") into out[0, n). */
typedef void (*diag_advice_fn)(char *out, size_t n, diag_advice_t kind, const char *subject);
/* The front end's words for advice, for the whole process; NULL: none (the facts alone). */
void diag_set_advice(diag_advice_fn fn);
/* The registered front end's advice of that kind, in out (empty without a front end); returns out. */
#define DIAG_ADVICE_MAX 512
const char *diag_advice(char out[DIAG_ADVICE_MAX], diag_advice_t kind, const char *subject);

#endif
