/* test_fileio.c — whole-file reads and atomic writes: new files, replacement, modes, failures that
 * leave the old file intact, and targets that are not regular files (never replaced). */
#include <check.h>
#include <glob.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/fileio.h"
#include "importer/plugin.h"
#include "specs/txn.h"
#include "testutil.h"

START_TEST(test_write_new_and_replace) {
    char *dir = tu_mkdtemp();
    char path[512];
    snprintf(path, sizeof path, "%s/out.ts", dir);
    diag_list_t d;
    diag_list_init(&d);
    ck_assert(file_write_atomic(path, "one\n", 4, 0640, false, &d));
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0640);
    chmod(path, 0600);
    ck_assert(file_write_atomic(path, "two\n", 4, 0644, false, &d)); /* existing mode kept */
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0600);
    char *text = tu_read(path, NULL);
    ck_assert_str_eq(text, "two\n");
    free(text);
    ck_assert(file_write_atomic(path, "three", 5, 0644, true, &d)); /* forced mode */
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0644);
    ck_assert_int_eq(d.errors, 0);
    diag_list_free(&d);
    tu_rmtree(dir);
    free(dir);
}
END_TEST

START_TEST(test_failures_leave_nothing) {
    char *dir = tu_mkdtemp();
    char path[512];
    diag_list_t d;
    diag_list_init(&d);
    snprintf(path, sizeof path, "%s/no/such/dir/out.ts", dir);
    ck_assert(!file_write_atomic(path, "x", 1, 0644, false, &d));
    ck_assert_int_eq(d.errors, 1);
    ck_assert_ptr_nonnull(strstr(d.head->message, "cannot create a temporary file beside it"));
    /* a directory as the target is refused, and stays a directory */
    ck_assert(!file_write_atomic(dir, "x", 1, 0644, false, &d));
    ck_assert_str_eq(d.tail->message, "is a directory: name a file to write");
    struct stat st;
    ck_assert(stat(dir, &st) == 0 && S_ISDIR(st.st_mode));
    diag_list_free(&d);
    tu_rmtree(dir);
    free(dir);
}
END_TEST

/* `-o /dev/null` must write into the device, not rename a regular file over it. */
START_TEST(test_device_written_in_place) {
    diag_list_t d;
    diag_list_init(&d);
    ck_assert(file_write_atomic("/dev/null", "discard me", 10, 0644, false, &d));
    struct stat st;
    ck_assert_int_eq(stat("/dev/null", &st), 0);
    ck_assert(S_ISCHR(st.st_mode));
    ck_assert_int_eq(d.errors, 0);
    diag_list_free(&d);
}
END_TEST

/* The process is stopped for good (a second Ctrl-C) while its temporary file is complete: the
 * handler that kills it removes the file first, so nothing is left beside the user's file. */
static bool second_stop_signal(void *user, const char *tmp) {
    (void)user;
    (void)tmp;
    raise(SIGINT); /* the first: only noted */
    raise(SIGINT); /* the second: fatal */
    return true;
}

static bool second_stop_signal_txn(void *user, const char *path, const char *tmp) {
    (void)path;
    return second_stop_signal(user, tmp);
}

static size_t count_temps(const char *dir) {
    char pat[1200];
    snprintf(pat, sizeof pat, "%s/*.cimport-tmp-*", dir);
    glob_t g;
    size_t n = glob(pat, 0, NULL, &g) == 0 ? g.gl_pathc : 0;
    if (n) globfree(&g);
    return n;
}

static volatile sig_atomic_t stop_flag;

START_TEST(test_killed_mid_write_leaves_no_temp) {
    char *dir = tu_mkdtemp();
    char path[1100];
    snprintf(path, sizeof path, "%s/out.ts", dir);
    ck_assert(tu_write(path, "old\n"));
    for (int via_txn = 0; via_txn < 2; via_txn++) {
        pid_t pid = fork();
        ck_assert_int_ge(pid, 0);
        if (pid == 0) {
            plugin_install_stop_handlers(&stop_flag);
            diag_list_t d;
            diag_list_init(&d);
            if (via_txn) {
                txn_options_t o;
                txn_options_default(&o);
                o.before_rename = second_stop_signal_txn;
                txn_t *t = txn_new(&o);
                txn_write(t, path, "new\n", 4, 0644, false);
                txn_commit(t, &d);
            } else {
                file_write_atomic_hooked(path, "new\n", 4, 0644, false, second_stop_signal, NULL, NULL, &d);
            }
            _exit(0); /* not reached: the second SIGINT kills */
        }
        int status = 0;
        ck_assert_int_eq(waitpid(pid, &status, 0), pid);
        ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT);
        ck_assert_msg(count_temps(dir) == 0, "%s: a temporary file is left beside out.ts",
                      via_txn ? "txn_commit" : "file_write_atomic");
        char *text = tu_read(path, NULL);
        ck_assert_str_eq(text, "old\n"); /* killed before the rename: the old file whole */
        free(text);
    }
    tu_rmtree(dir);
    free(dir);
}
END_TEST

START_TEST(test_read_errors) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    ck_assert_ptr_null(file_read_all(a, "/nonexistent/imports.json", NULL, &d));
    ck_assert_str_eq(d.head->message, "cannot read the file: No such file or directory");
    ck_assert_str_eq(d.head->file, "/nonexistent/imports.json");
    ck_assert_ptr_null(file_read_all(a, "/tmp", NULL, &d));
    ck_assert_str_eq(d.tail->message, "is a directory, not a file");
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

/* ~/.pulumi is the account's home directory's, as Pulumi's pulumihome.Dir (os/user.Current: the password
 * database's entry before $HOME), not $HOME's (read16 F4): the plugin cache too. */
START_TEST(test_user_home_is_the_accounts) {
    struct passwd *pw = getpwuid(getuid());
    if (!pw || !pw->pw_dir || !*pw->pw_dir) return; /* no entry: $HOME is the fallback, as Go's */
    char *entry = strdup(pw->pw_dir);
    const char *old_home = getenv("HOME"), *old_ph = getenv("PULUMI_HOME");
    char *saved_home = old_home ? strdup(old_home) : NULL, *saved_ph = old_ph ? strdup(old_ph) : NULL;
    arena_t *a = arena_new();
    setenv("HOME", "/nonexistent/elsewhere", 1);
    unsetenv("PULUMI_HOME");
    ck_assert_str_eq(file_user_home(a), entry);
    ck_assert_str_eq(plugin_cache_dir(a, NULL), arena_sprintf(a, "%s/.pulumi/plugins", entry));
    setenv("PULUMI_HOME", "/ph", 1);
    ck_assert_str_eq(plugin_cache_dir(a, NULL), "/ph/plugins");
    if (saved_home)
        setenv("HOME", saved_home, 1);
    else
        unsetenv("HOME");
    if (saved_ph)
        setenv("PULUMI_HOME", saved_ph, 1);
    else
        unsetenv("PULUMI_HOME");
    free(saved_home);
    free(saved_ph);
    free(entry);
    arena_free(a);
}
END_TEST

int main(void) {
    Suite *s = suite_create("fileio");
    TCase *tc = tcase_create("fileio");
    tcase_add_test(tc, test_write_new_and_replace);
    tcase_add_test(tc, test_failures_leave_nothing);
    tcase_add_test(tc, test_device_written_in_place);
    tcase_add_test(tc, test_read_errors);
    tcase_add_test(tc, test_killed_mid_write_leaves_no_temp);
    tcase_add_test(tc, test_user_home_is_the_accounts);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
