/*
 * Unit tests of lib/runner: argument expansion, artifact names, running a
 * command (its times, its output files, exit status and signals), a
 * command that cannot be started, one past its timeout, and the processes
 * a command leaves behind.
 */
#include "config.h"

#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runner.h"
#include "strbuf.h"

static char dir[] = "/tmp/check_runner.XXXXXX";

static void
setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void
teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}

START_TEST(expand)
{
	char *argv[] = { "stress-ng", "--cpu", "{N}", "-x{N}y{N}", "{M}",
			 NULL };
	char **v = pv_runner_expand(argv, "16");

	ck_assert_str_eq(v[0], "stress-ng");
	ck_assert_str_eq(v[2], "16");
	ck_assert_str_eq(v[3], "-x16y16");
	ck_assert_str_eq(v[4], "{M}");
	ck_assert_ptr_null(v[5]);
	pv_runner_free_argv(v);
	v = pv_runner_expand(argv, NULL);
	ck_assert_str_eq(v[2], "{N}");
	pv_runner_free_argv(v);
}
END_TEST

START_TEST(artifact)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;

	pv_runner_artifact(&sb, "art/x", "4", 0, 7, "stdout");
	ck_assert_str_eq(sb.buf, "art/x/level-4-run-007.stdout");
	pv_strbuf_reset(&sb);
	pv_runner_artifact(&sb, "a", NULL, 1, 1234, "stderr");
	ck_assert_str_eq(sb.buf, "a/warmup-1234.stderr");
	pv_strbuf_release(&sb);
}
END_TEST

static char *
slurp(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n;

	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

START_TEST(run_ok)
{
	struct pv_err msg;
	char out[64], err[64];
	char *argv[] = { "sh", "-c", "echo out; echo err >&2; "
			 "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done",
			 NULL };
	struct pv_run_result res;
	struct pv_strbuf sb = PV_STRBUF_INIT;

	snprintf(out, sizeof(out), "%s/o", dir);
	snprintf(err, sizeof(err), "%s/e", dir);
	ck_assert_int_eq(pv_runner_run(argv, out, err, NULL, &res, &msg), 0);
	ck_assert(pv_runner_ok(&res));
	ck_assert_str_eq(slurp(out), "out\n");
	ck_assert_str_eq(slurp(err), "err\n");
	ck_assert(res.wall > 0);
	ck_assert(res.user + res.sys > 0);
	ck_assert(res.user + res.sys <= res.wall * 2 + 0.05);
	ck_assert(res.maxrss > 0);
	pv_runner_describe(&res, &sb);
	ck_assert_str_eq(sb.buf, "ok");
	pv_strbuf_release(&sb);
}
END_TEST

START_TEST(run_failed)
{
	struct pv_err msg;
	char *argv[] = { "sh", "-c", "exit 3", NULL };
	char *kill9[] = { "sh", "-c", "kill -9 $$", NULL };
	struct pv_run_result res;
	struct pv_strbuf sb = PV_STRBUF_INIT;

	ck_assert_int_eq(pv_runner_run(argv, NULL, NULL, NULL, &res, &msg), 0);
	ck_assert(!pv_runner_ok(&res));
	pv_runner_describe(&res, &sb);
	ck_assert_str_eq(sb.buf, "exit status 3");
	ck_assert_int_eq(pv_runner_run(kill9, NULL, NULL, NULL, &res, &msg), 0);
	pv_strbuf_reset(&sb);
	pv_runner_describe(&res, &sb);
	ck_assert_str_eq(sb.buf, "killed by signal 9 (KILL)");
	pv_strbuf_release(&sb);
}
END_TEST

START_TEST(run_missing)
{
	struct pv_err msg;
	char out[80];
	char *argv[] = { "/nonexistent/pv-no-such-command", NULL };
	char *ok[] = { "true", NULL };
	struct pv_run_result res;

	ck_assert_int_eq(pv_runner_run(argv, NULL, NULL, NULL, &res, &msg), -1);
	ck_assert_str_eq(pv_err_msg(&msg), "cannot run "
			 "'/nonexistent/pv-no-such-command': "
			 "No such file or directory");
	snprintf(out, sizeof(out), "%s/no/such/dir", dir);
	ck_assert_int_eq(pv_runner_run(ok, out, NULL, NULL, &res, &msg), -1);
	ck_assert(strstr(pv_err_msg(&msg), "cannot create") ==
		  pv_err_msg(&msg));
}
END_TEST

START_TEST(run_stop)
{
	struct pv_err msg;
	char *argv[] = { "sleep", "5", NULL };
	volatile sig_atomic_t stop = 1;
	struct pv_run_opts ro = PV_RUN_OPTS_INIT;
	struct pv_run_result res;

	ro.stop = &stop;
	ck_assert_int_eq(pv_runner_run(argv, NULL, NULL, &ro, &res, &msg), 0);
	ck_assert(res.interrupted);
	ck_assert(!pv_runner_ok(&res));
}
END_TEST

/* A command past its timeout: TERM, and the run goes on to the next. */
START_TEST(run_timeout)
{
	struct pv_err msg;
	char *argv[] = { "sleep", "30", NULL };
	char *deaf[] = { "sh", "-c", "trap '' TERM; sleep 30", NULL };
	struct pv_run_opts ro = PV_RUN_OPTS_INIT;
	struct pv_run_result res;
	struct pv_strbuf sb = PV_STRBUF_INIT;

	ro.timeout = 0.3;
	ck_assert_int_eq(pv_runner_run(argv, NULL, NULL, &ro, &res, &msg), 0);
	ck_assert(res.timed_out);
	ck_assert(!pv_runner_ok(&res));
	ck_assert(res.wall >= 0.3 && res.wall < 10);
	pv_runner_describe(&res, &sb);
	ck_assert_str_eq(sb.buf, "timed out");
	/* TERM ignored: KILL after the grace time, sleep with it */
	ro.grace = 0.2;
	ck_assert_int_eq(pv_runner_run(deaf, NULL, NULL, &ro, &res, &msg), 0);
	ck_assert(res.timed_out);
	ck_assert(WIFSIGNALED(res.status));
	ck_assert_int_eq(WTERMSIG(res.status), SIGKILL);
	ck_assert(res.wall < 10);
	ck_assert_uint_eq(res.leftover, 0);
	pv_strbuf_release(&sb);
}
END_TEST

/*
 * A daemon (setsid, its parent gone) outlives the command: it is ended
 * when the command exits, and counted; the run itself is ok.
 */
START_TEST(run_leftover)
{
	struct pv_err msg;
	char pidfile[80], script[256];
	char *argv[] = { "sh", "-c", script, NULL };
	struct pv_run_opts ro = PV_RUN_OPTS_INIT;
	struct pv_run_result res;
	long pid;
	FILE *f;

	ck_assert_int_eq(pv_runner_subreaper(&msg), 0);
	snprintf(pidfile, sizeof(pidfile), "%s/pid", dir);
	snprintf(script, sizeof(script), "setsid sh -c 'trap \"\" TERM; "
		 "sleep 30' </dev/null >/dev/null 2>&1 & echo $! >%s; "
		 "sleep 0.2", pidfile);
	ro.grace = 0.2;
	ck_assert_int_eq(pv_runner_run(argv, NULL, NULL, &ro, &res, &msg), 0);
	ck_assert(pv_runner_ok(&res));
	ck_assert_uint_ge(res.leftover, 1);
	f = fopen(pidfile, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fscanf(f, "%ld", &pid), 1);
	fclose(f);
	ck_assert_int_eq(kill((pid_t)pid, 0), -1);
	/* nothing left: the next run finds none */
	ck_assert_int_eq(pv_runner_run((char *[]){ "true", NULL }, NULL, NULL,
				       &ro, &res, &msg), 0);
	ck_assert_uint_eq(res.leftover, 0);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("runner");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, expand);
	tcase_add_test(tc, artifact);
	tcase_add_test(tc, run_ok);
	tcase_add_test(tc, run_failed);
	tcase_add_test(tc, run_missing);
	tcase_add_test(tc, run_stop);
	tcase_add_test(tc, run_timeout);
	tcase_add_test(tc, run_leftover);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
