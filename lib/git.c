/*
 * git: git(1) as a subprocess.  fork and execvp with the arguments as they
 * are: no shell sees them, so names with spaces or quotes are safe.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "git.h"
#include "xalloc.h"

/* Start git with args; *fd reads its stdout.  Returns the pid or -1. */
static pid_t
start(const char *const *args, int *fd)
{
	const char *argv[16];
	int p[2], devnull;
	size_t n;
	pid_t pid;

	argv[0] = "git";
	for (n = 0; args[n] != NULL; n++) {
		if (n + 2 >= sizeof(argv) / sizeof(argv[0])) {
			errno = E2BIG;
			return -1;
		}
		argv[n + 1] = args[n];
	}
	argv[n + 1] = NULL;
	if (pipe(p) < 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		/* the child: stdout to the pipe, stderr to /dev/null */
		devnull = open("/dev/null", O_RDWR);
		if (devnull >= 0) {
			dup2(devnull, 0);
			dup2(devnull, 2);
		}
		dup2(p[1], 1);
		close(p[0]);
		close(p[1]);
		signal(SIGPIPE, SIG_DFL);
		execvp("git", (char *const *)argv);
		_Exit(127);
	}
	close(p[1]);
	*fd = p[0];
	return pid;
}

static int
finish(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(status)) {
		if (WEXITSTATUS(status) == 127) {
			errno = ENOENT;
			return -1;
		}
		return WEXITSTATUS(status);
	}
	errno = EINTR;
	return -1;
}

int
pv_git_run(const char *const *args, struct pv_strbuf *out)
{
	char buf[4096];
	ssize_t n;
	int fd, rc;
	pid_t pid = start(args, &fd);

	if (pid < 0)
		return -1;
	pv_strbuf_reset(out);
	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		pv_strbuf_add(out, buf, (size_t)n);
	}
	close(fd);
	rc = finish(pid);
	return rc;
}

/* Run git; on success, out holds its output's first line. */
static int
one_line(const char *const *args, struct pv_strbuf *out)
{
	char *nl;

	if (pv_git_run(args, out) != 0)
		return -1;
	nl = memchr(out->buf, '\n', out->len);
	if (nl != NULL)
		pv_strbuf_setlen(out, (size_t)(nl - out->buf));
	return out->len > 0 ? 0 : -1;
}

int
pv_git_commit(const char *name, struct pv_strbuf *out)
{
	struct pv_strbuf arg = PV_STRBUF_INIT;
	const char *args[] = { "rev-parse", "--verify", "--quiet",
			       "--end-of-options", NULL, NULL };
	int rc;

	/* a name starting with '-' would read as an option */
	if (name[0] == '-')
		return -1;
	pv_strbuf_addf(&arg, "%s^{commit}", name);
	args[4] = arg.buf;
	rc = one_line(args, out);
	pv_strbuf_release(&arg);
	return rc;
}

int
pv_git_branch(struct pv_strbuf *out)
{
	const char *args[] = { "symbolic-ref", "--quiet", "--short", "HEAD",
			       NULL };

	return one_line(args, out);
}

int
pv_git_toplevel(struct pv_strbuf *out)
{
	const char *args[] = { "rev-parse", "--show-toplevel", NULL };

	return one_line(args, out);
}

int
pv_git_ancestors(const char *commit,
		 int (*fn)(const char *id, void *arg), void *arg)
{
	const char *args[] = { "rev-list", "--topo-order", commit, NULL };
	struct pv_strbuf line = PV_STRBUF_INIT;
	char buf[4096];
	ssize_t n;
	int fd, rc = 0, status;
	pid_t pid = start(args, &fd);

	if (pid < 0)
		return -1;
	while (rc == 0) {
		char *p, *nl;

		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		pv_strbuf_add(&line, buf, (size_t)n);
		p = line.buf;
		while (rc == 0 &&
		       (nl = memchr(p, '\n', line.len - (size_t)(p - line.buf)))
		       != NULL) {
			*nl = '\0';
			rc = fn(p, arg);
			p = nl + 1;
		}
		memmove(line.buf, p, line.len - (size_t)(p - line.buf));
		pv_strbuf_setlen(&line, line.len - (size_t)(p - line.buf));
	}
	close(fd);	/* git may die of SIGPIPE now: that is expected */
	status = finish(pid);
	pv_strbuf_release(&line);
	if (rc != 0)
		return rc;
	return status == 0 ? 0 : -1;
}
