/* import_cmd.c — the import command: a front end of the import session (session/session.h). It
 * decides where the import goes (target.c), fills the session's options from the command line,
 * and renders what the session reports: progress and diagnostics on stderr, the code on stdout or
 * in --out, the results document for --json, the summary with the next step.
 *
 * Nothing is written when the input is bad; files are written atomically; secret values never reach
 * stdout or stderr unless the user asks with --json --show-secrets. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/dynlib.h"
#include "cli/cli.h"
#include "cli/progress.h"
#include "cli/report_cmd.h"
#include "cli/target.h"
#include "importer/plugin_host.h"
#include "session/results_json.h"
#include "session/session.h"

static void print_json(cJSON *doc) {
    char *text = cJSON_Print(doc);
    fputs(text, stdout);
    fputc('\n', stdout);
    free(text);
    cJSON_Delete(doc);
}

/* Every run ends with the next step to take (issue 16); a run stopped by what it reports: this. */
static void print_next_fix(const cli_options_t *o) {
    if (!o->quiet && !o->json) fputs("next: fix what is reported above and run cimport again\n", stderr);
}

/* The first SIGINT/SIGTERM (plugin_host_install_stop_handlers): the signal number. */
static volatile sig_atomic_t stop_signal;

void cli_install_stop_handlers(void) {
    plugin_host_install_stop_handlers(&stop_signal);
}

void cli_session_options(const cli_options_t *o, session_options_t *so) {
    session_options_default(so);
    so->spec_path = o->spec_path;
    so->inline_type = o->inline_type;
    so->inline_name = o->inline_name;
    so->inline_id = o->inline_id;
    so->parent = o->parent;
    so->provider = o->provider;
    so->properties = o->properties;
    so->offline_state = o->offline_state;
    so->schemas = o->schemas;
    so->n_schemas = o->n_schemas;
    so->attach = o->attach;
    so->n_attach = o->n_attach;
    so->config = o->config;
    so->n_config = o->n_config;
    so->config_file = o->config_file;
    so->timeout_ms = o->timeout_ms;
    so->start_timeout_ms = o->start_timeout_ms;
    so->stack = o->stack;
    so->stack_ref = o->stack_ref;
    so->project = o->project;
    so->language = o->language;
    so->language_set = o->language_set;
    so->inputs = o->inputs;
    so->max_rounds = o->max_rounds;
    so->ignore_residual = o->ignore_residual;
    so->parallel = o->parallel;
    so->resume = o->resume;
    so->protect = o->protect;
    so->generate_code = o->generate_code;
    so->import_option = o->import_option;
    so->secrets = o->secrets;
    so->out_path = o->out_path;
    so->stream_code = true; /* the code is printed only without --out; --json keeps whole results */
    so->insert_into = o->insert_into;
    so->keep_existing = o->keep_existing;
    so->stack_state = o->stack_state;
    so->secrets_b64 = o->secrets_b64;
    so->secrets_plaintext = o->secrets_plaintext;
    so->secrets_dir = o->secrets_dir;
    so->secrets_file = o->secrets_file;
    so->lock_wait_ms = o->lock_wait_ms;
    so->diff = o->diff;
    so->preview_only = o->preview_only;
    so->show_secrets = o->show_secrets;
    so->report_path = o->report_path;
}

/* The session's events on stderr. */
typedef struct render {
    const cli_options_t *o;
    progress_t *prog;
    bool quiet; /* --quiet or --json */
} render_t;

static void on_event(void *user, const session_event_t *ev) {
    render_t *r = user;
    const splice_stats_t *st = ev->splice;
    const stackstate_report_t *rep = ev->state;
    switch (ev->kind) {
    case SESSION_EVENT_RESULT: progress_on_result(r->prog, ev->result, ev->done, ev->total); break;
    case SESSION_EVENT_TICK: progress_on_tick(r->prog, ev->done, ev->failed, ev->in_flight, ev->total); break;
    case SESSION_EVENT_SPLICED:
        /* nothing replaced when nothing changed: the counts would say "5 replaced" of identical code */
        if (!r->quiet && !ev->changed)
            fprintf(stderr, "cimport: %s: no change: it holds this code already\n", ev->path);
        else if (!r->quiet)
            fprintf(stderr, "cimport: %s: %zu added, %zu replaced, %zu import%s added, %zu renamed%s\n", ev->path,
                    st->inserted, st->replaced, st->imports_added, st->imports_added == 1 ? "" : "s", st->renamed,
                    r->o->diff           ? " (--diff: not written)"
                    : r->o->preview_only ? " (--preview-only: not written)"
                                         : "");
        break;
    case SESSION_EVENT_STATE_MERGED:
        if (r->o->quiet || r->o->json) break;
        if (!rep->created_file && rep->n_added == 0) { /* the document is left byte for byte as it was */
            char all[64] = "the resource";
            if (rep->n_same != 1) snprintf(all, sizeof all, "all %zu resources", rep->n_same);
            fprintf(stderr, "cimport: %s: no change: it records %s already\n", ev->path, all);
        } else
            fprintf(stderr, "cimport: %s %s: %zu resource%s added, %zu already there%s\n",
                    rep->created_file ? "created" : "updated", ev->path, rep->n_added, rep->n_added == 1 ? "" : "s",
                    rep->n_same, rep->created_file ? "" : " (existing resources untouched)");
        break;
    case SESSION_EVENT_STACK_LOCK_WAIT:
        if (!r->o->quiet)
            fprintf(stderr, "cimport: the stack is locked by another process, waiting for it:%s\n", ev->holder);
        break;
    }
}

/* Where the secret values went, and for a secrets file how to move them into the stack config. */
static void print_secrets_note(const import_session_t *s) {
    char *note = session_secrets_note(s);
    if (!note) return;
    fprintf(stderr, "note: %s\n", note);
    if (!s->secrets.to_config && s->secrets.config_provider) /* a passphrase would not help: it is another */
        fprintf(stderr,
                "  cimport cannot encrypt for this stack's secrets provider (%s, in %s): store the values with the "
                "commands above, which use it\n",
                s->secrets.config_provider, s->secrets.config_path);
    else if (!s->secrets.to_config && s->secrets.config_path)
        fprintf(stderr,
                "  or set PULUMI_CONFIG_PASSPHRASE (a passphrase stack) and run again: cimport then encrypts them "
                "into %s itself\n",
                s->secrets.config_path);
    else if (!s->secrets.to_config) /* no stack: the commands above need one selected too */
        fprintf(stderr, "  no stack is selected: select the stack the code is for (`pulumi stack select NAME`) before "
                        "storing them; or select it, set PULUMI_CONFIG_PASSPHRASE (a passphrase stack) and run again: "
                        "cimport then encrypts them into its stack config itself\n");
    free(note);
}

/* A run whose outputs could not all be written: none was, the stack included — or, when a stack write
 * could not be taken back, that it was not. */
static void print_nothing_written(const import_target_t *tgt, const import_session_t *s) {
    bool stack = tgt->mode == TARGET_STACK && s->stack_store;
    fprintf(stderr, "cimport: read %zu of %zu resources (%s), but ", s->n_ok, s->plan->n_items,
            session_checked_text(s));
    if (stack && s->stack_undo_failed)
        fprintf(stderr, "no file was written, and the write to the stack %s could not be taken back (see above)\n",
                stack_store_describe(s->stack_store));
    else if (stack && stack_store_unconfirmed(s->stack_store)) /* accepted, its outcome not seen */
        fprintf(stderr,
                "no file was written, and whether the import into the stack %s landed is not known (%s; see "
                "above)\n",
                stack_store_describe(s->stack_store), stack_store_unconfirmed(s->stack_store));
    else if (stack)
        fprintf(stderr, "nothing was written (see above): the stack %s is as it was\n",
                stack_store_describe(s->stack_store));
    else
        fputs("nothing was written (see above)\n", stderr);
}

/* A run refused before its outputs were staged (the stack's merge or confirmation, a program that
 * cannot take the code): nothing is written — the --report page neither, being one of the outputs —
 * but --json still gives what was read, and says nothing was written, as after a refused write;
 * else the reasons on stderr. */
static void print_refused_results(const cli_options_t *o, const import_target_t *tgt, import_session_t *s) {
    if (!o->json) {
        diag_list_print(&s->diags, stderr);
        return;
    }
    cJSON *doc = session_results_json(s, o->show_secrets);
    results_json_set_written(doc, false);
    if (tgt->declined) results_json_set_declined(doc);
    print_json(doc);
}

/* After the run: the stack, the outputs, what is printed, and the exit code. */
static int finish(const cli_options_t *o, import_target_t *tgt, import_session_t *s, bool quiet) {
    const import_plan_t *plan = s->plan;
    if (!o->json) target_print_failures(s);

    /* The selected stack: the merge, its preview and the confirmation (the lock is held since
     * target_prepare); nothing is written yet. When the stack is not to be written, no file is. */
    if ((tgt->mode == TARGET_STACK || tgt->preview_stack) && s->n_ok > 0 && !target_plan(o, tgt, s)) {
        print_refused_results(o, tgt, s);
        target_print_summary(o, tgt, s, false);
        return EXIT_USAGE;
    }
    /* The code into --out, or spliced into the program of --insert-into, in memory. */
    if (!session_place_code(s, NULL, &s->diags)) {
        /* The target program cannot take the code (syntax errors, encoding, unreadable): nothing written. */
        print_refused_results(o, tgt, s);
        if (!quiet) print_nothing_written(tgt, s);
        print_next_fix(o);
        return EXIT_USAGE;
    }
    /* whether this run writes its outputs: --diff and --preview-only write nothing on purpose, and a
     * refused write (exit 2) writes none, the report page included; `imported` counts what was read
     * either way */
    bool writes = !o->diff && !o->preview_only && s->n_ok > 0; /* a run that imported nothing wrote nothing */
    /* --report: the review page, also with --diff and --preview-only (report_cmd.c), written with
     * the other outputs: a page that cannot be written leaves everything as it was. */
    char *program_diff = o->diff || (o->report_path && o->insert_into) ? session_program_diff(s) : NULL;
    if ((o->diff || (o->report_path && o->insert_into)) && s->new_text && !program_diff) {
        /* no diff is not "no change": the review cannot be shown, so nothing is written */
        const char *why = dynlib_git2_error();
        diag_add(&s->diags, DIAG_ERROR, DIAG_IO, s->code_target, NULL, "cannot compute the review diff: %s",
                 *why ? why : "libgit2 failed (out of memory)");
        diag_list_print(&s->diags, stderr);
        if (!quiet) print_nothing_written(tgt, s);
        return EXIT_USAGE;
    }
    /* into a stack that holds every resource read already, with no file to write: nothing is; for a
     * stack export the page learns which resources it records already from its merge run now */
    if (o->report_path && writes) session_preview_stack_state(s);
    if (o->report_path && !cli_stage_import_report(o, s, o->insert_into ? program_diff : NULL,
                                                   writes && session_writes_something(s, false), &s->diags)) {
        free(program_diff);
        diag_list_print(&s->diags, stderr);
        if (!quiet) print_nothing_written(tgt, s);
        print_next_fix(o);
        return EXIT_USAGE;
    }
    /* One transaction: the files (code, program, stack config, secrets file, stack export, report)
     * and the selected stack, which is written once the files are staged and taken back if one then
     * fails. */
    bool committed = session_commit(s, &s->diags);
    bool written = committed && writes && session_writes_something(s, true);
    /* --json: one document on stdout, the diff in it */
    if (o->diff && program_diff && !o->json) fputs(program_diff, stdout);
    for (size_t i = 0; committed && !quiet && i < s->n_diff_files; i++)
        fprintf(stderr, "cimport: --diff: a run without it would also write %s (not shown)\n", s->diff_files[i]);
    if (committed && o->report_path && !quiet) fprintf(stderr, "cimport: wrote the import report %s\n", o->report_path);
    if (o->json) {
        cJSON *doc = session_results_json_diff(s, o->show_secrets, o->diff ? program_diff : NULL);
        results_json_set_written(doc, written);
        print_json(doc);
    } else if (s->code && !s->code_target && committed)
        fputs(s->code, stdout);
    free(program_diff);
    if (!o->json) diag_list_print(&s->diags, stderr);

    if (o->preview_only && !o->quiet)
        fprintf(stderr, "cimport: preview only: nothing was written%s\n",
                s->gen.n_secrets ? " (secret values were not saved; run again without --preview-only)" : "");
    if (!o->json && !o->quiet) print_secrets_note(s);
    size_t n_failed = plan->n_items - s->n_ok;
    /* One summary line: where the import went, or, when no output could be written, that none was. */
    if (committed) target_print_summary(o, tgt, s, true);
    /* --from: the source still records what was imported; destroying it there would delete it */
    if (committed && o->from && s->n_ok > 0 && !o->quiet && !o->json && !o->diff && !o->preview_only)
        fprintf(stderr,
                strcmp(o->from, "terraform") == 0
                    ? "note: %s still records these resources: once Pulumi manages them, remove them there without "
                      "deleting them (`terraform state rm ADDRESS`), or a `terraform destroy` deletes them\n"
                    : "note: %s still records these resources: once Pulumi manages them here, remove them there "
                      "without deleting them (`pulumi state delete URN` in that stack), or its `pulumi destroy` "
                      "deletes them\n",
                o->from_file);
    if (stop_signal) {
        /* Stopped by SIGINT/SIGTERM: what finished was written as usual (each file atomically). */
        fprintf(stderr,
                "cimport: stopped by %s: %zu of %zu resources finished, %zu not imported (cancelled or never "
                "started)\nnext: %s\n",
                stop_signal == SIGINT ? "SIGINT" : "SIGTERM", plan->n_items - s->stats.stopped, plan->n_items,
                s->stats.stopped,
                o->json ? "run again with --resume on this run's --json output to import the rest"
                        : "run again (with --json to keep results for --resume) to import the rest");
        return 128 + stop_signal;
    }
    if (!committed && !quiet) print_nothing_written(tgt, s);
    if (!committed) { /* an output could not be written: none was */
        if (tgt->mode == TARGET_STACK && stack_store_unconfirmed(s->stack_store) && !o->quiet && !o->json)
            fputs("next: check the stack's updates (see above), then run cimport again\n", stderr);
        else
            print_next_fix(o);
        return EXIT_USAGE;
    }
    if (s->n_ok == 0) return EXIT_ALL_FAILED;
    if (n_failed > 0 || diag_has_errors(&s->diags) || (o->generate_code && !session_has_code(s)))
        return EXIT_SOME_FAILED;
    if (s->n_recorded_differ) return EXIT_SOME_FAILED; /* the code changes resources the stack holds (warned) */
    /* the stack is not read under --diff: whether it holds them already is not known, so not "no change" */
    if (o->diff) return s->changed || s->n_diff_files || tgt->diff_of_stack ? EXIT_CHANGES_PENDING : EXIT_ALL_OK;
    return EXIT_ALL_OK;
}

int cli_run_import(cli_options_t *o) {
    /* The project, stack and backend, and where the import goes (cli/target.c). */
    import_target_t tgt;
    int rc;
    if (!target_prepare(o, &tgt, &rc)) {
        print_next_fix(o);
        goto out;
    }
    diag_list_print(&tgt.diags, stderr); /* --from: what the conversion left out (never silently) */
    progress_options_t po;
    progress_options_default(&po);
    po.tty = isatty(2);
    po.quiet = o->quiet || o->json;
    progress_t *prog = progress_new(&po);
    render_t render = {.o = o, .prog = prog, .quiet = po.quiet};
    session_options_t so;
    cli_session_options(o, &so);
    so.on_event = on_event;
    so.user = &render;
    so.stop = &stop_signal;
    so.lean_results = !o->json;
    if (tgt.mode == TARGET_STACK || tgt.preview_stack)
        so.into_stack = &tgt.ws; /* the session opens, merges and writes it (a preview: reads and merges it) */
    if (tgt.ws.have_project) so.project_file = tgt.ws.project_file; /* its `config:` block */
    so.service_secrets = tgt.ws.backend == BACKEND_CLOUD;
    so.no_stack_reason = tgt.mode == TARGET_CODE_ONLY ? "--code-only" : tgt.why_not_stack;
    so.left_out = tgt.not_converted;
    so.n_left_out = tgt.n_not_converted;
    import_session_t s;
    session_init(&s, &so);
    /* Where secrets go, and the passphrase checked against the stack, before anything runs. */
    diag_list_t sd;
    diag_list_init(&sd);
    if (!target_open_stack(o, &tgt, &s)) {
        print_next_fix(o);
        rc = EXIT_USAGE;
    } else if (!session_prepare(&s, &sd)) {
        diag_list_print(&sd, stderr);
        fprintf(stderr, "cimport: nothing was imported or written\n");
        print_next_fix(o);
        rc = EXIT_USAGE;
    } else {
        bool ran = session_run(&s, tgt.file);
        if (!po.quiet || diag_has_errors(&s.refs_diags)) diag_list_print(&s.refs_diags, stderr);
        progress_finish(prog);
        if (ran) {
            rc = finish(o, &tgt, &s, po.quiet);
            /* --from left resources out: not every resource of the state was imported */
            if (rc == EXIT_ALL_OK && tgt.n_not_converted) rc = EXIT_SOME_FAILED;
        } else {
            /* Bad input: nothing ran, nothing is written. */
            if (o->json)
                print_json(session_results_json(&s, o->show_secrets));
            else
                diag_list_print(&s.diags, stderr);
            print_next_fix(o);
            rc = EXIT_USAGE;
        }
    }
    diag_list_free(&sd);
    diag_list_init(&sd);
    session_stack_close(&s, &sd); /* the stack's lock released */
    diag_list_print(&sd, stderr);
    diag_list_free(&sd);
    session_free(&s);
    progress_free(prog);
out:
    target_finish(&tgt);
    free(o->schemas);
    free(o->attach);
    free(o->config);
    return rc;
}
