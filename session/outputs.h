/* outputs.h — one run's outputs, committed as one transaction (specs/txn.h): the code file (--out),
 * the program spliced in place (--insert-into), the stack state (--stack-state), the stack config
 * (Pulumi.<stack>.yaml, secure values) and the secrets file. All are written, or none is.
 *
 * Files updated in place are re-read under their lock at commit time and the change is made to what
 * is there then, so two runs on the same files both land in full (the second waits for the first).
 *
 * Secrets: with a passphrase (PULUMI_CONFIG_PASSPHRASE or _FILE) and a stack on the passphrase
 * provider (an `encryptionsalt:`, or no config file yet), every secret value goes into the stack
 * config as `<project>:<key>: {secure: v1:…}`, encrypted with the stack's key (derived once per run);
 * otherwise all of a run's values go to one secrets file (mode 0600), merged with what it holds.
 * The stack state's secrets are encrypted with the same keyring.
 *
 * The import session (session.h) writes through this module. */
#ifndef CIMPORT_SESSION_OUTPUTS_H
#define CIMPORT_SESSION_OUTPUTS_H

#include <stdbool.h>

#include "base/spool.h"
#include "emitters/emit.h"
#include "pcl/pcl.h"
#include "specs/passphrase.h"
#include "specs/stackstate.h"
#include "specs/txn.h"
#include "splice/splice.h"

/* Where a run's secret values go: decided (and the passphrase checked) before the run. */
typedef struct outputs_secrets {
    passphrase_keyring_t *keyring; /* NULL: no passphrase in the environment */
    bool to_config;                /* encrypted into config_path; else in plaintext into file */
    const char *config_path;       /* Pulumi.<stack>.yaml; NULL: no stack is named */
    bool no_stack;                 /* a passphrase, but no stack config to encrypt into: values refused */
    const char *config_provider;   /* its secrets provider when cimport cannot encrypt for it ("awskms://…",
                                      else what names one), else NULL (the passphrase one, or no config yet) */
    const char *file;              /* the secrets file (mode 0600): one per stack, cimport-secrets.<stack>.json */
    const char *stack_ref;         /* the stack its values are for, as named; NULL: none is */
    const char *file_dir;          /* --secrets-dir: created (0700) when the file is written; else NULL */
    const char *project;
    const char **reserved;        /* the project's config keys the stack config already has (no prefix) */
    const char **reserved_values; /* the value of each, as a secret's plaintext (NULL: unknown) */
    bool *reserved_elsewhere;     /* per key: its value is only in the secrets file, and this run writes the
                                     stack config (pcl_gen_options_t.reserved_elsewhere); NULL: none */
    size_t n_reserved;
    arena_t *arena;
} outputs_secrets_t;

/* Reads the passphrase and the stack config, checks the passphrase against the stack's salt (a wrong
 * one is an error: nothing has been done yet) and fills s. False with diagnostics on bad input. */
struct session_options;
bool outputs_secrets_setup(outputs_secrets_t *s, const struct session_options *o, const char *stack,
                           const char *project, diag_list_t *diags);
void outputs_secrets_free(outputs_secrets_t *s);

typedef struct outputs outputs_t;

outputs_t *outputs_new(int lock_timeout_ms);
void outputs_free(outputs_t *out);

/* The generated code as a whole file (borrowed: it must stay valid until outputs_free). */
void outputs_stage_code(outputs_t *out, const char *path, const char *code);
/* The same, the code written into a spool as it was made (base/spool.h; borrowed like the code). */
void outputs_stage_code_spool(outputs_t *out, const char *path, spool_t *code);
/* Another whole file of the run (the import report page; borrowed like the code). */
void outputs_stage_file(outputs_t *out, const char *path, const char *data, size_t len);
/* The program at path spliced: new_text is the splice of code into old_text (what was read before
 * the run); if the file holds something else at commit time (another run's insert), the code is
 * spliced into that instead, with the same options so (its filename: path). */
void outputs_stage_program(outputs_t *out, const char *path, lang_t lang, splice_options_t so, const char *old_text,
                           size_t old_len, const char *new_text, size_t new_len, const char *code);
/* The resources merged into the stack state at path (res and config are borrowed until the commit;
 * config: each package's stack configuration, its default provider's inputs). Secrets for a provider
 * cimport cannot encrypt for (service, KMS) are refused unless plaintext (asked by name: the file is
 * then made 0600). */
void outputs_stage_stack_state(outputs_t *out, const char *path, const char *stack, const char *project,
                               const stackstate_resource_t *res, size_t n, const stackstate_package_config_t *config,
                               size_t n_config, const outputs_secrets_t *s, bool b64, bool plaintext);
/* The secret values of g, where s says (nothing when g has none). */
void outputs_stage_secrets(outputs_t *out, const outputs_secrets_t *s, const pcl_gen_result_t *g);

/* Something else that commits with the files (the selected stack: txn_set_participant). */
void outputs_stage_participant(outputs_t *out, const txn_participant_t *p);

/* Everything or nothing (txn_commit). */
bool outputs_commit(outputs_t *out, diag_list_t *diags);

/* What outputs_commit would do, writing nothing (--diff): false with the reason when it would refuse
 * (a secrets file it may not write, a merge refused); else *changed lists the files it would create or
 * change (txn_dry_run). */
bool outputs_dry_run(outputs_t *out, const char ***changed, size_t *n_changed, diag_list_t *diags);
/* After a successful commit. */
const stackstate_report_t *outputs_state_report(const outputs_t *out); /* NULL: no stack state staged */
bool outputs_program_changed(const outputs_t *out);
/* The number of files staged so far; after a successful commit, whether one of the first n staged was
 * created or replaced (an update that left its file as it was is not). */
size_t outputs_count(const outputs_t *out);
bool outputs_any_changed(const outputs_t *out, size_t n);

/* The printed next step for the secrets written to a file: the commands that store every value of the
 * file in the stack's config without putting a value on a command line (malloc'd lines). */
char *outputs_secrets_next_step(const outputs_secrets_t *s);

#endif
