/*
 * runner: one timed, optionally sampled run of a command (runner.h).
 *
 * The child is held on a pipe between fork and exec so that the sampler
 * can attach to it before it runs a single instruction of the command; a
 * second, close-on-exec pipe carries errno back when exec fails, so that
 * "command not found" is an error of pv-collect, not a run that failed.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runner.h"
#include "sampler.h"
#include "strbuf.h"
#include "xalloc.h"

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int
open_output(const char *path)
{
	if (path == NULL)
		return open("/dev/null", O_WRONLY | O_CLOEXEC);
	return open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}

/* In the child, between fork and exec: async-signal-safe calls only. */
static void
child(char *const argv[], const int go[2], const int report[2], int out,
      int err)
{
	int null = open("/dev/null", O_RDONLY);
	char c;
	int e;

	/* the parent's ends: the release is the end of file on go */
	close(go[1]);
	close(report[0]);
	if (null < 0 || dup2(null, 0) < 0 || dup2(out, 1) < 0 ||
	    dup2(err, 2) < 0)
		goto fail;
	/* the default actions: pv-collect catches SIGINT */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	while (read(go[0], &c, 1) < 0 && errno == EINTR)
		;
	execvp(argv[0], argv);
fail:
	e = errno;
	if (write(report[1], &e, sizeof(e)) < 0)
		_Exit(127);
	_Exit(127);
}

/* "WHAT 'NAME': strerror(errno)" in err; returns -1 */
static int
fail(struct pv_err *err, const char *what, const char *name)
{
	return pv_err_set_errno(err, errno, "%s '%s'", what, name);
}

/* Wait for the child, reading the sampler's rings meanwhile. */
static int
wait_sampled(pid_t pid, struct pv_sampler *s, volatile sig_atomic_t *stop,
	     int *interrupted)
{
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	siginfo_t si;
	int rc;

	for (;;) {
		if (stop != NULL && *stop && !*interrupted) {
			*interrupted = 1;
			kill(pid, SIGINT);
		}
		rc = pv_sampler_poll(s, pidfd, pidfd >= 0 ? -1 : 20);
		if (rc < 0)
			break;
		if (rc > 0)
			break;
		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG |
			   WNOWAIT) == 0 && si.si_pid == pid)
			break;
	}
	if (pidfd >= 0)
		close(pidfd);
	return rc < 0 ? -1 : 0;
}

int
pv_runner_run(char *const argv[], const char *outpath, const char *errpath,
	      struct pv_sampler *sampler, volatile sig_atomic_t *stop,
	      struct pv_run_result *res, struct pv_err *err)
{
	int out, efd, go[2], report[2], status, e, sampler_failed = 0;
	struct rusage ru;
	double t0;
	ssize_t n;
	pid_t pid;

	memset(res, 0, sizeof(*res));
	if ((out = open_output(outpath)) < 0)
		return fail(err, "cannot create", outpath);
	if ((efd = open_output(errpath)) < 0) {
		close(out);
		return fail(err, "cannot create", errpath);
	}
	if (pipe2(go, O_CLOEXEC) != 0 || pipe2(report, O_CLOEXEC) != 0) {
		close(out);
		close(efd);
		return fail(err, "cannot run", argv[0]);
	}
	pid = fork();
	if (pid < 0) {
		e = errno;
		close(out);
		close(efd);
		close(go[0]);
		close(go[1]);
		close(report[0]);
		close(report[1]);
		errno = e;
		return fail(err, "cannot run", argv[0]);
	}
	if (pid == 0)
		child(argv, go, report, out, efd);
	close(out);
	close(efd);
	close(go[0]);
	close(report[1]);
	if (sampler != NULL && pv_sampler_attach(sampler, pid) != 0) {
		pv_err_set(err, "%s", pv_sampler_error(sampler));
		sampler_failed = 1;
		kill(pid, SIGKILL);
	}
	t0 = now();
	close(go[1]);	/* the child execs */
	while ((n = read(report[0], &e, sizeof(e))) < 0 && errno == EINTR)
		;
	close(report[0]);
	if (sampler != NULL && !sampler_failed &&
	    wait_sampled(pid, sampler, stop, &res->interrupted) != 0) {
		pv_err_set(err, "%s", pv_sampler_error(sampler));
		sampler_failed = 1;
		kill(pid, SIGKILL);
	}
	for (;;) {
		if (stop != NULL && *stop && !res->interrupted) {
			res->interrupted = 1;
			kill(pid, SIGINT);
		}
		if (wait4(pid, &status, 0, &ru) >= 0)
			break;
		if (errno != EINTR)
			return fail(err, "cannot wait for", argv[0]);
	}
	res->wall = now() - t0;
	if (sampler != NULL && !sampler_failed &&
	    pv_sampler_detach(sampler) != 0) {
		pv_err_set(err, "%s", pv_sampler_error(sampler));
		return -1;
	}
	if (sampler_failed) {
		if (sampler != NULL)
			pv_sampler_detach(sampler);
		return -1;
	}
	if (n == (ssize_t)sizeof(e)) {
		errno = e;
		return fail(err, "cannot run", argv[0]);
	}
	if (stop != NULL && *stop)
		res->interrupted = 1;
	res->status = status;
	res->user = (double)ru.ru_utime.tv_sec +
		(double)ru.ru_utime.tv_usec / 1e6;
	res->sys = (double)ru.ru_stime.tv_sec +
		(double)ru.ru_stime.tv_usec / 1e6;
	res->maxrss = ru.ru_maxrss;
	return 0;
}

int
pv_runner_ok(const struct pv_run_result *res)
{
	return !res->interrupted && WIFEXITED(res->status) &&
		WEXITSTATUS(res->status) == 0;
}

void
pv_runner_describe(const struct pv_run_result *res, struct pv_strbuf *sb)
{
	if (res->interrupted)
		pv_strbuf_addstr(sb, "interrupted");
	else if (WIFEXITED(res->status) && WEXITSTATUS(res->status) == 0)
		pv_strbuf_addstr(sb, "ok");
	else if (WIFEXITED(res->status))
		pv_strbuf_addf(sb, "exit status %d",
			       WEXITSTATUS(res->status));
	else if (WIFSIGNALED(res->status))
		pv_strbuf_addf(sb, "killed by signal %d (%s)",
			       WTERMSIG(res->status),
			       sigabbrev_np(WTERMSIG(res->status)) != NULL ?
			       sigabbrev_np(WTERMSIG(res->status)) : "?");
	else
		pv_strbuf_addf(sb, "wait status %d", res->status);
}

char **
pv_runner_expand(char *const argv[], const char *level)
{
	size_t n = 0, i;
	char **v;

	while (argv[n] != NULL)
		n++;
	v = pv_xcalloc(n + 1, sizeof(*v));
	for (i = 0; i < n; i++) {
		struct pv_strbuf sb = PV_STRBUF_INIT;
		const char *p = argv[i], *q;

		while (level != NULL && (q = strstr(p, "{N}")) != NULL) {
			pv_strbuf_add(&sb, p, (size_t)(q - p));
			pv_strbuf_addstr(&sb, level);
			p = q + 3;
		}
		pv_strbuf_addstr(&sb, p);
		v[i] = pv_strbuf_detach(&sb, NULL);
	}
	return v;
}

void
pv_runner_free_argv(char **argv)
{
	size_t i;

	if (argv == NULL)
		return;
	for (i = 0; argv[i] != NULL; i++)
		free(argv[i]);
	free(argv);
}

void
pv_runner_artifact(struct pv_strbuf *sb, const char *dir,
		   const char *experiment, int warmup, uint64_t n,
		   const char *what)
{
	pv_strbuf_addf(sb, "%s/%s-%s-%03llu.%s", dir, experiment,
		       warmup ? "warmup" : "run",
		       (unsigned long long)n, what);
}
