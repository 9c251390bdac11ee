/*
 * runner: one timed, optionally sampled run of a command (runner.h).
 *
 * The child is held on a pipe between fork and exec so that the sampler
 * can attach to it before it runs a single instruction of the command; a
 * second, close-on-exec pipe carries errno back when exec fails, so that
 * "command not found" is an error of pv-collect, not a run that failed.
 * The child is waited for on a pidfd (poll(2) with the time left before
 * its timeout), which ends the wait at the exit without a signal handler.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
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

/*
 * The processes of the runs: the descendants of this process, from the
 * parent of each process in /proc/PID/stat.  Signal the living ones
 * (not zombies) with sig, when sig is not 0, and return their number.
 */
struct proc {
	pid_t pid, ppid;
	char state;
	int mine;
};

static int
read_stat(const char *name, struct proc *p)
{
	char path[64], buf[512];
	const char *paren;
	int fd, ppid;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%s/stat", name);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* "PID (COMM) S PPID ...": COMM may hold spaces and parentheses */
	if ((paren = strrchr(buf, ')')) == NULL ||
	    sscanf(paren + 1, " %c %d", &p->state, &ppid) != 2)
		return -1;
	p->pid = (pid_t)atol(buf);
	p->ppid = (pid_t)ppid;
	p->mine = 0;
	return 0;
}

static unsigned
descendants(int sig)
{
	struct proc *v = NULL;
	size_t n = 0, alloc = 0, i;
	pid_t self = getpid();
	unsigned count = 0;
	struct dirent *de;
	int changed;
	DIR *d;

	if ((d = opendir("/proc")) == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		PV_GROW(v, n + 1, alloc);
		if (read_stat(de->d_name, &v[n]) == 0)
			n++;
	}
	closedir(d);
	/* the closure of "child of self or of a marked process" */
	do {
		changed = 0;
		for (i = 0; i < n; i++) {
			size_t j;

			if (v[i].mine)
				continue;
			if (v[i].ppid == self) {
				v[i].mine = changed = 1;
				continue;
			}
			for (j = 0; j < n; j++)
				if (v[j].mine && v[j].pid == v[i].ppid) {
					v[i].mine = changed = 1;
					break;
				}
		}
	} while (changed);
	for (i = 0; i < n; i++) {
		if (!v[i].mine || v[i].state == 'Z' || v[i].state == 'X')
			continue;
		count++;
		if (sig != 0) {
			kill(v[i].pid, sig);
			/* a stopped process takes its TERM when continued */
			if (sig == SIGTERM)
				kill(v[i].pid, SIGCONT);
		}
	}
	free(v);
	return count;
}

static void
nap(void)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

/*
 * The state of a run's wait: its command's pid, and once reaped its wait
 * status and resource use.
 */
struct run {
	pid_t pid;
	int reaped, status;
	struct rusage ru;
};

/* Reap what has exited, without waiting; the command's status is kept. */
static void
reap(struct run *r)
{
	struct rusage ru;
	pid_t p;
	int st;

	while ((p = wait4(-1, &st, WNOHANG, &ru)) > 0)
		if (p == r->pid) {
			r->reaped = 1;
			r->status = st;
			r->ru = ru;
		}
}

/*
 * End every process of the run: TERM, then KILL those still there after
 * grace seconds (and those they started meanwhile), each reaped; a
 * process that does not go even so (stuck in the kernel) is left after
 * five more seconds.  Returns the number of processes that were running.
 */
static unsigned
end_all(struct run *r, double grace)
{
	unsigned n = descendants(SIGTERM);
	double deadline = now() + grace;
	int i;

	if (n == 0) {
		reap(r);
		return 0;
	}
	for (;;) {
		reap(r);
		if (descendants(0) == 0)
			goto done;
		if (now() >= deadline)
			break;
		nap();
	}
	for (i = 0; i < 500; i++) {
		descendants(SIGKILL);
		nap();
		reap(r);
		if (descendants(0) == 0)
			break;
	}
done:
	/* those that became zombies since the last reap: all ours now */
	reap(r);
	return n;
}

/*
 * Wait until the command has exited (leaving it to be reaped), it was
 * interrupted by *stop, or deadline (0: none) has passed, reading the
 * sampler's rings meanwhile.  Returns 1 when it has exited, 0 at the
 * deadline, -1 when the sampler failed.
 */
static int
wait_exit(struct run *r, int pidfd, struct pv_sampler *s,
	  volatile sig_atomic_t *stop, int *interrupted, double deadline)
{
	siginfo_t si;
	int ms;

	for (;;) {
		if (stop != NULL && *stop && !*interrupted) {
			*interrupted = 1;
			kill(r->pid, SIGINT);
		}
		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, (id_t)r->pid, &si, WEXITED | WNOHANG |
			   WNOWAIT) == 0 && si.si_pid == r->pid)
			return 1;
		ms = -1;
		if (deadline > 0) {
			double left = deadline - now();

			if (left <= 0)
				return 0;
			ms = left > 3600 ? 3600000 : (int)(left * 1000) + 1;
		}
		/* without a pidfd (before Linux 5.3), look every 20 ms */
		if (pidfd < 0 && (ms < 0 || ms > 20))
			ms = 20;
		if (s != NULL) {
			if (pv_sampler_poll(s, pidfd, ms) < 0)
				return -1;
		} else if (pidfd >= 0) {
			struct pollfd pfd = { pidfd, POLLIN, 0 };

			poll(&pfd, 1, ms);
		} else {
			struct timespec ts = { 0, ms * 1000L * 1000L };

			nanosleep(&ts, NULL);
		}
	}
}

int
pv_runner_subreaper(struct pv_err *err)
{
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0)
		return pv_err_set_errno(err, errno, "cannot become the "
					"subreaper of the runs");
	return 0;
}

int
pv_runner_run(char *const argv[], const char *outpath, const char *errpath,
	      const struct pv_run_opts *opts, struct pv_run_result *res,
	      struct pv_err *err)
{
	static const struct pv_run_opts defaults = PV_RUN_OPTS_INIT;
	struct pv_sampler *sampler;
	volatile sig_atomic_t *stop;
	int out, efd, go[2], report[2], e, pidfd, sampler_failed = 0;
	double t0, grace;
	struct run r;
	ssize_t n;
	pid_t pid;

	if (opts == NULL)
		opts = &defaults;
	sampler = opts->sampler;
	stop = opts->stop;
	grace = opts->grace > 0 ? opts->grace : 5;
	memset(res, 0, sizeof(*res));
	memset(&r, 0, sizeof(r));
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
	r.pid = pid;
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
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (!sampler_failed) {
		int rc = wait_exit(&r, pidfd, sampler, stop,
				   &res->interrupted, opts->timeout > 0 ?
				   t0 + opts->timeout : 0);

		if (rc < 0) {
			pv_err_set(err, "%s", pv_sampler_error(sampler));
			sampler_failed = 1;
			kill(pid, SIGKILL);
		} else if (rc == 0) {
			res->timed_out = 1;
			end_all(&r, grace);
		}
	}
	if (pidfd >= 0)
		close(pidfd);
	while (!r.reaped) {
		if (stop != NULL && *stop && !res->interrupted) {
			res->interrupted = 1;
			kill(pid, SIGINT);
		}
		if (wait4(pid, &r.status, 0, &r.ru) >= 0)
			r.reaped = 1;
		else if (errno != EINTR)
			return fail(err, "cannot wait for", argv[0]);
	}
	res->wall = now() - t0;
	if (sampler != NULL && !sampler_failed &&
	    pv_sampler_detach(sampler) != 0) {
		pv_err_set(err, "%s", pv_sampler_error(sampler));
		sampler_failed = 1;
		sampler = NULL;
	}
	/* what the command left running: daemons, background jobs */
	res->leftover = end_all(&r, grace);
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
	res->status = r.status;
	res->user = (double)r.ru.ru_utime.tv_sec +
		(double)r.ru.ru_utime.tv_usec / 1e6;
	res->sys = (double)r.ru.ru_stime.tv_sec +
		(double)r.ru.ru_stime.tv_usec / 1e6;
	res->maxrss = r.ru.ru_maxrss;
	return 0;
}

int
pv_runner_ok(const struct pv_run_result *res)
{
	return !res->interrupted && !res->timed_out &&
		WIFEXITED(res->status) &&
		WEXITSTATUS(res->status) == 0;
}

void
pv_runner_describe(const struct pv_run_result *res, struct pv_strbuf *sb)
{
	if (res->interrupted)
		pv_strbuf_addstr(sb, "interrupted");
	else if (res->timed_out)
		pv_strbuf_addstr(sb, "timed out");
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
		   const char *level, int warmup, uint64_t n,
		   const char *what)
{
	pv_strbuf_addf(sb, "%s/", dir);
	if (level != NULL)
		pv_strbuf_addf(sb, "level-%s-", level);
	pv_strbuf_addf(sb, "%s-%03llu.%s", warmup ? "warmup" : "run",
		       (unsigned long long)n, what);
}
