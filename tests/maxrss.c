/*
 * maxrss: run a command and print its peak resident set size in KB (from
 * wait4(2)), for the tests that check that a tool streams.  A small
 * program, so that the size it had when it forked (which the kernel counts
 * for the child until exec) is far below what is measured.
 *
 * usage: maxrss COMMAND [ARG ...]; stdout of COMMAND goes to /dev/null.
 * Exit status: COMMAND's, or 127 if it could not be run.
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	struct rusage ru;
	int status, fd;
	pid_t pid;

	if (argc < 2) {
		fputs("usage: maxrss COMMAND [ARG ...]\n", stderr);
		return 2;
	}
	pid = fork();
	if (pid < 0)
		return 127;
	if (pid == 0) {
		fd = open("/dev/null", O_WRONLY);
		if (fd >= 0)
			dup2(fd, 1);
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0)
		return 127;
	printf("%ld\n", ru.ru_maxrss);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 127;
}
