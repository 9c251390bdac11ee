/*
 * envinfo: the facts about the machine and the kernel that a measurement
 * was taken under, as key-value pairs for pv-format(5) env records.
 *
 * pv_envinfo_collect() reads them from /proc, /sys and the libraries:
 * uname (kernel-release, kernel-version, machine), hostname, the kernel
 * command line, the CPU model, counts of sockets, cores and threads, SMT
 * state, NUMA nodes, memory size, cpufreq driver, governor and boost,
 * every file under /sys/devices/system/cpu/vulnerabilities/ (one key
 * "vulnerability.NAME" each), the kernel configuration (/proc/config.gz,
 * read with zlib, or /boot/config-RELEASE) as a hash, and with a reference
 * configuration the options that differ from it, the kernel's own build
 * line (/proc/version), the system compiler and the C library.
 *
 * A fact that cannot be read is recorded with the value "unavailable",
 * never guessed or left out, so two environments list the same keys.
 *
 * Some facts define a comparable experiment: the same benchmark on a
 * machine with another CPU or memory size measures something else.  These
 * entries carry the ident flag, and pv_envinfo_ident() feeds them to the
 * experiment identity.  Facts that belong to the version under test (the
 * kernel release, its configuration and command line, the mitigations it
 * applies) do not: a baseline and a target kernel differ in exactly those.
 *
 * Lifecycle: pv_envinfo_init(), pv_envinfo_collect() and any number of
 * pv_envinfo_add(), pv_envinfo_release().  Entries keep their order of
 * addition.  Nothing here prints or exits except on out of memory.
 */
#ifndef PV_ENVINFO_H
#define PV_ENVINFO_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

#define PV_ENV_UNAVAILABLE "unavailable"

struct pv_env_entry {
	char *key;
	char *value;
	int ident;	/* part of the experiment identity */
};

struct pv_envinfo {
	struct pv_env_entry *entry;
	size_t nentry, alloc;
	/*
	 * After pv_envinfo_collect() failed: the line of the reference
	 * configuration its message is about, or -1 when the message
	 * names the file itself.
	 */
	long errline;
};

struct pv_envinfo_opts {
	/*
	 * A directory standing for "/" when reading /proc, /sys and /boot
	 * (for tests); NULL or "" for the running system.  With a root,
	 * the machine is read from proc/sys/kernel/arch rather than from
	 * uname(2), and the compiler and C library are not asked.
	 */
	const char *root;
	/* a kernel configuration to compare with, or NULL */
	const char *config_ref;
};

void pv_envinfo_init(struct pv_envinfo *env);
void pv_envinfo_release(struct pv_envinfo *env);

/* Add a copy of key and value (NULL value: "unavailable"). */
void pv_envinfo_add(struct pv_envinfo *env, const char *key,
		    const char *value, int ident);

/*
 * Gather the facts listed above.  Returns 0, or -1 with the message in err
 * (only for a reference configuration that cannot be read or holds no
 * option, with env->errline: the facts of the system are recorded as
 * unavailable instead).
 */
int pv_envinfo_collect(struct pv_envinfo *env,
		       const struct pv_envinfo_opts *opts, struct pv_err *err);

/* The value of key, or NULL. */
const char *pv_envinfo_get(const struct pv_envinfo *env, const char *key);

/* A hash of the ident entries (keys and values), chained from seed. */
uint64_t pv_envinfo_ident(const struct pv_envinfo *env, uint64_t seed);

/*
 * The git commit, branch and whether tracked files are modified ("yes",
 * "no") of the source tree dir, by running git(1).  Each is a string the
 * caller frees, or NULL when it cannot be told (not a git tree, no git);
 * a detached HEAD is branch "(detached)".
 */
void pv_envinfo_git(const char *dir, char **commit, char **branch,
		    char **dirty);

#endif
