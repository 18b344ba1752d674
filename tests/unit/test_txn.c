/* test_txn.c — committing a run's outputs together: whole-file writes and locked in-place updates,
 * all or nothing when an update fails, a hook stops the commit or a rename fails half way (old files
 * put back), a participant (the stack) prepared before the renames and undone after a later failure,
 * lock timeouts, a writer that ignores the lock (detected), 20 processes updating one file at once (no
 * update lost), no temporary, backup or lock file left behind, and the mark that tells a
 * transaction's write from an editor's. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/fileio.h"
#include "specs/filelock.h"
#include "specs/txn.h"
#include "testutil.h"

/* Names in dir other than the expected ones: leftovers (temporary, backup, lock files). */
static int count_entries(const char *dir) {
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    closedir(d);
    return n;
}

/* Appends the user's line to the file. */
static bool append_line(void *user, const char *path, const char *old, size_t old_len, char **out, size_t *out_len,
                        diag_list_t *diags) {
    const char *line = user;
    size_t n = strlen(line);
    *out = malloc(old_len + n + 1);
    if (old_len) memcpy(*out, old, old_len);
    memcpy(*out + old_len, line, n + 1);
    *out_len = old_len + n;
    return true;
}

static bool leave_alone(void *user, const char *path, const char *old, size_t old_len, char **out, size_t *out_len,
                        diag_list_t *diags) {
    return true;
}

static bool refuse(void *user, const char *path, const char *old, size_t old_len, char **out, size_t *out_len,
                   diag_list_t *diags) {
    diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL, "refused");
    return false;
}

/* An editor rewriting the file behind the lock while the update is computed. */
static bool edit_behind(void *user, const char *path, const char *old, size_t old_len, char **out, size_t *out_len,
                        diag_list_t *diags) {
    char tmp[600];
    snprintf(tmp, sizeof tmp, "%s.editor", path);
    tu_write(tmp, "editor's text\n");
    rename(tmp, path);
    return append_line("mine\n", path, old, old_len, out, out_len, diags);
}

START_TEST(test_commit_writes_and_updates) {
    char *dir = tu_mkdtemp();
    char a[512], b[512], c[512];
    snprintf(a, sizeof a, "%s/code.ts", dir);
    snprintf(b, sizeof b, "%s/stack.json", dir);
    snprintf(c, sizeof c, "%s/same.txt", dir);
    tu_write(b, "first\n");
    tu_write(c, "keep\n");
    chmod(b, 0640);
    struct stat before;
    stat(c, &before);
    /* What a writer killed mid-commit left beside b: removed by the next commit that holds b's lock. */
    char stale[600], stale_old[600];
    snprintf(stale, sizeof stale, "%s.cimport-tmp-AbC123", b);
    snprintf(stale_old, sizeof stale_old, "%s.cimport-tmp-XyZ789.old", b);
    tu_write(stale, "half");
    tu_write(stale_old, "first\n");
    txn_t *t = txn_new(NULL);
    txn_write(t, a, "code\n", 5, 0644, false);
    txn_update(t, b, 0600, false, append_line, "second\n");
    txn_update(t, c, 0600, false, leave_alone, NULL);
    ck_assert_uint_eq(txn_count(t), 3);
    diag_list_t d;
    diag_list_init(&d);
    ck_assert(txn_commit(t, &d));
    ck_assert_int_eq(d.errors, 0);
    ck_assert(txn_changed(t, 0) && txn_changed(t, 1) && !txn_changed(t, 2));
    txn_free(t);
    char *s = tu_read(a, NULL);
    ck_assert_str_eq(s, "code\n");
    free(s);
    s = tu_read(b, NULL);
    ck_assert_str_eq(s, "first\nsecond\n");
    free(s);
    struct stat st;
    stat(b, &st);
    ck_assert_int_eq(st.st_mode & 0777, 0640); /* an existing file keeps its mode */
    stat(a, &st);
    ck_assert_int_eq(st.st_mode & 0777, 0644);
    stat(c, &st);
    ck_assert(st.st_ino == before.st_ino && st.st_mtim.tv_nsec == before.st_mtim.tv_nsec); /* untouched */
    ck_assert_int_eq(count_entries(dir), 3);
    /* An in-place update marks what it wrote; a whole-file write and an editor's rewrite do not. */
    ck_assert(txn_last_written_by_txn(b));
    ck_assert(!txn_last_written_by_txn(a));
    ck_assert(!txn_last_written_by_txn(c));
    char editor[600];
    snprintf(editor, sizeof editor, "%s.swp", b);
    tu_write(editor, "first\nsecond\n"); /* the same text, as an editor saves it */
    rename(editor, b);
    ck_assert(!txn_last_written_by_txn(b));
    t = txn_new(NULL);
    txn_update(t, b, 0600, false, append_line, "third\n");
    ck_assert(txn_commit(t, &d));
    txn_free(t);
    ck_assert(txn_last_written_by_txn(b));
    FILE *f = fopen(b, "a"); /* an in-place append changes size and mtime */
    fputs("fourth\n", f);
    fclose(f);
    ck_assert(!txn_last_written_by_txn(b));
    diag_list_free(&d);
    tu_rmtree(dir);
    free(dir);
}
END_TEST

/* A borrowed text is written as it is (its exact length, no terminator needed) and left to its
 * owner: the transaction neither copies nor frees it (ASan would see a free of the stack array). */
/* A file given by a symbolic link (a program or stack kept elsewhere and linked into the project) is
 * written where the link points: the link stays a link and the file it names gets the new text, as
 * an editor saves it. Renaming over the link replaced it with a regular file and left the linked
 * file as it was. Also a link to a link, and one whose file does not exist yet. */
START_TEST(test_symlink_written_through) {
    char *dir = tu_mkdtemp();
    char sub[512], real[600], link1[512], link2[512], dangling[512], made[600];
    snprintf(sub, sizeof sub, "%s/real", dir);
    mkdir(sub, 0755);
    snprintf(real, sizeof real, "%s/index.ts", sub);
    snprintf(link1, sizeof link1, "%s/index.ts", dir);
    snprintf(link2, sizeof link2, "%s/again.ts", dir);
    snprintf(dangling, sizeof dangling, "%s/new.ts", dir);
    snprintf(made, sizeof made, "%s/made.ts", sub);
    tu_write(real, "first\n");
    ck_assert_int_eq(symlink("real/index.ts", link1), 0);
    ck_assert_int_eq(symlink("index.ts", link2), 0);
    ck_assert_int_eq(symlink("real/made.ts", dangling), 0);
    txn_t *t = txn_new(NULL);
    txn_update(t, link2, 0644, false, append_line, "second\n");
    txn_write(t, dangling, "new\n", 4, 0644, false);
    diag_list_t d;
    diag_list_init(&d);
    ck_assert(txn_commit(t, &d));
    txn_free(t);
    struct stat st;
    ck_assert(lstat(link1, &st) == 0 && S_ISLNK(st.st_mode));
    ck_assert(lstat(link2, &st) == 0 && S_ISLNK(st.st_mode));
    ck_assert(lstat(dangling, &st) == 0 && S_ISLNK(st.st_mode));
    char *s = tu_read(real, NULL);
    ck_assert_str_eq(s, "first\nsecond\n");
    free(s);
    s = tu_read(made, NULL);
    ck_assert_str_eq(s, "new\n");
    free(s);
    ck_assert_int_eq(count_entries(dir), 4); /* real/, three links: nothing left beside them */
    ck_assert_int_eq(count_entries(sub), 2);
    /* The same through file_write_atomic (stack checkpoints, reports, convert's -o). */
    diag_list_t d2;
    diag_list_init(&d2);
    ck_assert(file_write_atomic(link1, "third\n", 6, 0644, false, &d2));
    ck_assert(lstat(link1, &st) == 0 && S_ISLNK(st.st_mode));
    s = tu_read(real, NULL);
    ck_assert_str_eq(s, "third\n");
    free(s);
    diag_list_free(&d2);
    diag_list_free(&d);
    tu_rmtree(dir);
    free(dir);
}
END_TEST

START_TEST(test_write_borrowed) {
    char *dir = tu_mkdtemp();
    char path[512];
    snprintf(path, sizeof path, "%s/big.ts", dir);
    char text[] = "export const x = 1;\nTRAILING";
    txn_t *t = txn_new(NULL);
    txn_write_borrowed(t, path, text, strlen(text) - strlen("TRAILING"), 0644, false);
    diag_list_t d;
    diag_list_init(&d);
    ck_assert(txn_commit(t, &d));
    ck_assert(txn_changed(t, 0));
    txn_free(t);
    char *s = tu_read(path, NULL);
    ck_assert_str_eq(s, "export const x = 1;\n");
    free(s);
    ck_assert_str_eq(text, "export const x = 1;\nTRAILING");
    diag_list_free(&d);
    tu_rmtree(dir);
    free(dir);
}
END_TEST

START_TEST(test_failed_update_writes_nothing) {
    char *dir = tu_mkdtemp();
    char a[512], b[512];
    snprintf(a, sizeof a, "%s/a.txt", dir);
    snprintf(b, sizeof b, "%s/b.txt", dir);
    tu_write(b, "old b\n");
    txn_t *t = txn_new(NULL);
    txn_write(t, a, "new a\n", 6, 0644, false);
    txn_update(t, b, 0600, false, refuse, NULL);
    diag_list_t d;
    diag_list_init(&d);
    ck_assert(!txn_commit(t, &d));
    ck_assert_str_eq(d.head->message, "refused");
    txn_free(t);
    ck_assert(access(a, F_OK) != 0);
    char *s = tu_read(b, NULL);
    ck_assert_str_eq(s, "old b\n");
    free(s);
    ck_assert_int_eq(count_entries(dir), 1);
    /* Two outputs naming one file. */
    t = txn_new(NULL);
    txn_write(t, a, "x", 1, 0644, false);
    txn_write(t, a, "y", 1, 0644, false);
    ck_assert(!txn_commit(t, &d));
    ck_assert_str_eq(d.tail->message, "two outputs of this run name the same file: give each output its own file");
    txn_free(t);
    ck_assert(access(a, F_OK) != 0);
    ck_assert_int_eq(count_entries(dir), 1);
    diag_list_free(&d);
    tu_rmtree(dir);
    free(dir);
}
END_TEST

static bool stop_at(void *user, const char *path, const char *tmp) {
    return strstr(path, (const char *)user) == NULL;
}

/* Deletes the temporary file of the named target so that its rename fails after the others worked. */
static bool break_rename(void *user, const char *path, const char *tmp) {
    if (strstr(path, (const char *)user)) unlink(tmp);
    return true;
}

START_TEST(test_stop_and_rollback) {
    char *dir = tu_mkdtemp();
    char a[512], b[512], c[512];
    snprintf(a, sizeof a, "%s/a.txt", dir);
    snprintf(b, sizeof b, "%s/b.txt", dir);
    snprintf(c, sizeof c, "%s/c.txt", dir);
    tu_write(a, "old a\n");
    tu_write(b, "old b\n");
    for (int round = 0; round < 2; round++) {
        txn_options_t o;
        txn_options_default(&o);
        o.before_rename = round == 0 ? stop_at : break_rename;
        o.user = "c.txt"; /* staged last: a and b are renamed first in round 1 */
        txn_t *t = txn_new(&o);
        txn_update(t, a, 0600, false, append_line, "more a\n");
        txn_write(t, b, "new b\n", 6, 0644, false);
        txn_write(t, c, "new c\n", 6, 0644, false);
        diag_list_t d;
        diag_list_init(&d);
        ck_assert(!txn_commit(t, &d));
        ck_assert_int_eq(d.errors, 1);
        txn_free(t);
        char *s = tu_read(a, NULL);
        ck_assert_str_eq(s, "old a\n");
        free(s);
        s = tu_read(b, NULL);
        ck_assert_str_eq(s, "old b\n");
        free(s);
        ck_assert(access(c, F_OK) != 0);
        ck_assert_int_eq(count_entries(dir), 2); /* no temporary, backup or lock file */
        diag_list_free(&d);
    }
    tu_rmtree(dir);
    free(dir);
}
END_TEST

/* A participant (the selected stack) that records what the transaction asked of it. */
typedef struct fake_part {
    const char *watch; /* a target that must still hold its old text when prepare runs */
    const char *old;
    bool fail_prepare, fail_finish;
    int prepared, finished, undone;
    bool saw_old; /* prepare ran before any rename */
} fake_part_t;

static bool fp_prepare(void *user, diag_list_t *diags) {
    fake_part_t *p = user;
    char *s = tu_read(p->watch, NULL);
    p->saw_old = s && strcmp(s, p->old) == 0;
    free(s);
    if (p->fail_prepare) {
        diag_error(diags, DIAG_IO, "the stack cannot be written");
        return false;
    }
    p->prepared++;
    return true;
}
static bool fp_finish(void *user, diag_list_t *diags) {
    fake_part_t *p = user;
    if (p->fail_finish) {
        diag_error(diags, DIAG_IO, "the stack's transaction did not commit");
        return false;
    }
    p->finished++;
    return true;
}
static bool fp_undo(void *user, diag_list_t *diags) {
    (void)diags;
    ((fake_part_t *)user)->undone++;
    return true;
}

/* The participant commits with the files: prepared after every file is staged and before any
 * rename, finished after; a failure of either side leaves both as they were. */
START_TEST(test_participant) {
    char *dir = tu_mkdtemp();
    char a[512], b[512];
    snprintf(a, sizeof a, "%s/a.txt", dir);
    snprintf(b, sizeof b, "%s/c.txt", dir);
    enum { OK, FAIL_PREPARE, STOP, BREAK_RENAME, FAIL_FINISH, N_CASES };
    for (int k = 0; k < N_CASES; k++) {
        tu_write(a, "old a\n");
        unlink(b);
        fake_part_t fp = {
            .watch = a, .old = "old a\n", .fail_prepare = k == FAIL_PREPARE, .fail_finish = k == FAIL_FINISH};
        txn_options_t o;
        txn_options_default(&o);
        o.before_rename = k == STOP ? stop_at : k == BREAK_RENAME ? break_rename : NULL;
        o.user = "c.txt"; /* renamed after a.txt */
        txn_t *t = txn_new(&o);
        txn_update(t, a, 0600, false, append_line, "more a\n");
        txn_write(t, b, "new c\n", 6, 0644, false);
        txn_set_participant(t, &(txn_participant_t){fp_prepare, fp_finish, fp_undo, &fp});
        diag_list_t d;
        diag_list_init(&d);
        bool ok = txn_commit(t, &d);
        txn_free(t);
        ck_assert_msg(ok == (k == OK), "case %d", k);
        ck_assert_msg(fp.saw_old, "case %d: a file was renamed before the participant was prepared", k);
        ck_assert_int_eq(fp.prepared, k == FAIL_PREPARE ? 0 : 1);
        ck_assert_int_eq(fp.finished, k == OK ? 1 : 0);
        /* undone after a later failure; never when it failed itself or was finished */
        ck_assert_int_eq(fp.undone, k == STOP || k == BREAK_RENAME ? 1 : 0);
        char *s = tu_read(a, NULL);
        ck_assert_str_eq(s, k == OK ? "old a\nmore a\n" : "old a\n");
        free(s);
        ck_assert_int_eq(access(b, F_OK) == 0, k == OK);
        ck_assert_int_eq(count_entries(dir), k == OK ? 2 : 1); /* no temporary, backup or lock file */
        ck_assert_int_eq(d.errors, k == OK ? 0 : 1);
        diag_list_free(&d);
    }
    tu_rmtree(dir);
    free(dir);
}
END_TEST

START_TEST(test_lock_timeout_and_editor) {
    char *dir = tu_mkdtemp();
    char a[512];
    snprintf(a, sizeof a, "%s/stack.json", dir);
    tu_write(a, "old\n");
    diag_list_t d;
    diag_list_init(&d);
    file_lock_t *held = file_lock_acquire(a, 0, &d);
    ck_assert_ptr_nonnull(held);
    ck_assert(access(file_lock_path(held), F_OK) == 0);
    txn_options_t o;
    txn_options_default(&o);
    o.lock_timeout_ms = 200;
    txn_t *t = txn_new(&o);
    txn_update(t, a, 0600, false, append_line, "new\n");
    ck_assert(!txn_commit(t, &d));
    ck_assert_ptr_nonnull(strstr(d.head->message, "another writer holds the lock on this file"));
    ck_assert_ptr_nonnull(strstr(d.head->message, "within 0.2 s"));
    txn_free(t);
    file_lock_release(held);
    ck_assert_int_eq(count_entries(dir), 1);
    /* An editor that does not take the lock rewrites the file meanwhile: detected, its text kept. */
    t = txn_new(&o);
    txn_update(t, a, 0600, false, edit_behind, NULL);
    ck_assert(!txn_commit(t, &d));
    ck_assert_ptr_nonnull(strstr(d.tail->message, "the file changed while cimport was writing it"));
    txn_free(t);
    char *s = tu_read(a, NULL);
    ck_assert_str_eq(s, "editor's text\n");
    free(s);
    ck_assert_int_eq(count_entries(dir), 1);
    diag_list_free(&d);
    tu_rmtree(dir);
    free(dir);
}
END_TEST

/* 20 processes each add their line to two shared files in one transaction: every line lands. */
START_TEST(test_concurrent_writers) {
    char *dir = tu_mkdtemp();
    char a[512], b[512];
    snprintf(a, sizeof a, "%s/state.txt", dir);
    snprintf(b, sizeof b, "%s/program.txt", dir);
    enum { N = 20 };
    pid_t pids[N];
    for (int i = 0; i < N; i++) {
        pids[i] = fork();
        if (pids[i] == 0) {
            char line[32];
            snprintf(line, sizeof line, "writer %d\n", i);
            txn_options_t o;
            txn_options_default(&o);
            txn_t *t = txn_new(&o);
            /* Half stage the files in the other order: the commit locks in path order anyway. */
            if (i % 2) {
                txn_update(t, a, 0600, false, append_line, line);
                txn_update(t, b, 0600, false, append_line, line);
            } else {
                txn_update(t, b, 0600, false, append_line, line);
                txn_update(t, a, 0600, false, append_line, line);
            }
            diag_list_t d;
            diag_list_init(&d);
            bool ok = txn_commit(t, &d);
            txn_free(t);
            diag_list_free(&d);
            _exit(ok ? 0 : 1);
        }
    }
    for (int i = 0; i < N; i++) {
        int st;
        waitpid(pids[i], &st, 0);
        ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    }
    for (int f = 0; f < 2; f++) {
        char *s = tu_read(f ? b : a, NULL);
        int lines = 0;
        for (char *p = s; *p; p++)
            lines += *p == '\n';
        ck_assert_int_eq(lines, N);
        for (int i = 0; i < N; i++) {
            char line[32];
            snprintf(line, sizeof line, "writer %d\n", i);
            ck_assert_ptr_nonnull(strstr(s, line));
        }
        free(s);
    }
    ck_assert_int_eq(count_entries(dir), 2);
    tu_rmtree(dir);
    free(dir);
}
END_TEST

int main(void) {
    Suite *s = suite_create("txn");
    TCase *tc = tcase_create("txn");
    tcase_add_test(tc, test_commit_writes_and_updates);
    tcase_add_test(tc, test_failed_update_writes_nothing);
    tcase_add_test(tc, test_write_borrowed);
    tcase_add_test(tc, test_symlink_written_through);
    tcase_add_test(tc, test_stop_and_rollback);
    tcase_add_test(tc, test_participant);
    tcase_add_test(tc, test_lock_timeout_and_editor);
    tcase_add_test(tc, test_concurrent_writers);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
