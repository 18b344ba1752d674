/* session.h — one import session, the run both front ends share: import file → plan → providers →
 * engine (Read, Check, Diff, verify) → PCL → code in the chosen language; then the code placed (a
 * whole file, or spliced into an existing program) and the run's outputs — secret values, the code
 * or the spliced program, the stack state, the selected stack on its backend — committed as one
 * transaction (session/outputs.h, session/stack.c).
 *
 * A session prints nothing. What happens while it runs is told through events (session_event_t: a
 * resource finished, the engine's tick, the code spliced, the stack state merged); what it found is
 * in the session (results, counts, code) and its diagnostics (facts, no front-end advice). The
 * command line (cli/import_cmd.c) and the language server (lsp/lsp.c) fill the options and render
 * the events and the results in their own terms.
 *
 * Order of calls:
 *   session_init      options borrowed for the session's life; the stack, project and language
 *   session_stack_open  into_stack: the stack opened under its lock (else session_prepare opens it)
 *   session_prepare   where secrets go (the passphrase checked against the stack): before anything runs
 *   session_run       the import and the code
 *   session_stack_merge  into_stack: the resources merged into the stack, nothing written yet (a
 *                     front end previews and asks here)
 *   session_place_code  the code into --out or spliced into the program (in memory)
 *   session_commit    everything written, or nothing
 *   session_stack_close  into_stack: the lock released (else session_free releases it)
 *   session_free
 */
#ifndef CIMPORT_SESSION_H
#define CIMPORT_SESSION_H

#include <cjson/cJSON.h>
#include <signal.h>
#include <stdbool.h>

#include "base/hashmap.h"
#include "emitters/emit.h"
#include "importer/engine.h"
#include "importer/provider.h"
#include "migrate/convert.h"
#include "pcl/pcl.h"
#include "session/outputs.h"
#include "specs/deployment.h"
#include "specs/importfile.h"
#include "specs/schema.h"
#include "specs/stackstate.h"
#include "specs/txn.h"
#include "splice/splice.h"
#include "stacks/backend.h"
#include "stacks/workspace.h"

#define CIMPORT_VERSION "0.1.0"

typedef enum {
    SESSION_EVENT_RESULT,          /* a resource finished: result, done, total */
    SESSION_EVENT_TICK,            /* the engine's tick (about every 250 ms): done, failed, in_flight, total */
    SESSION_EVENT_SPLICED,         /* the code spliced into the program `path` was committed (written,
                                      or with diff/preview_only not to be): splice, changed */
    SESSION_EVENT_STATE_MERGED,    /* the stack state `path` was written: state */
    SESSION_EVENT_STACK_LOCK_WAIT, /* into_stack: another process holds the stack's lock (`holder`
                                      names it); the session waits up to lock_wait_ms */
} session_event_kind_t;

typedef struct session_event {
    session_event_kind_t kind;
    const import_result_t *result;
    size_t done, failed, in_flight, total;
    const char *path;
    const splice_stats_t *splice;
    bool changed;
    const stackstate_report_t *state;
    const char *holder;
} session_event_t;

typedef void (*session_event_fn)(void *user, const session_event_t *ev);

typedef struct session_options {
    /* What to import: an import file, or one resource given inline. */
    const char *spec_path;
    const char *inline_type, *inline_name, *inline_id;
    const char *parent, *provider, *properties; /* inline only */
    /* Where resources are read from: a stack export or Terraform state offline, else plugins. */
    const char *offline_state;
    const char **schemas;
    size_t n_schemas;
    const char **attach; /* pkg=PORT */
    size_t n_attach;
    const char **config; /* pkg:key=value */
    size_t n_config;
    const char *config_file;  /* the stack config; NULL: Pulumi.<stack>.yaml */
    const char *project_file; /* Pulumi.yaml, whose `config:` block is every stack's; NULL: ./Pulumi.yaml */
    int timeout_ms;           /* provider calls; 0: the plugin host's default */
    int start_timeout_ms;     /* plugin start; 0: default */
    /* The stack and project (NULL: "dev"; Pulumi.yaml's name, else "project") and the language
     * (unset: Pulumi.yaml's runtime, else PCL). */
    const char *stack, *project;
    /* The stack as it was named (ORG/PROJECT/STACK, ORG/STACK or STACK: --stack, PULUMI_STACK or the
     * workspace's selection), for the commands cimport prints; NULL: `stack`. */
    const char *stack_ref;
    lang_t language;
    bool language_set;
    /* The engine. */
    inputs_mode_t inputs;
    int max_rounds;
    bool ignore_residual;
    int parallel;       /* resources in flight; <= 0: 16 */
    const char *resume; /* a previous run's results document: what it imported is carried over */
    /* The code. */
    bool protect;
    bool generate_code;
    bool import_option; /* each resource carries `import: <id>` */
    pcl_secrets_mode_t secrets;
    /* Where it goes. */
    const char *out_path; /* the code as a whole file */
    /* The code may go into out_path's temporary file as it is printed instead of being held whole
     * (session_t.code_spool; PCL): where the code is only written — lean results, out_path, no splice,
     * diff or preview. A front end that reads the code's text (prints it, puts it in --json) leaves it
     * false. */
    bool stream_code;
    const char *insert_into; /* spliced into the program in this file */
    bool keep_existing;      /* add a definition even when the program has one */
    /* The program held in memory instead (an editor's buffer): spliced there, never written. */
    const char *program_text;
    size_t program_len;
    const char *program_name; /* names it in messages */
    const char *program_path; /* its file's path, whose program's other files are read (NULL: none) */
    const char *stack_state;  /* a stack export the resources are merged into */
    /* Why no stack is written (into_stack and stack_state NULL), in the front end's words, for the
     * results document's run.target.why; NULL: not said. */
    const char *no_stack_reason;
    /* The selected stack on its backend (stacks/workspace.h: the backend's URL, kind and access
     * token, the stack's organization), the stack named by `stack` and `project`: opened under its
     * lock (session_stack_open), the resources merged into it (session_stack_merge) and written in
     * session_commit's transaction with the files. NULL: no stack is written. With preview_only it is
     * read without its lock and merged, never written: the run is the one that would write it. */
    const workspace_t *into_stack;
    bool secrets_b64;        /* a new stack state's secrets in base64 */
    bool secrets_plaintext;  /* --stack-state: plaintext secrets where cimport cannot encrypt (asked by name) */
    const char *secrets_dir; /* the secrets file is DIR/cimport-secrets[.<stack>].json */
    /* The stack's backend is Pulumi Cloud: a stack config naming no secrets provider and holding no
     * salt uses the service's key there (not a passphrase), which cimport cannot encrypt for. */
    bool service_secrets;
    const char *secrets_file; /* the secrets file (mode 0600) without a passphrase */
    int lock_wait_ms;         /* another run holding an output's lock */
    bool diff;                /* write nothing (a diff is shown) */
    bool preview_only;        /* write nothing */
    /* Results. */
    bool show_secrets;       /* secret values in the results document */
    const char *report_path; /* an import report follows: keep whole results */
    /* Keep only what the code needs of each result (ID, final inputs, state, ignoreChanges,
     * diagnostics); ignored with stack_state, into_stack, resume and report_path, which need whole
     * results. */
    bool lean_results;
    /* A converted state's resources the conversion left out (unmapped, no import ID: --from): the
     * results document's "unmapped", as an offline Terraform state's. */
    const convert_entry_t *left_out;
    size_t n_left_out;
    /* Events, and a flag that stops the run (SIGINT, an editor's cancel); all may be NULL. */
    session_event_fn on_event;
    void *user;
    const volatile sig_atomic_t *stop;
} session_options_t;

/* The defaults of both front ends: protect, code, minimal inputs, 3 rounds, secrets as config,
 * 10 s lock wait. */
void session_options_default(session_options_t *o);

typedef struct import_session {
    const session_options_t *opts;
    arena_t *arena;
    diag_list_t diags; /* errors and warnings not tied to one resource */
    lang_t lang;
    const char *stack;
    const char *project;
    const import_plan_t *plan;
    import_result_t *results; /* plan->n_items entries, NULL if the engine did not run */
    size_t n_ok, n_verified;  /* n_verified: verified by the provider's own Check and Diff */
    bool offline;             /* offline_state: cimport's own Check/Diff over the schema, no provider */
    size_t n_consistent;      /* offline: final Check + Diff found no difference (never "verified") */
    size_t n_unchecked;       /* imported components and explicit providers: declared, nothing read or checked */
    engine_stats_t stats;     /* provider calls made, resources carried over from resume */
    pcl_gen_result_t gen;     /* gen.program NULL when no code was generated */
    char *code;               /* malloc'd; NULL when none, or when streamed */
    spool_t *code_spool;      /* stream_code: the code, written as it was printed (then code is NULL) */
    /* offline_state with a Terraform state: what its conversion left out (unmapped, no ID) */
    convert_report_t offline_report;
    bool offline_is_terraform;
    /* session_prepare: where secret values go */
    outputs_secrets_t secrets;
    bool secrets_ready;
    /* insert_into with stack_state: resources the stack and the program already have, which the
     * code refers to instead of repeating their values; refs_diags says what could not be read */
    diag_list_t refs_diags;
    /* session_place_code: the program before and after (old_text NULL: no file there) */
    const char *code_target; /* insert_into, program_name or out_path */
    const char *old_text;
    char *new_text; /* malloc'd, or the code itself (new_is_code: a whole file, nothing spliced) */
    bool new_is_code;
    size_t old_len, new_len;
    bool changed;
    splice_stats_t splice;
    /* session_commit */
    char *report_html; /* session_stage_report: the import report page, written with the rest */
    size_t report_len;
    bool committed;
    bool secrets_saved;         /* secret values were written where `secrets` says */
    bool stack_state_created;   /* --stack-state's document did not exist: this run created it */
    bool stack_state_unchanged; /* --stack-state's document recorded every resource already: left as it was */
    const char **diff_files;    /* --diff: the files besides the code a run without it would change */
    size_t n_diff_files;
    size_t n_recorded_differ; /* resources in the stack (or --stack-state) already, recorded with other inputs,
                               * provider or parent than the code declares (stackstate_report_t.n_differ), and
                               * default providers recorded with another configuration (n_provider_differ) */
    /* into_stack (session/stack.c) */
    stack_store_t *stack_store;       /* open (locked) from session_stack_open to session_stack_close */
    stackstate_report_t stack_report; /* session_stack_merge: every resource added or found */
    /* IDs of this run that are secret values (a RandomBytes' ID is its base64 output; a password is
     * imported by its value), keys in arena: shown as "[secret]" (session_shown_id) */
    hashmap_t secret_ids;
    size_t stack_n_import;  /* resources the write imports (not in the stack yet) */
    size_t stack_n_same;    /* resources in the stack already, with the same ID */
    char *stack_merged;     /* the document to write; NULL: nothing to write */
    bool stack_written;     /* session_commit wrote it */
    bool files_written;     /* session_commit created or replaced a file of the run's own (the code, the
                             * program, secrets, a stack export; not the report page) */
    bool stack_undo_failed; /* a write taken back after a failed file could not be: changed */
    txn_participant_t stack_part;
    /* The stack's provider configuration ({pkg: {key: value}}: Pulumi.yaml's under Pulumi.<stack>.yaml's,
     * without --config), as Pulumi gives it to a default provider: strings, encrypted values secrets
     * (plugin_host_config_load_stack's stack_values); NULL when not read (offline without a stack) */
    pv_t *stack_config;
    /* What the default providers are configured with ({pkg: {key: value}}: stack_config's values, plain,
     * and --config's), as the plugins get it; NULL before the providers are set up */
    pv_t *provider_config;
    /* owned resources */
    schema_set_t *schemas;
    deployment_t *state;
    arena_t *state_arena; /* an indexed stack export's (loaded on its own thread) */
    void *offline_source;
    provider_registry_t *registry;
    void *plugin_host;
    void *resume;
    outputs_t *outputs;
    outputs_t *state_preview;   /* session_preview_stack_state: --stack-state's merge, run on the file as it is */
    bool state_preview_changes; /* ... which it would change */
} import_session_t;

void session_init(import_session_t *s, const session_options_t *o);
/* Whether the run made code: held (code) or streamed (code_spool). */
bool session_has_code(const import_session_t *s);
/* Where secret values go, the passphrase checked against the stack's salt: false with diagnostics
 * (in `diags`) when that is wrong; nothing has run. */
bool session_prepare(import_session_t *s, diag_list_t *diags);
/* The import and the code. `file` may be NULL: then spec_path or the inline resource is used.
 * False when the input was bad (nothing ran; diagnostics say why). True means the engine ran: look
 * at n_ok / results for how it went. */
bool session_run(import_session_t *s, const import_file_t *file);
/* The code into its place: spliced into the program (program_text, else the insert_into file),
 * or whole for out_path (compared with what the file holds, for a diff). Nothing to do without
 * code or a place. False when the program cannot take it (unreadable, syntax errors): diagnostics
 * in `diags`, nothing is written. `sp` may be NULL (a splicer for this call). */
bool session_place_code(import_session_t *s, splicer_t *sp, diag_list_t *diags);
/* The import report page (malloc'd, taken over) for opts->report_path: session_commit writes it with
 * the other outputs, also with diff and preview_only, so a page that cannot be written leaves
 * everything as it was. */
void session_stage_report(import_session_t *s, char *html, size_t len);
/* Writes, unless diff or preview_only: the secret values (when there is code), the code or the
 * spliced program (not an in-memory one), the stack state (when something imported) — all or
 * none, with the staged report page. False with diagnostics in `diags` when nothing could be
 * written. */
bool session_commit(import_session_t *s, diag_list_t *diags);
/* Into a stack (or a stack export, --stack-state): whether the run writes anything of its own — the
 * stack, or a file (the code, the program, secrets, the export); a run that found every resource it
 * read in the stack already and has no file to write writes nothing (the report page aside). Before session_commit
 * (committed false): what it would write, secrets counted as written (with --stack-state, after
 * session_preview_stack_state); after it (committed true): what it wrote. True for a run into no stack. */
bool session_writes_something(const import_session_t *s, bool committed);
/* --stack-state, before session_commit: its merge run on the file as it is now, writing nothing, so
 * that the report page staged with the commit says which resources it adds and which the export
 * records already (session_stack_state_report). Nothing to do without stack_state or a resource read. */
void session_preview_stack_state(import_session_t *s);
/* --stack-state's merge report: the commit's, else the preview's; NULL when neither ran. */
const stackstate_report_t *session_stack_state_report(const import_session_t *s);
void session_free(import_session_t *s);

/* An ID as the run shows it: "[secret]" for one that is a secret value (a RandomBytes' ID is its
 * base64 output), else id. Pulumi records an ID in plaintext (pulumi/pulumi#8946); what cimport prints
 * and its results document (unless show_secrets) do not. */
const char *session_shown_id(const import_session_t *s, const char *id);
/* text with every secret ID of the run in it as "[secret]" (in arena), or text when it holds none. */
const char *session_scrub_text(const import_session_t *s, arena_t *arena, const char *text);
/* The same for each message of a list. */
void session_scrub_diags(const import_session_t *s, diag_list_t *l);
/* A results document (made with secret values, for a report) with every secret ID in it as
 * "[secret]"; its inputs are left to report_redact. */
void session_redact_secret_ids(const import_session_t *s, cJSON *doc);
/* A warning for each resource a merge added whose ID is a secret value: the stack holds it in plaintext. */
void session_warn_plaintext_ids(const import_session_t *s, const stackstate_report_t *rep, const char *where,
                                diag_list_t *diags);

/* The selected stack (into_stack; session/stack.c). Opens it: the lock taken (while another process
 * holds it: SESSION_EVENT_STACK_LOCK_WAIT, then up to lock_wait_ms) and the document read. False
 * with diagnostics when it does not exist or cannot be read or locked (nothing is left locked).
 * True without into_stack, or when it is open already. */
bool session_stack_open(import_session_t *s, diag_list_t *diags);
/* After session_run: the resources that imported merged into the stack's document, and the result
 * checked to load as a checkpoint — nothing is written. False (diagnostics in s->diags) when the
 * stack must not be written. True with stack_merged, or with NULL when every resource is in the
 * stack already; stack_report lists each resource for a preview. session_commit then writes the
 * stack as a participant of its transaction (specs/txn.h): once the files are staged, taken back if
 * one of them then fails; a front end that asks before writing and is told no does not commit. */
bool session_stack_merge(import_session_t *s);
/* Releases the stack's lock (what the release reports goes to diags); session_free does it when
 * the front end has not. */
void session_stack_close(import_session_t *s, diag_list_t *diags);
/* The options a run in workspace w (stacks/workspace.h) takes from it, for those o does not set:
 * the given or selected stack (its short name), the project's name, its runtime's language, and the
 * stack config Pulumi.<stack>.yaml beside Pulumi.yaml, or in the project's stackConfigDir, also when it
 * does not exist yet (a path in arena a). */
void session_options_from_workspace(session_options_t *o, const workspace_t *w, arena_t *a);
/* Whether path names a JavaScript file (.js, .mjs, .cjs), which TypeScript code does not suit. */
bool session_path_is_javascript(const char *path);
/* Whether the program at path (a file the code of language lang is spliced into) is one the code
 * can go into and `pulumi up` of w's project runs: a JavaScript program (.js, .mjs, .cjs) takes no
 * TypeScript; a program of another project (the nearest Pulumi.yaml above it is not w's:
 * a nested project in a monorepo) uses that project's stacks and config, not the ones the run
 * imports into and writes; a file of w's project in another language than its runtime's is never
 * run. False with a diagnostic naming the file (and both projects). True but for JavaScript when w
 * has no project or the file is in none. Both front ends ask it before anything runs. */
bool session_program_fits(arena_t *a, const workspace_t *w, const char *path, lang_t lang, diag_list_t *diags);
/* The workspace of the program at path, for a run that has no project where it runs: the nearest
 * Pulumi.yaml above the program, found as workspace_discover_in finds it from there (its selected
 * stack, or stack_flag, and backend), so that the run is the one run from inside that project. w is
 * left as it is when the program is in no project; false (diagnostics) when the workspace found
 * there cannot be read. */
bool session_program_workspace(arena_t *a, const char *path, const char *stack_flag, workspace_t *w,
                               diag_list_t *diags);
/* Whether the existing regular file at path is its project's program (the nearest Pulumi.yaml above
 * it: the file `main` names, or the entry the runtime runs in the project's or `main`'s directory —
 * index.ts/index.js, __main__.py, Main.yaml; of a compiled program the source file holding its run:
 * Go's pulumi.Run in that directory, C#'s Deployment.RunAsync or Stack class and Java's Pulumi.run
 * there or below) or that Pulumi.yaml itself (*project_file); pw gets the project. A whole file
 * written there replaces the program. Where the file's project cannot be told (a Pulumi.json), false
 * with the errors in diags (NULL: dropped). */
bool session_file_is_program(arena_t *a, const char *path, workspace_t *pw, bool *project_file, diag_list_t *diags);
/* What a whole new file written at path (existing or not; not the program itself, which
 * session_file_is_program tells) would be to the project it lies in (pw gets the project):
 * PROGRAM_FILE_STACK_CONFIG, a stack's configuration (Pulumi.<stack>.yaml where the project keeps
 * them, which Pulumi reads when that stack is selected); PROGRAM_FILE_COMPILED_WITH, a source file a
 * compiled program's build takes in with the file holding its run (*run): a .go file of the Go
 * program's package directory (a _test.go aside), a .cs file at or below the .NET program's
 * directory, a .java file of the Java program's source tree. A link is the file it leads to. */
typedef enum { PROGRAM_FILE_NONE, PROGRAM_FILE_STACK_CONFIG, PROGRAM_FILE_COMPILED_WITH } program_file_role_t;
program_file_role_t session_file_role(arena_t *a, const char *path, workspace_t *pw, const char **run);
/* Why a whole file written at path by flag ("-o", "--report") would break the project it lies in —
 * its program or project file (session_file_is_program), a stack configuration or a source file of a
 * compiled program's build (session_file_role) — as a message naming the fix, for code (the code
 * written) or a report; NULL when nothing stands against it. Errors where the file's project cannot
 * be told (a Pulumi.json) go into diags. */
const char *session_whole_file_refusal(arena_t *a, const char *path, const char *flag, bool code, diag_list_t *diags);
/* The other files of the program that the file at path (of language lang) belongs to, read for the
 * resources they define (splicer_read_file with sp) into *out (arena a), so that a splice adds none of
 * them a second time (splice_options_t.program_files): Go's other .go files of that directory (its
 * package; not the _test.go ones), a .NET project's .cs files (from the directory of the nearest
 * .csproj at or above it, within its project; bin/ and obj/ left out), a Java source tree's .java files
 * (src/main/java, else the file's directory), and the local modules TypeScript and Python import — the
 * file's own (`modules`, as the splice read them from its text), the project's entry's (index.ts or
 * index.js, package.json's "main", __main__.py, or `main`) and what those import in turn. None for a
 * file not on disk or of Pulumi YAML. False with a diagnostic naming the file where one cannot be read
 * or parsed (what it defines is then unknown), and beyond SESSION_PROGRAM_FILES_MAX files or
 * SESSION_PROGRAM_BYTES_MAX bytes. */
enum { SESSION_PROGRAM_FILES_MAX = 1000 };
#define SESSION_PROGRAM_BYTES_MAX ((size_t)64 << 20)
bool session_program_others(arena_t *a, splicer_t *sp, const char *path, lang_t lang, const char *const *modules,
                            size_t n_modules, const splice_file_t **out, size_t *n_out, diag_list_t *diags);
/* A Java project's program (w's runtime java): the source file holding its Pulumi.run below the
 * project's directory (or `main`), as Maven and Gradle lay it out (src/main/java/<package>/App.java),
 * the first in name order; NULL when w is no Java project or none is found. */
const char *session_java_program(arena_t *a, const workspace_t *w);
/* The config keys a program's text reads (no project prefix; another namespace's keys left out):
 * YAML's top-level `config:` (or `configuration:`) keys; elsewhere the string literal a config
 * getter is called with (`config.require("k")`, `requireSecretObject<T>("k")`, `get_secret("k")`,
 * Go's `config.Require(ctx, "k")`, C#'s `GetInt32("k")`). Read from the text, so a getter of
 * another object of the same name counts too: a secret's new key then avoids it needlessly, never
 * the other way round. Returns the count; *out (arena a) NULL for none. */
size_t session_program_config_keys(arena_t *a, const char *text, size_t len, lang_t lang, const char *project,
                                   const char ***out);
/* session_commit's participant for the stack write: NULL when there is nothing to write. */
const txn_participant_t *session_stack_participant(import_session_t *s);

/* The `--json` results document (shape documented in README.md); secret values only with
 * show_secrets. */
cJSON *session_results_json(const import_session_t *s, bool show_secrets);
/* ... with the unified diff of the program or code file (--diff) as "programDiff", secrets cut out of it too. */
cJSON *session_results_json_diff(const import_session_t *s, bool show_secrets, const char *program_diff);
/* What the final Check + Diff established, for summary lines: "3 verified" with a provider;
 * offline "3 consistent with the schema (offline), none verified by a provider". Arena text. */
const char *session_checked_text(const import_session_t *s);
/* The resources that imported as neutral stack-state entries, for stackstate_merge (arena-owned). */
stackstate_resource_t *session_stack_resources(import_session_t *s, size_t *n);
/* Each package's default provider inputs as Pulumi records them, for stackstate_merge: the answer of the
 * provider's CheckConfig this run (secrets marked as in the configuration given), else the stack's
 * configuration as Pulumi gives it to the provider (session_t.stack_config). Arena-owned; NULL and 0 when
 * there is none. */
const stackstate_package_config_t *session_stack_config(import_session_t *s, size_t *n);
/* The unified diff of the program (or code file) before and after session_place_code; NULL when
 * nothing was placed. malloc'd. Unless show_secrets, as session_redact_old_secrets (results_json.h) leaves it. */
char *session_program_diff(const import_session_t *s);
/* How the code is spliced into the program at path (program.c): the same at staging, at commit where
 * another run changed the file since, and for the results document's program diff without secrets. */
splice_options_t session_splice_options(const import_session_t *s, const char *path);
/* After a commit that saved secret values: where they went, as a sentence (malloc'd), e.g. "2
 * secret values were encrypted into Pulumi.dev.yaml as `secure:` stack config …"; NULL when none. */
char *session_secrets_note(const import_session_t *s);

#endif
