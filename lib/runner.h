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
 * Time limit: a run still going after its timeout is marked timed out;
 * every process of it gets SIGTERM, and SIGKILL those still there after
 * the grace time.
 *
 * Leftovers: when the command has exited (or been ended), every process
 * it left behind (a daemon, a background job, setsid() or not) is ended
 * the same way, TERM then KILL, and counted.  The processes of a run are
 * found as the descendants of the calling process, which must have no
 * other children while it runs commands, and which must have called
 * pv_runner_subreaper() for the processes whose parents have exited to
 * stay its descendants (else they go to init and are not found).
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
	int timed_out;		/* ended at its timeout */
	unsigned leftover;	/* processes left running at its end, ended */
	double wall, user, sys;	/* seconds */
	long maxrss;		/* kilobytes */
};

/* How to run: every member may be left 0 (PV_RUN_OPTS_INIT). */
struct pv_run_opts {
	struct pv_sampler *sampler;	/* NULL: not sampled */
	volatile sig_atomic_t *stop;	/* NULL: not interruptible */
	double timeout;			/* seconds; 0: no limit */
	double grace;			/* from TERM to KILL; 0: 5 seconds */
};

#define PV_RUN_OPTS_INIT { NULL, NULL, 0, 0 }

/*
 * Make the calling process a child subreaper (PR_SET_CHILD_SUBREAPER):
 * the orphans of the commands it runs become its children, not init's, so
 * that their ends can find them.  Returns 0, or -1 with the message in
 * err.
 */
int pv_runner_subreaper(struct pv_err *err);

/*
 * Run argv (argv[0] looked up in PATH) with stdout and stderr written to
 * the files outpath and errpath (created or truncated; NULL: /dev/null),
 * as opts says (NULL: unsampled, no limit).  With a sampler, the child is
 * sampled from its exec to its exit.  Returns 0 when the command ran
 * (whatever its exit status), -1 when it could not be started (a file
 * could not be created, fork or exec failed, sampling was refused), with
 * the message in err.
 */
int pv_runner_run(char *const argv[], const char *outpath,
		  const char *errpath, const struct pv_run_opts *opts,
		  struct pv_run_result *res, struct pv_err *err);

/*
 * Whether a result is a successful run: exited with status 0, neither
 * interrupted nor timed out.
 */
int pv_runner_ok(const struct pv_run_result *res);

/*
 * Describe how a run ended, for people and for meta records: "ok",
 * "exit status N", "killed by signal N (NAME)", "interrupted",
 * "timed out".
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
 * The artifact file name of a run: "DIR/level-LEVEL-KIND-NNN.WHAT", or
 * "DIR/KIND-NNN.WHAT" when level is NULL, where KIND is "run" or
 * "warmup", NNN the 1-based number of the run within its kind and level,
 * at least three digits, and WHAT "stdout" or "stderr".  DIR is the
 * collection's own directory, so that the names of one collection never
 * meet another's.
 */
void pv_runner_artifact(struct pv_strbuf *sb, const char *dir,
			const char *level, int warmup, uint64_t n,
			const char *what);

#endif
