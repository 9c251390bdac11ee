/*
 * envinfo: gathering the environment facts of a measurement (envinfo.h).
 *
 * Every reader here returns NULL for what it cannot read, and the caller
 * records that as "unavailable"; nothing is inferred from a neighbouring
 * fact.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gnu/libc-version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "envinfo.h"
#include "hash.h"
#include "input.h"
#include "strbuf.h"
#include "xalloc.h"

void
pv_envinfo_init(struct pv_envinfo *env)
{
	env->entry = NULL;
	env->nentry = env->alloc = 0;
	env->errline = -1;
}

void
pv_envinfo_release(struct pv_envinfo *env)
{
	size_t i;

	for (i = 0; i < env->nentry; i++) {
		free(env->entry[i].key);
		free(env->entry[i].value);
	}
	free(env->entry);
	pv_envinfo_init(env);
}

void
pv_envinfo_add(struct pv_envinfo *env, const char *key, const char *value,
	       int ident)
{
	struct pv_env_entry *e;

	PV_GROW(env->entry, env->nentry + 1, env->alloc);
	e = &env->entry[env->nentry++];
	e->key = pv_xstrdup(key);
	e->value = pv_xstrdup(value != NULL ? value : PV_ENV_UNAVAILABLE);
	e->ident = ident;
}

/* add and take ownership of value (may be NULL) */
static void
add_own(struct pv_envinfo *env, const char *key, char *value, int ident)
{
	pv_envinfo_add(env, key, value, ident);
	free(value);
}

const char *
pv_envinfo_get(const struct pv_envinfo *env, const char *key)
{
	size_t i;

	for (i = 0; i < env->nentry; i++)
		if (strcmp(env->entry[i].key, key) == 0)
			return env->entry[i].value;
	return NULL;
}

uint64_t
pv_envinfo_ident(const struct pv_envinfo *env, uint64_t seed)
{
	uint64_t h = seed;
	size_t i;

	for (i = 0; i < env->nentry; i++) {
		const struct pv_env_entry *e = &env->entry[i];

		if (!e->ident)
			continue;
		h = pv_hash(e->key, strlen(e->key) + 1, h);
		h = pv_hash(e->value, strlen(e->value) + 1, h);
	}
	return h;
}

static char *
fmt_ul(unsigned long n)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;

	pv_strbuf_addf(&sb, "%lu", n);
	return pv_strbuf_detach(&sb, NULL);
}

static char *
path_in(const char *root, const char *path)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;

	if (root != NULL && *root != '\0')
		pv_strbuf_addstr(&sb, root);
	pv_strbuf_addstr(&sb, path);
	return pv_strbuf_detach(&sb, NULL);
}

/*
 * The contents of a small file, trailing white space removed and inner
 * newlines turned into spaces; NULL when it cannot be read or is empty.
 */
static char *
read_text(const char *root, const char *path)
{
	char *full = path_in(root, path), buf[4096], *s;
	struct pv_strbuf sb = PV_STRBUF_INIT;
	FILE *f = fopen(full, "r");
	size_t n;

	free(full);
	if (f == NULL)
		return NULL;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0 && sb.len < 65536)
		pv_strbuf_add(&sb, buf, n);
	if (ferror(f)) {
		fclose(f);
		pv_strbuf_release(&sb);
		return NULL;
	}
	fclose(f);
	while (sb.len > 0 && (sb.buf[sb.len - 1] == '\n' ||
			      sb.buf[sb.len - 1] == ' ' ||
			      sb.buf[sb.len - 1] == '\t'))
		sb.len--;
	pv_strbuf_setlen(&sb, sb.len);
	if (sb.len == 0) {
		pv_strbuf_release(&sb);
		return NULL;
	}
	s = pv_strbuf_detach(&sb, NULL);
	for (n = 0; s[n] != '\0'; n++)
		if (s[n] == '\n')
			s[n] = ' ';
	return s;
}

/* The value after "key<spaces>:" of the first matching line of a file. */
static char *
read_field(const char *root, const char *path, const char *key)
{
	char *full = path_in(root, path), *line;
	struct pv_input *in = pv_input_open(full);
	size_t len, klen = strlen(key);
	char *val = NULL;

	free(full);
	if (in == NULL)
		return NULL;
	while (val == NULL && pv_input_getline(in, &line, &len) > 0) {
		char *p;

		if (strncmp(line, key, klen) != 0)
			continue;
		p = line + klen;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != ':')
			continue;
		p++;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != '\0')
			val = pv_xstrdup(p);
	}
	pv_input_close(in);
	return val;
}

/* The number of entries of a range list such as "0-3,8,10-11". */
static char *
count_list(const char *list)
{
	unsigned long n = 0, a, b;
	const char *p = list;
	char *end;

	if (list == NULL)
		return NULL;
	while (*p != '\0') {
		errno = 0;
		a = strtoul(p, &end, 10);
		if (end == p || errno != 0)
			return NULL;
		b = a;
		p = end;
		if (*p == '-') {
			b = strtoul(p + 1, &end, 10);
			if (end == p + 1 || b < a)
				return NULL;
			p = end;
		}
		n += b - a + 1;
		if (*p == ',')
			p++;
		else if (*p != '\0')
			return NULL;
	}
	return fmt_ul(n);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted names of a directory matching prefix; NULL if unreadable. */
static char **
list_dir(const char *root, const char *path, const char *prefix, size_t *n)
{
	char *full = path_in(root, path);
	DIR *d = opendir(full);
	struct dirent *de;
	char **v = NULL;
	size_t alloc = 0;

	free(full);
	*n = 0;
	if (d == NULL)
		return NULL;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.' ||
		    strncmp(de->d_name, prefix, strlen(prefix)) != 0)
			continue;
		PV_GROW(v, *n + 1, alloc);
		v[(*n)++] = pv_xstrdup(de->d_name);
	}
	closedir(d);
	if (*n > 0)
		qsort(v, *n, sizeof(*v), cmp_str);
	else {
		free(v);
		v = pv_xcalloc(1, sizeof(*v));
	}
	return v;
}

static void
free_list(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static int
is_cpu_name(const char *s)
{
	if (strncmp(s, "cpu", 3) != 0 || s[3] == '\0')
		return 0;
	for (s += 3; *s != '\0'; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

static int
cmp_ul2(const void *a, const void *b)
{
	const unsigned long *x = a, *y = b;

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	if (x[1] != y[1])
		return x[1] < y[1] ? -1 : 1;
	return 0;
}

/* sockets, cores and threads from the topology of the online CPUs */
static void
add_topology(struct pv_envinfo *env, const char *root)
{
	size_t n, i, ncpu = 0, nsock = 0, ncore = 0;
	char **cpu = list_dir(root, "/sys/devices/system/cpu", "cpu", &n);
	unsigned long (*pc)[2] = NULL;
	int ok = cpu != NULL;

	if (ok)
		pc = pv_xcalloc(n + 1, sizeof(*pc));
	for (i = 0; ok && i < n; i++) {
		struct pv_strbuf p = PV_STRBUF_INIT;
		char *pkg, *core;

		if (!is_cpu_name(cpu[i]))
			continue;
		pv_strbuf_addf(&p, "/sys/devices/system/cpu/%s/topology/"
			       "physical_package_id", cpu[i]);
		pkg = read_text(root, p.buf);
		pv_strbuf_reset(&p);
		pv_strbuf_addf(&p, "/sys/devices/system/cpu/%s/topology/"
			       "core_id", cpu[i]);
		core = read_text(root, p.buf);
		pv_strbuf_release(&p);
		if (pkg != NULL && core != NULL) {
			pc[ncpu][0] = strtoul(pkg, NULL, 10);
			pc[ncpu][1] = strtoul(core, NULL, 10);
			ncpu++;
		}
		free(pkg);
		free(core);
	}
	if (ncpu > 0) {
		qsort(pc, ncpu, sizeof(*pc), cmp_ul2);
		for (i = 0; i < ncpu; i++) {
			if (i == 0 || pc[i][0] != pc[i - 1][0])
				nsock++;
			if (i == 0 || cmp_ul2(pc[i], pc[i - 1]) != 0)
				ncore++;
		}
		add_own(env, "cpu-sockets", fmt_ul(nsock), 1);
		add_own(env, "cpu-cores", fmt_ul(ncore), 1);
		add_own(env, "cpu-threads", fmt_ul(ncpu), 1);
	} else {
		pv_envinfo_add(env, "cpu-sockets", NULL, 1);
		pv_envinfo_add(env, "cpu-cores", NULL, 1);
		pv_envinfo_add(env, "cpu-threads", NULL, 1);
	}
	free(pc);
	if (cpu != NULL)
		free_list(cpu, n);
}

/* one cpufreq file over every CPU: its value, or "cpuN=V,..." if mixed */
static char *
read_cpufreq(const char *root, const char *file)
{
	size_t n, i;
	char **cpu = list_dir(root, "/sys/devices/system/cpu", "cpu", &n);
	struct pv_strbuf all = PV_STRBUF_INIT;
	char *first = NULL;
	int mixed = 0, any = 0;

	if (cpu == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		struct pv_strbuf p = PV_STRBUF_INIT;
		char *v;

		if (!is_cpu_name(cpu[i]))
			continue;
		pv_strbuf_addf(&p, "/sys/devices/system/cpu/%s/cpufreq/%s",
			       cpu[i], file);
		v = read_text(root, p.buf);
		pv_strbuf_release(&p);
		if (v == NULL)
			continue;
		if (first == NULL)
			first = pv_xstrdup(v);
		else if (strcmp(first, v) != 0)
			mixed = 1;
		pv_strbuf_addf(&all, "%s%s=%s", any ? "," : "", cpu[i], v);
		any = 1;
		free(v);
	}
	free_list(cpu, n);
	if (mixed) {
		free(first);
		return pv_strbuf_detach(&all, NULL);
	}
	pv_strbuf_release(&all);
	return first;
}

static char *
read_boost(const char *root)
{
	char *v = read_text(root, "/sys/devices/system/cpu/cpufreq/boost");

	if (v != NULL) {
		char *r = pv_xstrdup(strcmp(v, "1") == 0 ? "on" :
				     strcmp(v, "0") == 0 ? "off" : v);
		free(v);
		return r;
	}
	v = read_text(root, "/sys/devices/system/cpu/intel_pstate/no_turbo");
	if (v != NULL) {
		char *r = pv_xstrdup(strcmp(v, "0") == 0 ? "on" :
				     strcmp(v, "1") == 0 ? "off" : v);
		free(v);
		return r;
	}
	return NULL;
}

static char *
mem_gib(const char *memtotal)
{
	unsigned long long kb;
	char *end;

	if (memtotal == NULL)
		return NULL;
	kb = strtoull(memtotal, &end, 10);
	if (end == memtotal || strcmp(end, " kB") != 0)
		return NULL;
	return fmt_ul((unsigned long)((kb + 512 * 1024) /
					  (1024 * 1024)));
}

static void
add_vulnerabilities(struct pv_envinfo *env, const char *root)
{
	static const char dir[] = "/sys/devices/system/cpu/vulnerabilities";
	size_t n, i;
	char **v = list_dir(root, dir, "", &n);

	if (v == NULL) {
		pv_envinfo_add(env, "vulnerabilities", NULL, 0);
		return;
	}
	for (i = 0; i < n; i++) {
		struct pv_strbuf p = PV_STRBUF_INIT, k = PV_STRBUF_INIT;

		pv_strbuf_addf(&p, "%s/%s", dir, v[i]);
		pv_strbuf_addf(&k, "vulnerability.%s", v[i]);
		add_own(env, k.buf, read_text(root, p.buf), 0);
		pv_strbuf_release(&p);
		pv_strbuf_release(&k);
	}
	free_list(v, n);
}

/* A kernel configuration: its option lines, in file order. */
struct kconfig {
	char **name, **value;	/* value "n" for "# CONFIG_X is not set" */
	size_t n, alloc, valloc;
	uint64_t hash;
};

static void
kconfig_release(struct kconfig *c)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		free(c->name[i]);
		free(c->value[i]);
	}
	free(c->name);
	free(c->value);
	memset(c, 0, sizeof(*c));
}

/*
 * Read a configuration (plain or gzip); -1 when it cannot be read, with
 * errno set when it cannot be opened, else (for a binary, cut or unreadable
 * file) with pv_input's message in err and its line in *errline, when err
 * is not NULL.
 */
static int
kconfig_read(struct kconfig *c, const char *path, struct pv_err *err,
	     long *errline)
{
	struct pv_input *in = pv_input_open(path);
	char *line;
	size_t len;
	int rc;

	memset(c, 0, sizeof(*c));
	if (in == NULL)
		return -1;
	c->hash = PV_HASH_K2;
	while ((rc = pv_input_getline(in, &line, &len)) > 0) {
		char *name, *eq, *val;

		if (strncmp(line, "CONFIG_", 7) == 0 &&
		    (eq = strchr(line, '=')) != NULL) {
			name = pv_xmemdup(line, (size_t)(eq - line));
			val = pv_xstrdup(eq + 1);
		} else if (strncmp(line, "# CONFIG_", 9) == 0 && len > 13 &&
			   strcmp(line + len - 11, " is not set") == 0) {
			name = pv_xmemdup(line + 2, len - 13);
			val = pv_xstrdup("n");
		} else {
			continue;	/* comments and blank lines */
		}
		/* the compiler's name is in the build line, not the config */
		if (strcmp(name, "CONFIG_CC_VERSION_TEXT") != 0)
			c->hash = pv_hash(line, len + 1, c->hash);
		PV_GROW(c->name, c->n + 1, c->alloc);
		PV_GROW(c->value, c->n + 1, c->valloc);
		c->name[c->n] = name;
		c->value[c->n] = val;
		c->n++;
	}
	if (rc < 0 && err != NULL) {
		pv_err_set(err, "%s", pv_input_error(in));
		*errline = (long)pv_input_lineno(in);
	}
	pv_input_close(in);
	if (rc < 0) {
		kconfig_release(c);
		errno = EIO;
		return -1;
	}
	return 0;
}

static const struct kconfig *sort_cfg;

static int
cmp_opt(const void *a, const void *b)
{
	return strcmp(sort_cfg->name[*(const size_t *)a],
		      sort_cfg->name[*(const size_t *)b]);
}

static size_t *
kconfig_order(const struct kconfig *c)
{
	size_t *ix = pv_xcalloc(c->n + 1, sizeof(*ix)), i;

	for (i = 0; i < c->n; i++)
		ix[i] = i;
	sort_cfg = c;
	qsort(ix, c->n, sizeof(*ix), cmp_opt);
	return ix;
}

/* one env record per option whose value differs from the reference */
static void
add_config_diff(struct pv_envinfo *env, const struct kconfig *cur,
		const struct kconfig *ref)
{
	size_t *a = kconfig_order(cur), *b = kconfig_order(ref);
	size_t i = 0, j = 0, ndiff = 0;
	struct pv_strbuf k = PV_STRBUF_INIT, v = PV_STRBUF_INIT;

	while (i < cur->n || j < ref->n) {
		const char *name, *cv = "absent", *rv = "absent";
		int c;

		if (i == cur->n)
			c = 1;
		else if (j == ref->n)
			c = -1;
		else
			c = strcmp(cur->name[a[i]], ref->name[b[j]]);
		if (c <= 0) {
			name = cur->name[a[i]];
			cv = cur->value[a[i++]];
		} else {
			name = ref->name[b[j]];
		}
		if (c >= 0)
			rv = ref->value[b[j++]];
		if (strcmp(cv, rv) == 0)
			continue;
		pv_strbuf_reset(&k);
		pv_strbuf_reset(&v);
		pv_strbuf_addf(&k, "kernel-config-diff.%s", name);
		pv_strbuf_addf(&v, "%s, reference %s", cv, rv);
		pv_envinfo_add(env, k.buf, v.buf, 0);
		ndiff++;
	}
	pv_strbuf_reset(&v);
	pv_strbuf_addf(&v, "%zu", ndiff);
	pv_envinfo_add(env, "kernel-config-differences", v.buf, 0);
	pv_strbuf_release(&k);
	pv_strbuf_release(&v);
	free(a);
	free(b);
}

static int
add_config(struct pv_envinfo *env, const char *root, const char *release,
	   const struct pv_envinfo_opts *opts, struct pv_err *err)
{
	struct kconfig cur, ref;
	char *path = path_in(root, "/proc/config.gz"), hex[17];
	int have;

	have = kconfig_read(&cur, path, NULL, NULL) == 0;
	if (!have && release != NULL) {
		struct pv_strbuf p = PV_STRBUF_INIT;

		free(path);
		pv_strbuf_addf(&p, "/boot/config-%s", release);
		path = path_in(root, p.buf);
		pv_strbuf_release(&p);
		have = kconfig_read(&cur, path, NULL, NULL) == 0;
	}
	if (have && cur.n > 0) {
		snprintf(hex, sizeof(hex), "%016llx",
			 (unsigned long long)cur.hash);
		pv_envinfo_add(env, "kernel-config-hash", hex, 0);
		pv_envinfo_add(env, "kernel-config-source",
			       path + (root != NULL ? strlen(root) : 0), 0);
	} else {
		pv_envinfo_add(env, "kernel-config-hash", NULL, 0);
		pv_envinfo_add(env, "kernel-config-source", NULL, 0);
	}
	free(path);
	if (opts->config_ref != NULL) {
		env->errline = -1;
		if (kconfig_read(&ref, opts->config_ref, err,
				 &env->errline) != 0) {
			if (env->errline < 0)
				pv_err_set_errno(err, errno, "cannot read the "
						 "reference kernel "
						 "configuration '%s'",
						 opts->config_ref);
			if (have)
				kconfig_release(&cur);
			return -1;
		}
		/* not a configuration: every option would differ */
		if (ref.n == 0) {
			pv_err_set(err, "the reference kernel "
				   "configuration '%s' has no option lines "
				   "(CONFIG_...)", opts->config_ref);
			if (have)
				kconfig_release(&cur);
			return -1;
		}
		pv_envinfo_add(env, "kernel-config-reference",
			       opts->config_ref, 0);
		if (have && cur.n > 0)
			add_config_diff(env, &cur, &ref);
		else
			pv_envinfo_add(env, "kernel-config-differences",
				       NULL, 0);
		kconfig_release(&ref);
	}
	if (have)
		kconfig_release(&cur);
	return 0;
}

/* the first line of "cc --version", or NULL */
static char *
compiler_version(void)
{
	FILE *p = popen("cc --version 2>/dev/null", "r");
	struct pv_strbuf sb = PV_STRBUF_INIT;
	int c;

	if (p == NULL)
		return NULL;
	while ((c = getc(p)) != EOF && c != '\n')
		pv_strbuf_addch(&sb, c);
	while (c != EOF)
		c = getc(p);
	if (pclose(p) != 0 || sb.len == 0) {
		pv_strbuf_release(&sb);
		return NULL;
	}
	return pv_strbuf_detach(&sb, NULL);
}

int
pv_envinfo_collect(struct pv_envinfo *env, const struct pv_envinfo_opts *opts,
		   struct pv_err *err)
{
	const char *root = opts->root != NULL && *opts->root != '\0' ?
		opts->root : NULL;
	char *release = read_text(root, "/proc/sys/kernel/osrelease");
	char *memtotal, *nodes;
	struct utsname u;

	pv_envinfo_add(env, "kernel-release", release, 0);
	add_own(env, "kernel-version",
		read_text(root, "/proc/sys/kernel/version"), 0);
	if (root == NULL && uname(&u) == 0)
		pv_envinfo_add(env, "machine", u.machine, 1);
	else
		add_own(env, "machine",
			read_text(root, "/proc/sys/kernel/arch"), 1);
	add_own(env, "hostname", read_text(root,
		"/proc/sys/kernel/hostname"), 0);
	add_own(env, "kernel-build", read_text(root, "/proc/version"), 0);
	/* the kernel's; pv-parse's perf-cmdline is perf's (pv-format(5)) */
	add_own(env, "kernel-cmdline", read_text(root, "/proc/cmdline"), 0);
	add_own(env, "cpu-model",
		read_field(root, "/proc/cpuinfo", "model name"), 1);
	add_topology(env, root);
	add_own(env, "smt", read_text(root,
		"/sys/devices/system/cpu/smt/control"), 1);
	add_own(env, "smt-active", read_text(root,
		"/sys/devices/system/cpu/smt/active"), 0);
	nodes = read_text(root, "/sys/devices/system/node/online");
	add_own(env, "numa-nodes", count_list(nodes), 1);
	free(nodes);
	memtotal = read_field(root, "/proc/meminfo", "MemTotal");
	pv_envinfo_add(env, "memory", memtotal, 0);
	add_own(env, "memory-gib", mem_gib(memtotal), 1);
	free(memtotal);
	add_own(env, "cpufreq-driver", read_cpufreq(root, "scaling_driver"),
		1);
	add_own(env, "cpufreq-governor",
		read_cpufreq(root, "scaling_governor"), 1);
	add_own(env, "boost", read_boost(root), 1);
	add_vulnerabilities(env, root);
	if (add_config(env, root, release, opts, err) != 0) {
		free(release);
		return -1;
	}
	free(release);
	if (root == NULL) {
		struct pv_strbuf sb = PV_STRBUF_INIT;

		add_own(env, "compiler", compiler_version(), 0);
		pv_strbuf_addf(&sb, "glibc %s", gnu_get_libc_version());
		pv_envinfo_add(env, "libc", sb.buf, 0);
		pv_strbuf_release(&sb);
	} else {
		pv_envinfo_add(env, "compiler", NULL, 0);
		pv_envinfo_add(env, "libc", NULL, 0);
	}
	return 0;
}

/*
 * The first line of the standard output of argv, or NULL when it cannot
 * be run, fails or prints nothing.  Its stderr goes to /dev/null.
 */
static char *
capture(char *const argv[])
{
	struct pv_strbuf sb = PV_STRBUF_INIT;
	int fd[2], status;
	char buf[512];
	ssize_t n;
	pid_t pid;

	if (pipe(fd) != 0)
		return NULL;
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return NULL;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		dup2(fd[1], 1);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 2);
		}
		close(fd[0]);
		close(fd[1]);
		execvp(argv[0], argv);
		_Exit(127);
	}
	close(fd[1]);
	while ((n = read(fd[0], buf, sizeof(buf))) > 0 ||
	       (n < 0 && errno == EINTR))
		if (n > 0 && sb.len < 65536)
			pv_strbuf_add(&sb, buf, (size_t)n);
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		pv_strbuf_release(&sb);
		return NULL;
	}
	n = (ssize_t)strcspn(sb.buf, "\n");
	pv_strbuf_setlen(&sb, (size_t)n);
	if (sb.len == 0) {
		pv_strbuf_release(&sb);
		return NULL;
	}
	return pv_strbuf_detach(&sb, NULL);
}

void
pv_envinfo_git(const char *dir, char **commit, char **branch, char **dirty)
{
	char *rev[] = { "git", "-C", (char *)dir, "rev-parse", "HEAD", NULL };
	char *br[] = { "git", "-C", (char *)dir, "symbolic-ref", "--short",
		       "-q", "HEAD", NULL };
	char *st[] = { "git", "-C", (char *)dir, "status", "--porcelain",
		       "--untracked-files=no", NULL };
	char *s;

	*commit = capture(rev);
	*branch = capture(br);
	if (*commit == NULL) {
		*dirty = NULL;
		return;
	}
	if (*branch == NULL)
		*branch = pv_xstrdup("(detached)");
	s = capture(st);
	*dirty = pv_xstrdup(s != NULL ? "yes" : "no");
	free(s);
}
