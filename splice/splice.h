/* splice.h — put generated resource definitions into an existing Pulumi program.
 *
 * The input is the text of a user's program (TypeScript/JavaScript, Python, Go, C#, Java or Pulumi
 * YAML) and the text of a complete program an emitter generated (emit_program). Both are parsed
 * with the pinned tree-sitter grammars; the generated program's body statements (resources, config
 * reads) are taken out, renamed so they clash with nothing in the user's file, re-indented in the
 * file's style and inserted at the program body's end (before Go's `return nil`, a C# or TS
 * `return`), with the imports they need added in the file's own order. A resource that already
 * exists with the same logical name and type is replaced in place (one a function returns,
 * `return new X(...)`, in its call only), so running the same import twice
 * changes nothing the second time; the resource options the user wrote on it are kept (added to the
 * generated ones; one set otherwise by the generated code, options that cannot be read one by one
 * beside generated ones, or a `parent` the generated code does not give are refused; an `import`
 * option it does not write is dropped: the resource is in the stack). A statement that is no
 * resource (a config read, the config object) goes before the first statement that uses it: for a
 * replaced resource of the body, right before it (the file's own config object only when declared
 * earlier); for one in a block of its own (a function's), into that block before it (refused where no
 * statement can go there).
 *
 * Nothing is written by splice_program: it returns the new text. splice_write_file writes it only
 * if the file still holds what was read. review_unified_diff (review.h) shows the change.
 *
 * Refused, with the file untouched and a message naming the line: syntax errors (ERROR/MISSING
 * nodes, and Python statements at inconsistent indentation), invalid UTF-8, UTF-16 files, a program
 * whose body cannot be found, YAML whose `resources` is a non-empty flow mapping, a resource another
 * file of the program defines (splice_options_t.program_files). */
#ifndef CIMPORT_SPLICE_H
#define CIMPORT_SPLICE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "emitters/emit.h"

/* A splicer holds one tree-sitter parser and the queries of each language, compiled on first use
 * and reused by every later call. Not thread-safe; use one per thread. */
typedef struct splicer splicer_t;

/* Another file of the program the target belongs to, read by splicer_read_file: the local modules it
 * imports, and the resources it defines as splicing compares them with the ones it adds. */
typedef struct splice_file {
    const char *name; /* names it in messages ("storage.ts:3: ...") */
    /* TypeScript: the specifiers starting with `.` of its imports, `export ... from`s, `require(...)`s
     * and `import(...)`s (`./storage`, `../lib/index.js`); Python: the modules its imports name, a
     * relative one with its leading dots (`storage`, `infra.storage`, `..util`), and of `from A import
     * b` also `A.b`, a module when a file of that name exists; none in other languages. */
    const char **modules;
    size_t n_modules;
    /* modules[0, n_run_modules) are those the file runs; the rest it names for types alone, which the
     * program never loads through it: TypeScript `import type`/`export type` (or a clause of `type`
     * names only), Python imports under `if TYPE_CHECKING:` (read18 F1). */
    size_t n_run_modules;
    struct sp_file_defs *defs; /* what it defines (splice.c) */
} splice_file_t;

typedef struct splice_options {
    /* Names the target file in messages ("index.ts:12: ..."); NULL means "program". */
    const char *filename;
    /* The program's other files, asked for when set, once the file is read: given the local modules the
     * file imports (as splice_file_t.modules), the function fills *others with the program's other
     * files, read by splicer_read_file with this splicer (valid until the splice returns); false
     * refuses the splice (its diagnostics say why). A resource one of them defines under the logical
     * name and type of one the splice would add (or may define: under a name that cannot be read, with
     * a class that cannot be traced) is refused, naming that file and line, as two resources of one
     * URN would be; nothing is replaced in another file. */
    bool (*program_files)(void *user, splicer_t *s, const char *const *modules, size_t n_modules,
                          const splice_file_t **others, size_t *n_others, diag_list_t *diags);
    void *program_files_user;
    /* Adds new definitions even when one with the same logical name and type exists (default
     * false: replace it in place). */
    bool keep_existing;
    /* The generated definitions are of resources a stack records (the selected stack, a stack
     * export): an option the user's definition sets otherwise would differ from what the stack
     * records. False: they are only the code's (its `import` option imports them). Words the
     * refusal of such an option. */
    bool into_stack;
    /* Parses the file in one piece. A big TypeScript or Python file (256 KB or more) is otherwise
     * parsed in two halves on two threads where the two trees confirm one parse would read it the
     * same way (splice_stats_t.split_parse); the result is the same either way. For tests. */
    bool whole_parse;
} splice_options_t;

/* Counts of what a splice did (for the CLI's summary line). */
typedef struct splice_stats {
    size_t inserted;      /* resource definitions added (not the config reads and other statements with them) */
    size_t replaced;      /* existing definitions replaced (identical ones included) */
    size_t reused;        /* generated statements already present verbatim (e.g. config reads) */
    size_t imports_added; /* import lines added */
    size_t renamed;       /* generated variables renamed to avoid a clash */
    bool split_parse;     /* the file was parsed in two halves (splice_options_t.whole_parse) */
    bool split_find;      /* and its resources were read on two threads, each over half of its candidates */
    /* Bytes of the result given to a parser again to confirm that it parses: the whole result, or of a
     * file parsed in two halves the halves' own text (a half no edit touches is the file's text, which
     * parsed clean, and is not parsed again). */
    size_t reparsed;
    bool split_reparse; /* and the result's second half was parsed again in two parts on two threads */
} splice_stats_t;

splicer_t *splicer_new(void);
void splicer_free(splicer_t *s);

/* Splices `generated` (a whole program in `lang`) into `target` (the user's file in `lang`).
 * On success *out_text is the new text (malloc'd, NUL-terminated, *out_len bytes if out_len is
 * non-NULL) and *changed says whether it differs from target. On failure returns false with error
 * diagnostics and sets *out_text to NULL. stats may be NULL. */
bool splicer_splice(splicer_t *s, const char *target, size_t target_len, lang_t lang, const char *generated,
                    size_t generated_len, const splice_options_t *opts, char **out_text, size_t *out_len, bool *changed,
                    splice_stats_t *stats, diag_list_t *diags);

/* One-shot form of splicer_splice (creates and frees a splicer). */
bool splice_program(const char *target_text, size_t len, lang_t target_lang, const char *generated_text,
                    const splice_options_t *opts, char **out_text, bool *changed, diag_list_t *diags);

/* A resource definition a program already has (splice_list_definitions). */
typedef struct splice_definition {
    /* The variable holding the resource, usable at the point where splicing inserts code; NULL
     * when there is none: no variable or Go's `_`, the constructor nested in another expression,
     * or a definition inside a function, loop or block rather than in the program body. YAML:
     * the resource's key. */
    const char *variable;
    const char *logical_name; /* the constructor's name argument (YAML: `name:`, else the key) */
    /* The type as the file writes it, with the file's import resolved — what splicing compares
     * to replace a definition: `@pulumi/random.RandomPet` (TS), `pulumi_random.RandomPet`
     * (Python), `github.com/pulumi/pulumi-random/sdk/v4/go/random.NewRandomPet` (Go),
     * `Pulumi.Random.RandomPet` (C#), `com.pulumi.random.RandomPet` or `*.RandomPet` for a
     * wildcard import (Java), the collapsed token `random:RandomPet` (YAML). */
    const char *type;
    unsigned line; /* 1-based */
} splice_definition_t;

/* Lists the resource definitions of a program (every constructor call with a string name, as
 * splicing finds them to replace one), in source order. The array and strings are allocated from
 * `a`. False with a diagnostic naming the line for a file splicing would refuse (syntax errors,
 * invalid UTF-8, no program body); *out is then NULL and *n_out 0. */
bool splicer_list_definitions(splicer_t *s, const char *text, size_t len, lang_t lang, const char *filename, arena_t *a,
                              splice_definition_t **out, size_t *n_out, diag_list_t *diags);
/* Reads another file of the program a splice goes into (splice_options_t.others): its local modules
 * and the resources it defines anywhere in it (it needs no program body), allocated from `a`. False
 * with a diagnostic naming the file and line where it cannot be read (syntax errors, invalid UTF-8):
 * what it defines is then unknown. */
bool splicer_read_file(splicer_t *s, const char *text, size_t len, lang_t lang, const char *name, arena_t *a,
                       splice_file_t *out, diag_list_t *diags);

/* One-shot form of splicer_list_definitions. */
bool splice_list_definitions(const char *text, size_t len, lang_t lang, const char *filename, arena_t *a,
                             splice_definition_t **out, size_t *n_out, diag_list_t *diags);

/* Whether a definition's `type` (splice_definition_t.type, in `lang`) is the resource type
 * `token` (`random:index/randomPet:RandomPet`, `aws:s3/bucket:Bucket`, `pulumi:providers:aws`).
 * Needs no schema: the class (Go: `New<Member>`) must be the token's member, a path segment must
 * name the package (`random`, `pulumi-random`, `pulumi_random`, `Random`), and the segments after
 * it must spell the module (`s3`, `apps/v1`; none for `index`), compared without case, `-` and `_`.
 * So SDK versions and import aliases do not matter. Java `*.Member` matches on the member alone. */
bool splice_type_matches(lang_t lang, const char *type, const char *token);

/* Language of a program file from its name: .ts/.tsx/.mts/.cts/.js/.mjs/.cjs → TypeScript (the
 * TypeScript grammar parses plain JavaScript), .py → Python, .go → Go, .cs → C#, .java → Java,
 * .yaml/.yml (Pulumi.yaml, Main.yaml) → YAML. False for anything else. */
bool splice_lang_from_path(const char *path, lang_t *out);

/* Writes new_text over path through a temporary file and rename, keeping the file's mode, but only
 * if the file still holds exactly expected_old_text (else: "<path> changed since it was read; run
 * the command again"). A read-only file or directory is refused before anything is written. */
bool splice_write_file(const char *path, const char *expected_old_text, size_t old_len, const char *new_text,
                       size_t new_len, diag_list_t *diags);

#endif
