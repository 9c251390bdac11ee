/*
 * git: run git(1) as a subprocess (fork and exec, no shell) in the current
 * directory and read what it prints, for the version store's questions
 * about commits: which commit a name means, the branch, ancestry.
 *
 * git's standard error is discarded: a failing git is an answer ("not a
 * commit", "not a work tree"), reported by its exit status.  Nothing here
 * prints or exits.
 */
#ifndef PV_GIT_H
#define PV_GIT_H

#include "strbuf.h"

/*
 * Run "git ARGS..." (args is NULL-terminated and excludes "git") and put
 * its standard output in out (replacing its contents).  Returns git's exit
 * status (0 success), or -1 with errno set if git could not be run (not
 * installed: ENOENT) or was killed by a signal.
 */
int pv_git_run(const char *const *args, struct pv_strbuf *out);

/*
 * The full commit id that name means in the current work tree ("HEAD",
 * a branch, a tag, an abbreviated id), as 40 (or 64) hex digits in out.
 * Returns 0, or -1 if it is not a commit or git cannot tell.
 */
int pv_git_commit(const char *name, struct pv_strbuf *out);

/* The checked-out branch's short name; -1 on a detached HEAD or error. */
int pv_git_branch(struct pv_strbuf *out);

/* The top of the current work tree; -1 when not in one. */
int pv_git_toplevel(struct pv_strbuf *out);

/*
 * Walk the ancestors of commit, nearest first in the sense of
 * "git rev-list --topo-order" (no commit before any of its descendants),
 * calling fn with each full id (the commit itself first) until fn returns
 * non-zero.  Returns fn's non-zero value, 0 when the history ended, or -1
 * when git failed.
 */
int pv_git_ancestors(const char *commit,
		     int (*fn)(const char *id, void *arg), void *arg);

#endif
