/* import_cmd.c — the import command: runs the pipeline (pipeline.h), then shows progress and
 * diagnostics on stderr, the code on stdout or in --out, and the results document for --json.
 *
 * Nothing is written when the input is bad; files are written atomically; secret values never reach
 * stdout or stderr unless the user asks with --json --show-secrets. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/existing_refs.h"
#include "cli/outputs.h"
#include "cli/pipeline.h"
#include "cli/progress.h"
#include "cli/report_cmd.h"
#include "cli/target.h"
#include "importer/plugin_host.h"
#include "splice/review.h"
#include "splice/splice.h"
#include "base/fileio.h"
#include "specs/stackstate.h"

static void print_diags(diag_list_t *l) {
    for (diag_t *d = l->head; d; d = d->next)
        fprintf(stderr, "%s: %s\n", diag_severity_name(d->severity), diag_format(l, d));
}


static void print_json(cJSON *doc) {
    char *text = cJSON_Print(doc);
    fputs(text, stdout);
    fputc('\n', stdout);
    free(text);
    cJSON_Delete(doc);
}

/* The first SIGINT/SIGTERM (plugin_host_install_stop_handlers): the signal number. */
static volatile sig_atomic_t stop_signal;

void cli_install_stop_handlers(void) { plugin_host_install_stop_handlers(&stop_signal); }

int cli_run_import(cli_options_t *o) {
    /* The project, stack and backend, and where the import goes (cli/target.c). */
    import_target_t tgt;
    int prc;
    if (!target_prepare(o, &tgt, &prc)) {
        target_finish(&tgt);
        free(o->schemas);
        free(o->attach);
        free(o->config);
        return prc;
    }
    /* Where secrets go, and the passphrase checked against the stack, before anything runs. */
    outputs_secrets_t sec;
    {
        arena_t *na = arena_new();
        diag_list_t sd;
        diag_list_init(&sd);
        const char *stack, *project;
        pipeline_names(na, o, &stack, &project);
        bool ok = outputs_secrets_setup(&sec, o, stack, project, &sd);
        if (!ok) {
            print_diags(&sd);
            fprintf(stderr, "cimport: nothing was imported or written\n");
        }
        diag_list_free(&sd);
        arena_free(na);
        if (!ok) {
            outputs_secrets_free(&sec);
            target_finish(&tgt);
            free(o->schemas);
            free(o->attach);
            free(o->config);
            return EXIT_USAGE;
        }
        o->reserved_names = sec.reserved;
        o->n_reserved_names = sec.n_reserved;
        o->secrets_stored_in = sec.to_config ? sec.config_path : sec.file;
        o->keyring = sec.keyring; /* the stack's checkpoint (target_commit) is encrypted with it too */
    }
    outputs_t *out = NULL;
    bool committed = true;
    pipeline_t p;
    progress_options_t po;
    progress_options_default(&po);
    po.tty = isatty(2);
    po.quiet = o->quiet || o->json;
    progress_t *prog = progress_new(&po);
    pipeline_hooks_t hooks = {
        .on_result = progress_on_result, .on_tick = progress_on_tick, .user = prog, .stop = &stop_signal};
    bool quiet = po.quiet;
    int rc;
    /* Declared before the first goto: every exit path frees new_text. */
    const char *target = o->insert_into ? o->insert_into : o->out_path;
    char *old_text = NULL, *new_text = NULL;
    size_t old_len = 0, new_len = 0;
    bool changed = false, wrote_ok = true;
    /* With both --insert-into and --stack-state, resources the stack already has and the program
     * already declares become references to their variables instead of literals. */
    arena_t *refs_arena = arena_new();
    diag_list_t refs_diags;
    diag_list_init(&refs_diags);
    if (o->insert_into && o->stack_state && access(o->insert_into, R_OK) == 0) {
        size_t len;
        char *t = file_read_all(refs_arena, o->insert_into, &len, &refs_diags);
        if (t) {
            pcl_external_ref_t *refs = NULL;
            o->n_external_refs =
                existing_refs_collect(refs_arena, o->stack_state, t, len, o->language, &refs, &refs_diags);
            o->external_refs = refs;
        }
    }
    hooks.lean_results = tgt.mode != TARGET_STACK; /* the stack gets Read's inputs and the whole state */
    bool ran = pipeline_run(&p, o, tgt.file, &hooks);
    if (!quiet || diag_has_errors(&refs_diags)) print_diags(&refs_diags);
    progress_finish(prog);
    if (!ran) {
        /* Bad input: nothing ran, nothing is written. */
        if (o->json)
            print_json(pipeline_results_json(&p, o));
        else
            print_diags(&p.diags);
        rc = EXIT_USAGE;
        goto done;
    }
    const import_plan_t *plan = p.plan;
    if (!o->json) target_print_failures(&p);

    /* Into the selected stack first (preview, confirmation, lock held since target_prepare): when
     * that does not happen, no file is written either. */
    bool stack_failed = false;
    if (tgt.mode == TARGET_STACK && p.n_ok > 0 && !target_commit(o, &tgt, &p)) {
        stack_failed = true;
        print_diags(&p.diags);
        target_print_summary(o, &tgt, &p, false);
        rc = EXIT_USAGE;
        goto done;
    }

    /* The file the code goes to: --insert-into (spliced into the program there) or --out. */
    if (p.code && target) {
        bool exists = access(target, F_OK) == 0;
        if (o->insert_into || (o->diff && exists)) {
            old_text = file_read_all(p.arena, target, &old_len, &p.diags);
            if (!old_text) goto refused;
        }
        if (o->insert_into) {
            splice_options_t so = {.filename = target, .keep_existing = o->keep_existing};
            splice_stats_t st;
            memset(&st, 0, sizeof st);
            splicer_t *sp = splicer_new();
            bool ok = splicer_splice(sp, old_text, old_len, p.lang, p.code, strlen(p.code), &so, &new_text, &new_len,
                                     &changed, &st, &p.diags);
            splicer_free(sp);
            if (!ok) goto refused;
            if (!quiet)
                fprintf(stderr, "cimport: %s: %zu added, %zu replaced, %zu import%s added, %zu renamed%s\n", target,
                        st.inserted, st.replaced, st.imports_added, st.imports_added == 1 ? "" : "s", st.renamed,
                        changed ? "" : " (no change)");
        } else {
            new_text = strdup(p.code);
            new_len = strlen(p.code);
            changed = !old_text || old_len != new_len || memcmp(old_text, new_text, new_len) != 0;
        }
    }

    /* Write what was generated (never with --diff or --preview-only), as one transaction: the secrets,
     * the code or the spliced program, and the stack state — all of them or none. (A stack on a backend,
     * above, is committed first under its own lock.) */
    bool writes = !o->preview_only && !o->diff;
    out = outputs_new(o->lock_wait_ms);
    if (writes && p.code) {
        outputs_stage_secrets(out, &sec, &p.gen);
        if (o->insert_into)
            outputs_stage_program(out, o->insert_into, p.lang, o->keep_existing, old_text, old_len, new_text, new_len,
                                  p.code);
        else if (o->out_path)
            outputs_stage_code(out, o->out_path, p.code);
    }
    if (writes && o->stack_state && p.n_ok > 0) {
        size_t n_res;
        stackstate_resource_t *res = target_stack_resources(&p, &n_res);
        outputs_stage_stack_state(out, o->stack_state, p.stack, p.project, res, n_res, &sec, o->secrets_b64);
    }
    committed = outputs_commit(out, &p.diags);
    wrote_ok = committed;
    const stackstate_report_t *rep = committed ? outputs_state_report(out) : NULL;
    if (rep && !o->quiet && !o->json)
        fprintf(stderr, "cimport: %s %s: %zu resource%s added, %zu already there%s\n",
                rep->created_file ? "created" : "updated", o->stack_state, rep->n_added, rep->n_added == 1 ? "" : "s",
                rep->n_same, rep->created_file ? "" : " (existing resources untouched)");
    char *program_diff = NULL;
    if ((o->diff || (o->report_path && o->insert_into)) && new_text)
        program_diff = review_unified_diff(target, old_text ? old_text : "", old_len, new_text, new_len);
    if (o->diff && program_diff) fputs(program_diff, stdout);
    /* --report: the review page, also with --diff and --preview-only (report_cmd.c). */
    if (o->report_path && !cli_write_import_report(o, &p, o->insert_into ? program_diff : NULL, quiet))
        wrote_ok = false;
    free(program_diff);
    if (o->json)
        print_json(pipeline_results_json(&p, o));
    else if (p.code && !target && wrote_ok)
        fputs(p.code, stdout);
    if (!o->json) print_diags(&p.diags);

    if (o->preview_only && !o->quiet)
        fprintf(stderr, "cimport: preview only: nothing was written%s\n",
                p.gen.n_secrets ? " (secret values were not saved; run again without --preview-only)" : "");
    if (!o->json && !o->quiet && committed && p.gen.n_secrets > 0 && writes && p.code) {
        if (sec.to_config) {
            fprintf(stderr,
                    "note: %zu secret value%s encrypted into %s as `secure:` stack config (passphrase secrets "
                    "provider); the code reads %s from there\n",
                    p.gen.n_secrets, p.gen.n_secrets == 1 ? " was" : "s were", sec.config_path,
                    p.gen.n_secrets == 1 ? "it" : "them");
        } else {
            char *step = outputs_secrets_next_step(&sec);
            fprintf(stderr,
                    "note: %zu secret value%s moved out of the code into stack config; the values are in %s (readable "
                    "only by you). Store them in the stack's config (needs jq; no value goes on a command line):\n%s\n"
                    "  or set PULUMI_CONFIG_PASSPHRASE (a passphrase stack) and run again: cimport then encrypts them "
                    "into %s itself\n",
                    p.gen.n_secrets, p.gen.n_secrets == 1 ? " was" : "s were", sec.file, step, sec.config_path);
            free(step);
        }
    }
    size_t n_failed = plan->n_items - p.n_ok;
    (void)stack_failed;
    /* One summary line: where the import went, or, when no output could be written, that none was. */
    if (committed) target_print_summary(o, &tgt, &p, wrote_ok);
    if (stop_signal) {
        /* Stopped by SIGINT/SIGTERM: what finished was written as usual (each file atomically). */
        fprintf(stderr,
                "cimport: stopped by %s: %zu of %zu resources finished, %zu not imported (cancelled or never "
                "started)%s\n",
                stop_signal == SIGINT ? "SIGINT" : "SIGTERM", plan->n_items - p.stats.stopped, plan->n_items,
                p.stats.stopped,
                o->json ? "; run again with --resume on this run's --json output to import the rest"
                        : "; run again (with --json to keep results for --resume) to import the rest");
        rc = 128 + stop_signal;
        goto done;
    }
    if (!committed && !quiet)
        fprintf(stderr, "cimport: read %zu of %zu resources (%s), but nothing was written (see above)\n", p.n_ok,
                plan->n_items, pipeline_checked_text(&p));
    if (!committed)
        rc = EXIT_USAGE; /* an output could not be written: none was */
    else if (p.n_ok == 0)
        rc = EXIT_ALL_FAILED;
    else if (n_failed > 0 || diag_has_errors(&p.diags) || !wrote_ok || (o->generate_code && !p.code))
        rc = EXIT_SOME_FAILED;
    else if (o->diff)
        rc = changed ? EXIT_CHANGES_PENDING : EXIT_ALL_OK;
    else
        rc = EXIT_ALL_OK;
    goto done;
refused:
    /* The target program cannot take the code (syntax errors, encoding, unreadable): nothing written. */
    print_diags(&p.diags);
    rc = EXIT_USAGE;
done:
    outputs_free(out);
    outputs_secrets_free(&sec);
    o->keyring = NULL;
    free(new_text);
    pipeline_free(&p);
    target_finish(&tgt);
    diag_list_free(&refs_diags);
    arena_free(refs_arena);
    progress_free(prog);
    free(o->schemas);
    free(o->attach);
    free(o->config);
    return rc;
}
