/*
 * runner: running one benchmark command, timed, with its output kept in
 * files, optionally sampled (sampler.h); and the pieces of a run matrix
 * (the command with its level substituted, the artifact file names).
 *
 * A run: fork, redirect the child's stdin from /dev/null and its stdout
 * and stderr to the given files, hold it until the sampler (if any) is
 * attached, then exec the command.  The wall time runs from the release
 * of the child to its exit, as CLOCK_MONOTONIC says; the user and system
 * times and the peak resident size come from wait4(2), so they include
 * the children the command waited for.
 *
 * Interruption: when *stop becomes non-zero during a run (a signal
 * handler sets it), the child is sent SIGINT (it may not have seen the
 * terminal's), waited for and the run marked interrupted.
 *
 * Nothing here prints or exits except on out of memory; errors are -1
 * with the message in the caller's struct pv_err (error.h).
 */
#ifndef PV_RUNNER_H
#define PV_RUNNER_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

struct pv_sampler;
struct pv_strbuf;

struct pv_run_result {
	int status;		/* the wait status, as wait(2) */
	int interrupted;	/* stopped by *stop */
	double wall, user, sys;	/* seconds */
	long maxrss;		/* kilobytes */
};

/*
 * Run argv (argv[0] looked up in PATH) with stdout and stderr written to
 * the files outpath and errpath (created or truncated; NULL: /dev/null).
 * With a sampler, the child is sampled from its exec to its exit.  Returns
 * 0 when the command ran (whatever its exit status), -1 when it could not
 * be started (a file could not be created, fork or exec failed, sampling
 * was refused), with the message in err.
 */
int pv_runner_run(char *const argv[], const char *outpath,
		  const char *errpath, struct pv_sampler *sampler,
		  volatile sig_atomic_t *stop, struct pv_run_result *res,
		  struct pv_err *err);

/* Whether a result is a successful run: exited with status 0. */
int pv_runner_ok(const struct pv_run_result *res);

/*
 * Describe how a run ended, for people and for meta records: "ok",
 * "exit status N", "killed by signal N (NAME)", "interrupted".
 */
void pv_runner_describe(const struct pv_run_result *res,
			struct pv_strbuf *sb);

/*
 * A copy of argv with every "{N}" in every argument replaced by level;
 * NULL-terminated; free with pv_runner_free_argv().
 */
char **pv_runner_expand(char *const argv[], const char *level);
void pv_runner_free_argv(char **argv);

/*
 * The artifact file name of a run: "DIR/EXPERIMENT-KIND-NNN.WHAT" where
 * EXPERIMENT is the identity of the run's section (which holds its level),
 * KIND is "run" or "warmup", NNN the 1-based number of the run within its
 * kind, at least three digits, and WHAT "stdout" or "stderr".
 */
void pv_runner_artifact(struct pv_strbuf *sb, const char *dir,
			const char *experiment, int warmup, uint64_t n,
			const char *what);

#endif
