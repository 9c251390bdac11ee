/*
 * failsys: an LD_PRELOAD fault injector for the system calls that change
 * files, in the manner of SQLite's crash tests: write, ftruncate, fsync,
 * fchmod, flock, mkdir, mkdirat, link, linkat, rename, renameat, unlink,
 * unlinkat, and open and openat when they create (O_CREAT).  Every call of these by the program itself
 * (not by libc on its own behalf, which does not go through these
 * symbols) is a point, counted from 1 in the order they come.
 *
 * PV_FAULT=N picks point N; PV_FAULT_MODE says what happens there:
 *   fail   the call is not made and fails: ENOSPC for write, ftruncate,
 *          fsync, the mkdirs, links, renames and creating opens, EIO for
 *          fchmod and the unlinks, ENOLCK for flock (another errno with
 *          PV_FAULT_ERRNO=NUMBER)
 *   short  for write: half the bytes are written, and their count
 *          returned, as when the disk fills up in the middle (other
 *          calls: as fail)
 *   kill   the process kills itself with SIGKILL before the call
 *   after  the call is made, then the process kills itself with SIGKILL
 * PV_FAULT_COUNT=FILE writes the number of points at exit;
 * PV_FAULT_TRACE=FILE appends a line for each point ("N NAME"), and
 * PV_FAULT_HIT=FILE the name of the call at point N when it comes.
 *
 * The environment is cleared of LD_PRELOAD at start, so that programs
 * the tool runs (git) are not counted.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

static unsigned long fault_at;	/* 0: never */
static unsigned long npoints;
static int mode;		/* 'f'ail, 's'hort, 'k'ill, 'a'fter */
static int forced_errno;
static int trace_fd = -1;
static const char *hit_path;
static int inited;

/* write(2) past the shim, for its own files */
static void
raw_write(int fd, const char *s, size_t len)
{
	while (len > 0) {
		long n = syscall(SYS_write, fd, s, len);

		if (n <= 0)
			return;
		s += n;
		len -= (size_t)n;
	}
}

static void
report(void)
{
	const char *path = getenv("PV_FAULT_COUNT");
	char buf[32];
	int fd, n;

	if (path == NULL ||
	    (fd = (int)syscall(SYS_openat, AT_FDCWD, path,
			       O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0)
		return;
	n = snprintf(buf, sizeof(buf), "%lu\n", npoints);
	raw_write(fd, buf, (size_t)n);
	close(fd);
}

static void
init(void)
{
	const char *s;

	inited = 1;
	if ((s = getenv("PV_FAULT")) != NULL)
		fault_at = strtoul(s, NULL, 10);
	s = getenv("PV_FAULT_MODE");
	mode = s != NULL ? s[0] : 'f';
	if ((s = getenv("PV_FAULT_ERRNO")) != NULL)
		forced_errno = atoi(s);
	if ((s = getenv("PV_FAULT_TRACE")) != NULL)
		trace_fd = (int)syscall(SYS_openat, AT_FDCWD, s, O_WRONLY |
					O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	hit_path = getenv("PV_FAULT_HIT");
	if (getenv("PV_FAULT_COUNT") != NULL)
		atexit(report);
	unsetenv("LD_PRELOAD");
}

/*
 * Point name: 0 to make the call, 1 to fail it (errno set), 2 to make a
 * short write; it does not return in kill mode.  *after is set when the
 * process is to die after the call.
 */
static int
point(const char *name, int err, int *after)
{
	char buf[64];
	int n, fd;

	if (!inited)
		init();
	*after = 0;
	npoints++;
	if (trace_fd >= 0) {
		n = snprintf(buf, sizeof(buf), "%lu %s\n", npoints, name);
		raw_write(trace_fd, buf, (size_t)n);
	}
	if (fault_at == 0 || npoints != fault_at)
		return 0;
	if (hit_path != NULL &&
	    (fd = (int)syscall(SYS_openat, AT_FDCWD, hit_path,
			       O_WRONLY | O_CREAT | O_TRUNC, 0644)) >= 0) {
		raw_write(fd, name, strlen(name));
		raw_write(fd, "\n", 1);
		close(fd);
	}
	switch (mode) {
	case 'k':
		raise(SIGKILL);
		break;
	case 'a':
		*after = 1;
		return 0;
	case 's':
		if (strcmp(name, "write") == 0)
			return 2;
		break;
	}
	errno = forced_errno != 0 ? forced_errno : err;
	return 1;
}

static void
die_after(int after)
{
	if (after)
		raise(SIGKILL);
}

#define NEXT(type, name, args) \
	static type (*next) args; \
	if (next == NULL) \
		next = (type (*) args)dlsym(RTLD_NEXT, name)

ssize_t
write(int fd, const void *buf, size_t len)
{
	NEXT(ssize_t, "write", (int, const void *, size_t));
	int after, f = point("write", ENOSPC, &after);
	ssize_t r;

	if (f == 1)
		return -1;
	if (f == 2 && len > 1)
		len /= 2;
	r = next(fd, buf, len);
	die_after(after);
	return r;
}

int
ftruncate(int fd, off_t len)
{
	NEXT(int, "ftruncate", (int, off_t));
	int after, r;

	if (point("ftruncate", ENOSPC, &after))
		return -1;
	r = next(fd, len);
	die_after(after);
	return r;
}

int
fsync(int fd)
{
	NEXT(int, "fsync", (int));
	int after, r;

	if (point("fsync", ENOSPC, &after))
		return -1;
	r = next(fd);
	die_after(after);
	return r;
}

int
fchmod(int fd, mode_t m)
{
	NEXT(int, "fchmod", (int, mode_t));
	int after, r;

	if (point("fchmod", EIO, &after))
		return -1;
	r = next(fd, m);
	die_after(after);
	return r;
}

int
flock(int fd, int op)
{
	NEXT(int, "flock", (int, int));
	int after, r;

	if (point("flock", ENOLCK, &after))
		return -1;
	r = next(fd, op);
	die_after(after);
	return r;
}

int
mkdir(const char *path, mode_t m)
{
	NEXT(int, "mkdir", (const char *, mode_t));
	int after, r;

	if (point("mkdir", ENOSPC, &after))
		return -1;
	r = next(path, m);
	die_after(after);
	return r;
}

int
mkdirat(int dfd, const char *path, mode_t m)
{
	NEXT(int, "mkdirat", (int, const char *, mode_t));
	int after, r;

	if (point("mkdirat", ENOSPC, &after))
		return -1;
	r = next(dfd, path, m);
	die_after(after);
	return r;
}

int
linkat(int ofd, const char *old, int nfd, const char *new, int flags)
{
	NEXT(int, "linkat", (int, const char *, int, const char *, int));
	int after, r;

	if (point("linkat", ENOSPC, &after))
		return -1;
	r = next(ofd, old, nfd, new, flags);
	die_after(after);
	return r;
}

int
renameat(int ofd, const char *old, int nfd, const char *new)
{
	NEXT(int, "renameat", (int, const char *, int, const char *));
	int after, r;

	if (point("renameat", ENOSPC, &after))
		return -1;
	r = next(ofd, old, nfd, new);
	die_after(after);
	return r;
}

int
unlinkat(int dfd, const char *path, int flags)
{
	NEXT(int, "unlinkat", (int, const char *, int));
	int after, r;

	if (point("unlinkat", EIO, &after))
		return -1;
	r = next(dfd, path, flags);
	die_after(after);
	return r;
}

int
openat(int dfd, const char *path, int flags, ...)
{
	NEXT(int, "openat", (int, const char *, int, ...));
	mode_t m = 0;
	va_list ap;
	int after = 0, r;

	if (flags & O_CREAT) {
		va_start(ap, flags);
		m = (mode_t)va_arg(ap, int);
		va_end(ap);
		if (point("openat", ENOSPC, &after))
			return -1;
	}
	r = next(dfd, path, flags, m);
	die_after(after);
	return r;
}

int
link(const char *old, const char *new)
{
	NEXT(int, "link", (const char *, const char *));
	int after, r;

	if (point("link", ENOSPC, &after))
		return -1;
	r = next(old, new);
	die_after(after);
	return r;
}

int
rename(const char *old, const char *new)
{
	NEXT(int, "rename", (const char *, const char *));
	int after, r;

	if (point("rename", ENOSPC, &after))
		return -1;
	r = next(old, new);
	die_after(after);
	return r;
}

int
unlink(const char *path)
{
	NEXT(int, "unlink", (const char *));
	int after, r;

	if (point("unlink", EIO, &after))
		return -1;
	r = next(path);
	die_after(after);
	return r;
}

int
open(const char *path, int flags, ...)
{
	NEXT(int, "open", (const char *, int, ...));
	mode_t m = 0;
	va_list ap;
	int after = 0, r;

	if (flags & O_CREAT) {
		va_start(ap, flags);
		m = (mode_t)va_arg(ap, int);
		va_end(ap);
		if (point("open", ENOSPC, &after))
			return -1;
	}
	r = next(path, flags, m);
	die_after(after);
	return r;
}
