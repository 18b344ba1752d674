/* import_cmd.c — the import command: runs the pipeline (pipeline.h), then shows progress and
 * diagnostics on stderr, the code on stdout or in --out, and the results document for --json.
 *
 * Nothing is written when the input is bad; files are written atomically; secret values never reach
 * stdout or stderr unless the user asks with --json --show-secrets. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/existing_refs.h"
#include "cli/pipeline.h"
#include "cli/progress.h"
#include "cli/report_cmd.h"
#include "cli/target.h"
#include "emitters/review.h"
#include "emitters/splice.h"
#include "specs/fileio.h"
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

/* --stack-state: the imported resources (and the import file's explicit providers) merged into a
 * stack export, as `pulumi import` would have stored them: Read's inputs and state. */
static bool write_stack_state(const cli_options_t *o, pipeline_t *p) {
    size_t n;
    stackstate_resource_t *res = target_stack_resources(p, &n);
    stackstate_options_t so;
    stackstate_options_default(&so);
    stackstate_report_t rep;
    memset(&rep, 0, sizeof rep);
    bool ok = stackstate_merge(o->stack_state, p->stack, p->project, res, n, &so, &rep, &p->diags);
    if (ok && !o->quiet && !o->json)
        fprintf(stderr, "cimport: %s %s: %zu resource%s added, %zu already there%s\n",
                rep.created_file ? "created" : "updated", o->stack_state, rep.n_added, rep.n_added == 1 ? "" : "s",
                rep.n_same, rep.created_file ? "" : " (existing resources untouched)");
    stackstate_report_free(&rep);
    return ok;
}

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
    pipeline_t p;
    progress_options_t po;
    progress_options_default(&po);
    po.tty = isatty(2);
    po.quiet = o->quiet || o->json;
    progress_t *prog = progress_new(&po);
    pipeline_hooks_t hooks = {.on_result = progress_on_result, .on_tick = progress_on_tick, .user = prog};
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

    /* Write what was generated (never with --diff or --preview-only): secrets first (the code refers
     * to them), then the code. */
    bool writes = p.code && !o->preview_only && !o->diff;
    if (writes) {
        wrote_ok = pipeline_write_secrets(o, &p.gen, &p.diags);
        if (wrote_ok && o->insert_into && changed)
            wrote_ok = splice_write_file(o->insert_into, old_text, old_len, new_text, new_len, &p.diags);
        else if (wrote_ok && o->out_path)
            wrote_ok = file_write_atomic(o->out_path, p.code, strlen(p.code), 0644, false, &p.diags);
    }
    if (o->stack_state && p.n_ok > 0 && !write_stack_state(o, &p)) wrote_ok = false;
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
    if (!o->json && wrote_ok && p.gen.n_secrets > 0 && writes) {
        fprintf(stderr,
                "note: %zu secret value%s moved out of the code into stack config; the values are in %s/ (readable "
                "only by you). Store them with:\n",
                p.gen.n_secrets, p.gen.n_secrets == 1 ? " was" : "s were", o->secrets_dir);
        for (size_t i = 0; i < p.gen.n_secrets; i++)
            fprintf(stderr, "  pulumi config set --secret %s < %s/%s\n", p.gen.secrets[i].config_key, o->secrets_dir,
                    p.gen.secrets[i].config_key);
    }
    size_t n_failed = plan->n_items - p.n_ok;
    (void)stack_failed;
    target_print_summary(o, &tgt, &p, wrote_ok);
    if (p.n_ok == 0)
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
