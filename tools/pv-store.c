/*
 * pv-store: keep pv record streams by the version they measured, next to
 * the version control system, so that any two versions can be compared
 * later without running anything again.
 *
 * "add" files streams under a version (a git commit, a kernel release, a
 * free name); "log", "show", "pair" and "series" read them back;
 * "baseline" applies the baseline rule; "rm", "gc", "verify" and "fsck"
 * look after the store.  Every command that writes objects out checks
 * them all first (verify, then copy: select_streams(), write_streams()).
 * The commands come from one table, commands[], which makes the usage and
 * the help too.  The files and their durability are lib/store*.c's; the
 * kernel rule is lib/kver.c's; git is asked through lib/git.c.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "diag.h"
#include "opt.h"
#include "field.h"
#include "git.h"
#include "input.h"
#include "kver.h"
#include "record.h"
#include "store.h"
#include "xalloc.h"

/*
 * The usage (the man page's SYNOPSIS) and the help, made from the table of
 * commands at the end (commands[]) by make_usage() before anything else.
 */
static const char *usage, *help;

static const char help_head[] =
	"Keep pv record streams (pv-format(5)) by the version they measured.\n"
	"\n";

static const char help_tail[] =
	"\n"
	"  -s, --store=DIR         the store (default: $PV_STORE, else .pv at\n"
	"                          the top of the git work tree)\n"
	"  -v, --version=VERSION   (add) the version of the added streams\n"
	"  -d, --date=SECONDS      (add, rm) the time to record (default: now)\n"
	"  -e, --experiment=ID     (log, show, pair, series) only the sections\n"
	"                          of experiment ID ('-': the absent one)\n"
	"  -b, --baseline=VERSION  (baseline, pair) the baseline, not the rule's\n"
	"  -r, --repair            (fsck) rewrite the index without its\n"
	"                          damaged lines; replace a linked tmp or lock\n"
	"      --since=VERSION     (series) from VERSION on\n"
	"      --until=VERSION     (series) up to VERSION\n"
	"  -h, --help              print this help and exit\n"
	"  -V, --version           (before the command) print pv-store's\n"
	"                          version and exit\n"
	"\n"
	"Exit status: 0 on success; 1 when verify finds a corrupt or missing\n"
	"object, or fsck any damage; 2 on trouble (bad usage or input, an\n"
	"unknown version, no baseline, a damaged store, I/O errors).\n";

struct options {
	const char *store;
	const char *version;
	const char *experiment;	/* NULL: all; "" the absent one */
	const char *baseline;
	const char *since, *until;
	int64_t date;
	int have_date;
	int repair;
};

static noreturn void
store_die(const struct pv_store *st)
{
	struct pv_strbuf index = PV_STRBUF_INIT;

	/* a line of the index at fault: "pv-store:DIR/index:LINE: message" */
	if (st->err_line > 0) {
		pv_strbuf_addf(&index, "%s/index", st->dir);
		pv_die_at(index.buf, st->err_line, "%s (pv-store fsck --repair "
			  "drops damaged lines)", pv_err_msg(&st->err));
	}
	pv_die("%s", pv_err_msg(&st->err));
}

/* The store's directory: --store, $PV_STORE, or .pv in the work tree. */
static char *
store_dir(const struct options *opt)
{
	struct pv_strbuf top = PV_STRBUF_INIT;
	const char *env = getenv("PV_STORE");

	if (opt->store != NULL)
		return pv_xstrdup(opt->store);
	if (env != NULL && *env != '\0')
		return pv_xstrdup(env);
	if (pv_git_toplevel(&top) < 0)
		pv_die("no store: not in a git work tree; give --store=DIR "
		       "or set PV_STORE");
	pv_strbuf_addstr(&top, "/.pv");
	return pv_strbuf_detach(&top, NULL);
}

/* How a command uses the store (open_store()). */
enum use {
	READ_INDEX,	/* the index only: no lock (log, baseline) */
	READ,		/* objects too: the shared lock (show, pair, verify) */
	APPEND,		/* lines to the index: the shared lock (rm) */
	WRITE		/* objects to tmp/: tmp/ made again first (add) */
};

/*
 * Open the store and read its index; for objects, under a shared lock
 * first, so that gc cannot remove what the index names while we work.
 */
static void
open_store(struct pv_store *st, const struct options *opt, enum use use)
{
	char *dir = store_dir(opt);

	if (pv_store_open(st, dir) < 0 ||
	    (use == WRITE && pv_store_prepare(st) < 0) ||
	    (use != READ_INDEX && pv_store_lock(st, 0) < 0) ||
	    pv_store_index_load(st) < 0)
		store_die(st);
	free(dir);
}

/* A version name must be one word: printable, no blanks, not an option. */
static void
check_version_name(const char *v)
{
	const unsigned char *p = (const unsigned char *)v;

	if (*p == '\0' || *p == '-')
		pv_die("bad version name '%s'", v);
	for (; *p != '\0'; p++)
		if (*p <= ' ' || *p == 0x7f || *p == '\\')
			pv_die("bad version name '%s' (blanks, control "
			       "characters and '\\' are not allowed)", v);
}

/*
 * The stored version that name means: a stored version name, or a name
 * git resolves to a stored commit; NULL if neither.
 */
static const char *
resolve(const struct pv_store *st, const char *name)
{
	struct pv_strbuf c = PV_STRBUF_INIT;
	const char *found = NULL;
	size_t i;

	for (i = 0; i < st->nentry; i++)
		if (st->entry[i].live && strcmp(st->entry[i].version,
						name) == 0)
			return st->entry[i].version;
	if (pv_git_commit(name, &c) == 0) {
		for (i = 0; i < st->nentry && found == NULL; i++)
			if (st->entry[i].live &&
			    strcmp(st->entry[i].version, c.buf) == 0)
				found = st->entry[i].version;
	}
	pv_strbuf_release(&c);
	return found;
}

static const char *
resolve_or_die(const struct pv_store *st, const char *name)
{
	const char *v = resolve(st, name);

	if (v == NULL)
		pv_die("no stored version '%s'", name);
	return v;
}

static int
has_experiment(const struct pv_store_entry *e, const char *x)
{
	size_t i;

	if (x == NULL)
		return 1;
	for (i = 0; i < e->nexperiment; i++)
		if (strcmp(e->experiment[i], x) == 0)
			return 1;
	return 0;
}

/* init */

static int
cmd_init(const struct options *opt, int argc, char **argv)
{
	struct pv_store st = PV_STORE_INIT;
	char *dir = store_dir(opt);

	(void)argc;
	(void)argv;
	if (pv_store_create(&st, dir) < 0)
		store_die(&st);
	pv_store_release(&st);
	free(dir);
	return PV_EXIT_OK;
}

/* add */

struct target {
	char *version;
	char *commit;		/* NULL: none */
	char *branch;
};

/*
 * What --version (or its absence) names: HEAD's commit; a kernel release
 * (with its commit where git knows the tag); a git commit; a free name.
 */
static void
add_target(const struct options *opt, struct target *t)
{
	struct pv_strbuf c = PV_STRBUF_INIT, head = PV_STRBUF_INIT;
	struct pv_strbuf br = PV_STRBUF_INIT;
	struct pv_kver kv;
	const char *v = opt->version;
	int is_commit;

	memset(t, 0, sizeof(*t));
	if (v == NULL && pv_git_commit("HEAD", &c) < 0)
		pv_die("no --version, and no git commit to take it from");
	if (v != NULL)
		check_version_name(v);
	is_commit = v == NULL || pv_git_commit(v, &c) == 0;
	/* a kernel version's name is kept, another commit's name resolved */
	if (is_commit && (v == NULL || pv_kver_parse(v, &kv) < 0))
		t->version = pv_xstrdup(c.buf);
	else
		t->version = pv_xstrdup(v);
	/* a full commit id that git here does not know (an import) */
	if (!is_commit && strspn(v, "0123456789abcdef") == strlen(v) &&
	    (strlen(v) == 40 || strlen(v) == 64))
		t->commit = pv_xstrdup(v);
	if (is_commit) {
		t->commit = pv_xstrdup(c.buf);
		/* the branch is known for the checked-out commit only */
		if (pv_git_commit("HEAD", &head) == 0 &&
		    strcmp(head.buf, c.buf) == 0 && pv_git_branch(&br) == 0)
			t->branch = pv_xstrdup(br.buf);
	}
	pv_strbuf_release(&c);
	pv_strbuf_release(&head);
	pv_strbuf_release(&br);
}

/* A failed add: its temporary object goes before the message. */
static noreturn void
add_die(struct pv_store *st, struct pv_store_obj *obj)
{
	pv_store_obj_discard(st, obj);
	store_die(st);
}

/* Store one stream; print its object name and version. */
static void
add_one(struct pv_store *st, const struct target *t, int64_t now,
	const char *file)
{
	const char *name = strcmp(file, "-") == 0 ? "(standard input)" : file;
	struct pv_input *in;
	struct pv_store_obj *obj;
	struct pv_store_scan sc;
	struct pv_store_entry e;
	struct pv_strbuf line = PV_STRBUF_INIT;
	char *buf;
	long n;

	/* the bytes as they are, decompressed where gzip */
	if ((in = pv_input_open(file)) == NULL)
		pv_die_errno("cannot open '%s'", file);
	if ((obj = pv_store_obj_begin(st)) == NULL)
		store_die(st);
	buf = pv_xmalloc(65536);
	/* (a line past the limit of lib/input ends it: not stored) */
	while ((n = pv_input_read(in, buf, 65536)) > 0) {
		/* a full disk, say: the partial object must not stay */
		if (pv_store_obj_write(st, obj, buf, (size_t)n) < 0) {
			free(buf);
			pv_input_close(in);
			add_die(st, obj);
		}
	}
	free(buf);
	if (n < 0) {
		struct pv_err why = PV_ERR_INIT;
		unsigned long at = pv_input_lineno(in);
		int err = pv_input_errno(in);

		/* nothing left open or half written behind the message */
		pv_err_set(&why, "%s", pv_input_error(in));
		pv_input_close(in);
		pv_store_obj_discard(st, obj);
		if (err != 0)
			pv_die("cannot read '%s': %s", name, strerror(err));
		pv_die_at(name, at, "%s", pv_err_msg(&why));
	}
	pv_input_close(in);
	if (pv_store_obj_finish(st, obj) < 0)
		store_die(st);	/* (finish discards a failed object) */
	/* most likely a benchmark that failed: say so rather than keep it */
	if (obj->size == 0) {
		pv_store_obj_discard(st, obj);
		pv_die("'%s' is empty: nothing stored", name);
	}
	/* check the stream as every pv tool would read it */
	if (pv_store_scan(obj->fd, &sc) < 0) {
		pv_store_obj_discard(st, obj);
		pv_die_at(name, sc.line, "%s", pv_err_msg(&sc.err));
	}
	memset(&e, 0, sizeof(e));
	e.version = t->version;
	memcpy(e.hash, obj->hash, sizeof(e.hash));
	e.size = obj->size;
	e.csize = obj->csize;
	e.time = now;
	e.kinds = pv_store_scan_kinds(sc.kinds);
	e.commit = t->commit;
	e.branch = t->branch;
	e.name = strcmp(file, "-") == 0 ? NULL : file;
	e.experiment = (const char **)sc.experiment;
	e.nexperiment = sc.nexperiment;
	e.test = sc.test;
	e.ntest = sc.ntest;
	e.has_tests = 1;
	/* (commit frees obj, failing or not; a corrupt copy is replaced) */
	if (pv_store_obj_commit(st, obj) < 0)
		store_die(st);
	/* the same stream under the same version is one entry */
	if (pv_store_index_find(st, e.version, e.hash) == NULL) {
		pv_store_index_format_add(&line, &e);
		if (pv_store_index_append(st, &line) < 0)
			store_die(st);
	}
	printf("%s\t%s\n", e.hash, e.version);
	pv_store_scan_release(&sc);
	pv_strbuf_release(&line);
}

static int
cmd_add(const struct options *opt, int argc, char **argv)
{
	struct pv_store st = PV_STORE_INIT;
	struct target t;
	int64_t now = opt->have_date ? opt->date : (int64_t)time(NULL);
	int i;

	pv_opt_files(argc, argv);
	add_target(opt, &t);
	open_store(&st, opt, WRITE);
	if (argc == 0)
		add_one(&st, &t, now, "-");
	for (i = 0; i < argc; i++)
		add_one(&st, &t, now, argv[i]);
	pv_store_release(&st);
	free(t.version);
	free(t.commit);
	free(t.branch);
	return PV_EXIT_OK;
}

/* log */

/*
 * A suite or test name in log's list of tests: escaped as a field is, and
 * the list's own separators (',', '/', ':') with a '\\' before them.
 */
static void
add_test_name(struct pv_strbuf *sb, const char *s)
{
	size_t n;

	for (; *s != '\0'; s++) {
		/* the plain bytes up to the next special one, in one go */
		if ((n = strcspn(s, "\t\n\r\\,/:")) > 0) {
			pv_strbuf_add(sb, s, n);
			if (*(s += n) == '\0')
				break;
		}
		switch (*s) {
		case '\t':
			pv_strbuf_addstr(sb, "\\t");
			break;
		case '\n':
			pv_strbuf_addstr(sb, "\\n");
			break;
		case '\r':
			pv_strbuf_addstr(sb, "\\r");
			break;
		case '\\':
		case ',':
		case '/':
		case ':':
			pv_strbuf_addch(sb, '\\');
			/* fall through */
		default:
			pv_strbuf_addch(sb, *s);
			break;
		}
	}
}

/*
 * The tests field of experiment x of e: SUITE/TEST:RUNS for each of its
 * tests, joined by ','; '-' for none (a profile); '?' when the index does
 * not say (an entry from before tests lines).
 */
static void
add_tests(struct pv_strbuf *sb, const struct pv_store_entry *e, const char *x)
{
	size_t i, n = 0;

	pv_strbuf_addch(sb, '\t');
	if (!e->has_tests) {
		pv_strbuf_addch(sb, '?');
		return;
	}
	for (i = 0; i < e->ntest; i++) {
		const struct pv_store_test *t = &e->test[i];

		if (strcmp(t->experiment, x) != 0)
			continue;
		if (n++ > 0)
			pv_strbuf_addch(sb, ',');
		add_test_name(sb, t->suite);
		pv_strbuf_addch(sb, '/');
		add_test_name(sb, t->test);
		pv_strbuf_addch(sb, ':');
		pv_strbuf_addu(sb, t->runs);
	}
	if (n == 0)
		pv_strbuf_addch(sb, '-');
}

/*
 * A line of log: the entry's version, date, object (its first 12 digits),
 * size, kinds, branch, then two fields an experiment: its identity and its
 * tests (add_tests()); TAB-separated and escaped as the fields of a record
 * are, '-' for an absent one.
 */
static void
log_entry(struct pv_strbuf *sb, const struct pv_store_entry *e)
{
	/* the day is formatted once a day: entries come a few a day */
	static char date[40];
	static size_t daylen;
	static int64_t day_of = -1;
	int s = (int)(e->time % 86400);
	time_t t = (time_t)e->time;
	struct tm tm;
	size_t i;

	if (e->time / 86400 != day_of) {
		day_of = e->time / 86400;
		daylen = gmtime_r(&t, &tm) == NULL ? 0 :
			strftime(date, sizeof(date), "%Y-%m-%dT", &tm);
	}
	pv_strbuf_reset(sb);
	pv_escape(sb, e->version, strlen(e->version), 0);
	if (daylen > 0) {
		char *p = date + daylen;

		p[0] = (char)('0' + s / 36000);
		p[1] = (char)('0' + s / 3600 % 10);
		p[2] = ':';
		p[3] = (char)('0' + s / 600 % 6);
		p[4] = (char)('0' + s / 60 % 10);
		p[5] = ':';
		p[6] = (char)('0' + s % 60 / 10);
		p[7] = (char)('0' + s % 10);
		p[8] = 'Z';
		pv_field_add_raw(sb, date, daylen + 9);
	} else {
		pv_strbuf_addch(sb, '\t');
		pv_strbuf_addf(sb, "%lld", (long long)e->time);
	}
	pv_field_add_raw(sb, e->hash, 12);
	pv_field_add_u64(sb, e->size);
	pv_field_add_opt(sb, e->kinds);
	pv_field_add_opt(sb, e->branch);
	for (i = 0; i < e->nexperiment; i++) {
		pv_field_add_opt(sb, e->experiment[i]);
		add_tests(sb, e, e->experiment[i]);
	}
	pv_field_end(sb);
	fwrite(sb->buf, 1, sb->len, stdout);
}

static int
cmd_log(const struct options *opt, int argc, char **argv)
{
	struct pv_store st = PV_STORE_INIT;
	struct pv_strbuf sb = PV_STRBUF_INIT;
	const char **want = NULL;
	size_t i;
	int k;

	open_store(&st, opt, READ_INDEX);
	if (argc > 0) {
		want = pv_xreallocarray(NULL, (size_t)argc, sizeof(*want));
		for (k = 0; k < argc; k++)
			want[k] = resolve_or_die(&st, argv[k]);
	}
	for (i = 0; i < st.nentry; i++) {
		const struct pv_store_entry *e = &st.entry[i];

		if (!e->live || !has_experiment(e, opt->experiment))
			continue;
		for (k = 0; k < argc; k++)
			if (strcmp(want[k], e->version) == 0)
				break;
		if (argc > 0 && k == argc)
			continue;
		log_entry(&sb, e);
	}
	free(want);
	pv_strbuf_release(&sb);
	pv_store_release(&st);
	return PV_EXIT_OK;
}

/* show and pair */

/* The streams a command writes out: live entries, in index order. */
struct streams {
	const struct pv_store_entry **e;
	size_t n, alloc;
};

/*
 * Add the live streams of version to s (only those whose object name
 * starts with object, and that hold experiment, when not NULL); returns
 * how many were added.
 */
static size_t
select_streams(const struct pv_store *st, struct streams *s,
	       const char *version, const char *object,
	       const char *experiment)
{
	size_t i, n0 = s->n;

	for (i = 0; i < st->nentry; i++) {
		const struct pv_store_entry *e = &st->entry[i];

		if (!e->live || strcmp(e->version, version) != 0 ||
		    !has_experiment(e, experiment) ||
		    (object != NULL &&
		     strncmp(e->hash, object, strlen(object)) != 0))
			continue;
		/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
		PV_GROW(s->e, s->n + 1, s->alloc);
		s->e[s->n++] = e;
	}
	return s->n - n0;
}

/*
 * Verify, then copy: the objects of every stream a command is to write
 * are checked against their names (pv_store_check()) before a byte of any
 * is written, so that a damaged one ends the command with nothing on
 * standard output.  show and pair call it once for all they write; so
 * must any other command that writes objects out.
 */
static void
check_streams(struct pv_store *st, const struct streams *s)
{
	size_t bad;

	if (pv_store_check(st, s->e, s->n, &bad) != 0)
		pv_die("object %.12s of '%s': %s", s->e[bad]->hash,
		       s->e[bad]->version, pv_err_msg(&st->err));
}

/*
 * Write streams [from, to) of s, which check_streams() passed: whole and
 * byte for byte, or only the sections of an experiment, or with roles and
 * the stored version set (pair).
 */
static void
write_streams(struct pv_store *st, const struct streams *s, size_t from,
	      size_t to, const char *role, const char *experiment)
{
	uint64_t run_base = 0;
	size_t i;
	int rc;

	for (i = from; i < to; i++) {
		const struct pv_store_entry *e = s->e[i];

		if (role == NULL && experiment == NULL)
			rc = pv_store_cat(st, e->hash, stdout);
		else
			rc = pv_store_cat_records(st, e->hash, stdout, role,
						  e->version, experiment,
						  role != NULL ? &run_base :
						  NULL);
		if (rc != 0)
			pv_die("object %.12s of '%s': %s", e->hash, e->version,
			       pv_err_msg(&st->err));
	}
}

static int
cmd_show(const struct options *opt, int argc, char **argv)
{
	struct pv_store st = PV_STORE_INIT;
	struct streams s = { NULL, 0, 0 };
	const char *v;

	open_store(&st, opt, READ);
	v = resolve_or_die(&st, argv[0]);
	if (argc == 2 && (argv[1][0] == '\0' ||
			  strlen(argv[1]) > PV_SHA256_HEXLEN))
		pv_die("bad object name '%s'", argv[1]);
	if (select_streams(&st, &s, v, argc == 2 ? argv[1] : NULL,
			   opt->experiment) == 0) {
		if (argc == 2)
			pv_die("'%s' has no object '%s'%s", v, argv[1],
			       opt->experiment ? " with that experiment" : "");
		pv_die("no stream of '%s' has experiment '%s'", v,
		       opt->experiment != NULL && *opt->experiment ?
		       opt->experiment : "-");
	}
	check_streams(&st, &s);
	if (opt->experiment != NULL)
		pv_write_version(stdout);
	write_streams(&st, &s, 0, s.n, NULL, opt->experiment);
	free(s.e);
	pv_store_release(&st);
	return PV_EXIT_OK;
}

/* baseline */

/* The baseline of name by the rule (or --baseline); dies without one. */
static const char *
find_baseline(struct pv_store *st, const struct options *opt,
	      const char *name)
{
	const char *found;

	if (opt->baseline != NULL)
		return resolve_or_die(st, opt->baseline);
	switch (pv_store_version_baseline(st, name, &found)) {
	case 0:
		return found;
	case 1:
		pv_die("no baseline for '%s' in the store", name);
	case 2:
		pv_die("'%s' is neither a kernel version nor a git commit; "
		       "name its baseline with --baseline", name);
	default:
		store_die(st);
	}
}

static int
cmd_baseline(const struct options *opt, int argc, char **argv)
{
	struct pv_store st = PV_STORE_INIT;

	(void)argc;
	open_store(&st, opt, READ_INDEX);
	printf("%s\n", find_baseline(&st, opt, argv[0]));
	pv_store_release(&st);
	return PV_EXIT_OK;
}

/* Whether a live stream of version holds experiment x (NULL: any). */
static int
version_has(const struct pv_store *st, const char *version, const char *x)
{
	size_t i;

	for (i = 0; i < st->nentry; i++)
		if (st->entry[i].live &&
		    strcmp(st->entry[i].version, version) == 0 &&
		    has_experiment(&st->entry[i], x))
			return 1;
	return 0;
}

/* Warn of the experiments of version a that version b lacks. */
static void
warn_unmatched(const struct pv_store *st, const char *a, const char *b)
{
	size_t i, k, j;

	for (i = 0; i < st->nentry; i++) {
		const struct pv_store_entry *e = &st->entry[i];

		if (!e->live || strcmp(e->version, a) != 0)
			continue;
		for (k = 0; k < e->nexperiment; k++) {
			const char *x = e->experiment[k];

			/* once per experiment: skip those seen before */
			for (j = 0; j < i; j++)
				if (st->entry[j].live &&
				    strcmp(st->entry[j].version, a) == 0 &&
				    has_experiment(&st->entry[j], x))
					break;
			if (j == i && !version_has(st, b, x))
				pv_warn("experiment '%s' of '%s' is not in "
					"'%s': it has nothing to compare with",
					*x ? x : "-", a, b);
		}
	}
}

static int
cmd_pair(const struct options *opt, int argc, char **argv)
{
	struct pv_store st = PV_STORE_INIT;
	struct streams s = { NULL, 0, 0 };
	const char *target, *base;
	const char *x = opt->experiment;
	size_t nbase;

	(void)argc;
	open_store(&st, opt, READ);
	target = resolve_or_die(&st, argv[0]);
	base = find_baseline(&st, opt, target);
	if (strcmp(base, target) == 0)
		pv_die("'%s' is its own baseline", target);
	if ((nbase = select_streams(&st, &s, base, NULL, x)) == 0)
		pv_die("no stream of baseline '%s' has experiment '%s'", base,
		       x != NULL && *x ? x : "-");
	if (select_streams(&st, &s, target, NULL, x) == 0)
		pv_die("no stream of '%s' has experiment '%s'", target,
		       x != NULL && *x ? x : "-");
	/* both sides whole, or nothing written */
	check_streams(&st, &s);
	/* like with like: say what one side has and the other lacks */
	if (x == NULL) {
		warn_unmatched(&st, base, target);
		warn_unmatched(&st, target, base);
	}
	pv_write_version(stdout);
	write_streams(&st, &s, 0, nbase, "baseline", x);
	write_streams(&st, &s, nbase, s.n, "target", x);
	free(s.e);
	pv_store_release(&st);
	return PV_EXIT_OK;
}

/* series */

/* Whether version v is one the operands name. */
static int
asked(const struct pv_store *st, int argc, char **argv, const char *v)
{
	int i;

	for (i = 0; i < argc; i++)
		if (strcmp(resolve_or_die(st, argv[i]), v) == 0)
			return 1;
	return 0;
}

static int
cmd_series(const struct options *opt, int argc, char **argv)
{
	struct pv_store st = PV_STORE_INIT;
	struct streams s = { NULL, 0, 0 };
	const char *x = opt->experiment, *since = NULL, *until = NULL;
	const char **v;
	size_t i, k, n = 0, from, to;

	open_store(&st, opt, READ);
	/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
	v = pv_xreallocarray(NULL, st.nentry + (size_t)argc + 2, sizeof(*v));
	if (argc > 0) {
		for (i = 0; i < (size_t)argc; i++)
			v[n++] = resolve_or_die(&st, argv[i]);
	} else {
		for (i = 0; i < st.nentry; i++)
			if (st.entry[i].live)
				v[n++] = st.entry[i].version;
	}
	/* the bounds are ordered with the versions, then dropped */
	if (opt->since != NULL)
		v[n++] = since = resolve_or_die(&st, opt->since);
	if (opt->until != NULL)
		v[n++] = until = resolve_or_die(&st, opt->until);
	/* each version once */
	for (i = k = 0; i < n; i++) {
		size_t j;

		for (j = 0; j < k; j++)
			if (strcmp(v[j], v[i]) == 0)
				break;
		if (j == k)
			v[k++] = v[i];
	}
	n = k;
	if (pv_store_version_order(&st, v, n) > 0)
		pv_warn("%s", pv_err_msg(&st.err));
	for (from = 0; since != NULL && strcmp(v[from], since) != 0; from++)
		;
	for (to = n; until != NULL && strcmp(v[to - 1], until) != 0; to--)
		;
	/* those from --since to --until that were asked for, with x */
	for (i = from, k = 0; i < to; i++)
		if (version_has(&st, v[i], x) &&
		    (argc == 0 || asked(&st, argc, argv, v[i])))
			v[k++] = v[i];
	n = k;
	if (n == 0)
		pv_die("no stored version%s%s in the series", x != NULL ?
		       " with that experiment" : "", since || until ?
		       " from --since to --until" : "");
	for (k = 0; k < n; k++)
		select_streams(&st, &s, v[k], NULL, x);
	/* every version whole, or nothing written */
	check_streams(&st, &s);
	pv_write_version(stdout);
	/* each version's runs numbered from 0, as pair does */
	for (i = 0; i < s.n; i = k) {
		for (k = i + 1; k < s.n && strcmp(s.e[k]->version,
						  s.e[i]->version) == 0; k++)
			;
		write_streams(&st, &s, i, k, "-", x);
	}
	free(s.e);
	free(v);
	pv_store_release(&st);
	return PV_EXIT_OK;
}

/* rm, gc, verify */

static int
cmd_rm(const struct options *opt, int argc, char **argv)
{
	struct pv_store st = PV_STORE_INIT;
	struct pv_strbuf lines = PV_STRBUF_INIT;
	const char *v;
	size_t i, plen = 0;

	open_store(&st, opt, APPEND);
	v = resolve_or_die(&st, argv[0]);
	if (argc == 2 && ((plen = strlen(argv[1])) == 0 ||
			  plen > PV_SHA256_HEXLEN))
		pv_die("bad object name '%s'", argv[1]);
	for (i = 0; i < st.nentry; i++) {
		const struct pv_store_entry *e = &st.entry[i];

		if (!e->live || strcmp(e->version, v) != 0 ||
		    (plen > 0 && strncmp(e->hash, argv[1], plen) != 0))
			continue;
		pv_store_index_format_rm(&lines, e->version, e->hash,
					 opt->have_date ? opt->date :
					 (int64_t)time(NULL));
	}
	if (lines.len == 0)
		pv_die("'%s' has no object '%s'", v, argv[1]);
	if (pv_store_index_append(&st, &lines) < 0)
		store_die(&st);
	pv_strbuf_release(&lines);
	pv_store_release(&st);
	return PV_EXIT_OK;
}

static const char *
plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

static int
cmd_gc(const struct options *opt, int argc, char **argv)
{
	struct pv_store st = PV_STORE_INIT;
	struct pv_store_gc_stats gs;
	char *dir = store_dir(opt);
	int rc;

	(void)argc;
	(void)argv;
	if (pv_store_open(&st, dir) < 0 || pv_store_prepare(&st) < 0)
		store_die(&st);
	free(dir);
	rc = pv_store_gc(&st, &gs);
	/* what was removed was removed, even when the index could not be
	   rewritten after (a full disk) */
	printf("removed %zu %s, %llu bytes, and %zu temporary %s, %llu "
	       "bytes; dropped %zu withdrawn %s\n", gs.objects,
	       plural(gs.objects, "object", "objects"),
	       (unsigned long long)gs.bytes, gs.tmpfiles,
	       plural(gs.tmpfiles, "file", "files"),
	       (unsigned long long)gs.tmpbytes, gs.withdrawn,
	       plural(gs.withdrawn, "entry", "entries"));
	if (rc < 0) {
		fflush(stdout);
		store_die(&st);
	}
	pv_store_release(&st);
	return PV_EXIT_OK;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Print a problem and the versions that name the object. */
static void
report(const struct pv_store *st, const char *what, const char *hash)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;
	size_t i;

	pv_strbuf_addstr(&sb, what);
	pv_field_add_raw(&sb, hash, strlen(hash));
	for (i = 0; i < st->nentry; i++)
		if (st->entry[i].live && strcmp(st->entry[i].hash, hash) == 0)
			pv_field_add_opt(&sb, st->entry[i].version);
	pv_field_end(&sb);
	fwrite(sb.buf, 1, sb.len, stdout);
	pv_strbuf_release(&sb);
}

/*
 * Rehash every object and look for every live entry's: each corrupt or
 * missing one reported (stdout and stderr).  Returns whether any was.
 */
static int
check_objects(struct pv_store *st)
{
	char **names;
	size_t n, stray, i;
	int bad = 0, rc;

	if (pv_store_obj_list(st, &names, &n, &stray) < 0)
		store_die(st);
	if (stray > 0)
		pv_warn("%zu files in '%s/objects' are not objects", stray,
			st->dir);
	for (i = 0; i < n; i++) {
		rc = pv_store_verify(st, names[i], NULL);
		if (rc < 0)
			store_die(st);
		if (rc > 0) {
			pv_warn("%s", pv_err_msg(&st->err));
			report(st, "corrupt", names[i]);
			bad = 1;
		}
	}
	/* every live entry's object must be there (names[] is sorted) */
	for (i = 0; i < st->nentry; i++) {
		const struct pv_store_entry *e = &st->entry[i];
		const char *key = e->hash;
		size_t j;

		/* (no object at all: names is NULL, which bsearch refuses) */
		if (!e->live || (n > 0 && bsearch(&key, names, n,
						  sizeof(*names),
						  cmp_str) != NULL))
			continue;
		bad = 1;
		/* one report per object, at its first entry */
		for (j = 0; j < i; j++)
			if (st->entry[j].live &&
			    strcmp(st->entry[j].hash, e->hash) == 0)
				break;
		if (j == i) {
			pv_warn("object %s is missing", e->hash);
			report(st, "missing", e->hash);
		}
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return bad;
}

static int
cmd_verify(const struct options *opt, int argc, char **argv)
{
	struct pv_store st = PV_STORE_INIT;
	int bad;

	(void)argc;
	(void)argv;
	open_store(&st, opt, READ);
	if (st.torn)
		pv_warn("the index ends in a cut line; it is ignored, and "
			"the next add or rm removes it");
	bad = check_objects(&st);
	pv_store_release(&st);
	return bad ? PV_EXIT_FOUND : PV_EXIT_OK;
}

/* fsck */

/* A damaged index line: "damaged TAB LINE TAB MESSAGE", and a warning. */
static void
report_line(void *arg, unsigned long line, const char *msg)
{
	const struct pv_store *st = arg;
	struct pv_strbuf sb = PV_STRBUF_INIT;

	pv_strbuf_addf(&sb, "%s/index", st->dir);
	pv_warn_at(sb.buf, line, "%s", msg);
	pv_strbuf_reset(&sb);
	pv_strbuf_addstr(&sb, "damaged");
	pv_field_add_u64(&sb, line);
	pv_field_add(&sb, msg, strlen(msg));
	pv_field_end(&sb);
	fwrite(sb.buf, 1, sb.len, stdout);
	pv_strbuf_release(&sb);
}

/* A link where the store keeps a file: "link TAB PATH", and a warning. */
static void
report_link(void *arg, const char *rel, int repaired)
{
	const struct pv_store *st = arg;
	struct pv_strbuf sb = PV_STRBUF_INIT;

	pv_warn("'%s/%s' is a symbolic link%s", st->dir, rel,
		repaired ? ": replaced by what the store keeps there" :
		": pv-store follows none (fsck --repair replaces it)");
	pv_strbuf_addstr(&sb, "link");
	pv_field_add(&sb, rel, strlen(rel));
	pv_field_end(&sb);
	fwrite(sb.buf, 1, sb.len, stdout);
	pv_strbuf_release(&sb);
}

static int
cmd_fsck(const struct options *opt, int argc, char **argv)
{
	struct pv_store st = PV_STORE_INIT;
	char *dir = store_dir(opt);
	long damaged, links, dropped;
	int bad;

	(void)argc;
	(void)argv;
	if (pv_store_open(&st, dir) < 0)
		store_die(&st);
	free(dir);
	/* links first: the lock itself may be one */
	if ((links = pv_store_check_links(&st, opt->repair, report_link,
					  &st)) < 0 ||
	    (opt->repair && pv_store_prepare(&st) < 0) ||
	    pv_store_lock(&st, opt->repair) < 0)
		store_die(&st);
	if ((damaged = pv_store_index_check(&st, report_line, &st)) < 0)
		store_die(&st);
	if (st.torn)
		pv_warn("the index ends in a cut line (%s/index:%lu), a write "
			"that never finished; %s", st.dir, st.torn,
			opt->repair ? "it goes" : "the next add or rm removes "
			"it");
	bad = check_objects(&st);
	if (opt->repair && (damaged > 0 || st.torn)) {
		if ((dropped = pv_store_index_repair(&st)) < 0)
			store_die(&st);
		pv_warn("'%s/index' rewritten without %ld damaged %s", st.dir,
			dropped, dropped == 1 ? "line" : "lines");
	}
	pv_store_release(&st);
	return bad || damaged > 0 || links > 0 ? PV_EXIT_FOUND : PV_EXIT_OK;
}

static int64_t
parse_date(const char *s)
{
	uint64_t v;

	if (pv_parse_u64(s, strlen(s), &v) < 0 || v > INT64_MAX) {
		pv_error("bad --date '%s' (seconds since 1970 expected)", s);
		pv_usage_exit(usage, help, PV_EXIT_TROUBLE);
	}
	return (int64_t)v;
}

/*
 * The commands, in the order of the usage and the help, as git.c's
 * commands[]: the name, the function, the options it takes (getopt's
 * letters), how many operands (max -1: any number), what follows the name
 * in its usage line, and its lines in the help.
 */
static const struct command {
	const char *name;
	int (*fn)(const struct options *opt, int argc, char **argv);
	const char *opts;
	int min_args, max_args;
	const char *synopsis;
	const char *help;
} commands[] = {
	{ "init", cmd_init, "", 0, 0, "",
	  "make a store" },
	{ "add", cmd_add, "vd", 0, -1,
	  "[--version=VERSION] [--date=SECONDS] [FILE ...]",
	  "store streams (FILE, or standard input) under a version:\n"
	  "a git commit (default HEAD), a kernel release, a name" },
	{ "log", cmd_log, "e", 0, -1, "[--experiment=ID] [VERSION ...]",
	  "list the stored streams: version, date, object, size,\n"
	  "kinds, branch, experiments" },
	{ "show", cmd_show, "e", 1, 2, "[--experiment=ID] VERSION [OBJECT]",
	  "write a version's streams (or one OBJECT) back, byte for\n"
	  "byte" },
	{ "rm", cmd_rm, "d", 1, 2, "VERSION [OBJECT]",
	  "withdraw a version's streams (or one OBJECT of them)" },
	{ "gc", cmd_gc, "", 0, 0, "",
	  "drop withdrawn entries and objects nothing names" },
	{ "verify", cmd_verify, "", 0, 0, "",
	  "rehash every object; list the corrupt and missing ones" },
	{ "fsck", cmd_fsck, "r", 0, 0, "[--repair]",
	  "list every damaged index line, corrupt or missing object\n"
	  "and link; --repair drops the damaged lines" },
	{ "baseline", cmd_baseline, "b", 1, 1, "[--baseline=VERSION] VERSION",
	  "print the version a version is compared against" },
	{ "pair", cmd_pair, "be", 1, 1,
	  "[--baseline=VERSION] [--experiment=ID] VERSION",
	  "print baseline and target streams as one, roles set" },
	{ "series", cmd_series, "eSU", 0, -1,
	  "[--experiment=ID] [--since=VERSION] [--until=VERSION] "
	  "[VERSION ...]",
	  "print the streams of many versions in version order,\n"
	  "versions set, for pv-series" },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

/*
 * The usage, a line a command, and the help: the commands with their
 * lines, each after the first indented under the first.
 */
static void
make_usage(void)
{
	struct pv_strbuf u = PV_STRBUF_INIT, h = PV_STRBUF_INIT;
	const char *p, *nl;
	size_t i;

	pv_strbuf_addstr(&h, help_head);
	for (i = 0; i < NCOMMANDS; i++) {
		const struct command *c = &commands[i];

		pv_strbuf_addf(&u, "%spv-store [--store=DIR] %s%s%s",
			       i > 0 ? "\n       " : "", c->name,
			       *c->synopsis != '\0' ? " " : "", c->synopsis);
		pv_strbuf_addf(&h, "  %-10s", c->name);
		for (p = c->help; p != NULL; p = nl != NULL ? nl + 1 : NULL) {
			nl = strchr(p, '\n');
			pv_strbuf_addf(&h, "%s%.*s\n", p == c->help ? "" :
				       "            ", nl != NULL ?
				       (int)(nl - p) : (int)strlen(p), p);
		}
	}
	pv_strbuf_addstr(&h, help_tail);
	usage = pv_strbuf_detach(&u, NULL);
	help = pv_strbuf_detach(&h, NULL);
}

static const struct command *
find_command(const char *name)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

int
main(int argc, char **argv)
{
	static const struct option global[] = {
		{ "store", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	static const struct option local[] = {
		{ "version", required_argument, NULL, 'v' },
		{ "date", required_argument, NULL, 'd' },
		{ "experiment", required_argument, NULL, 'e' },
		{ "baseline", required_argument, NULL, 'b' },
		{ "repair", no_argument, NULL, 'r' },
		{ "since", required_argument, NULL, 'S' },
		{ "until", required_argument, NULL, 'U' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const struct command *cmd;
	struct options opt;
	int c, rc, nargs;
	char **args;

	pv_diag_init(argv[0]);
	make_usage();
	memset(&opt, 0, sizeof(opt));
	/* options before the command: "+" stops at the command */
	while ((c = getopt_long(argc, argv, "+s:hV", global, NULL)) != -1) {
		switch (c) {
		case 's':
			opt.store = optarg;
			break;
		default:
			pv_opt_common(c, usage, help);
		}
	}
	if (optind == argc) {
		pv_error("no command");
		pv_usage_exit(usage, help, PV_EXIT_TROUBLE);
	}
	if ((cmd = find_command(argv[optind])) == NULL) {
		pv_error("unknown command '%s'", argv[optind]);
		pv_usage_exit(usage, help, PV_EXIT_TROUBLE);
	}
	argc -= optind;
	argv += optind;
	/* the command's options; optind 0 restarts getopt's scan */
	optind = 0;
	while ((c = getopt_long(argc, argv, "v:d:e:b:rS:U:h", local,
				NULL)) != -1) {
		if (c == 'h')
			pv_usage_exit(usage, help, PV_EXIT_OK);
		if (c == '?' || strchr(cmd->opts, c) == NULL) {
			if (c != '?')
				pv_error("'%s' takes no option '%s'",
					 cmd->name, argv[optind - 1]);
			pv_usage_exit(usage, help, PV_EXIT_TROUBLE);
		}
		switch (c) {
		case 'v':
			opt.version = optarg;
			break;
		case 'd':
			opt.date = parse_date(optarg);
			opt.have_date = 1;
			break;
		case 'e':
			/* "-" is the absent experiment, stored as "" */
			opt.experiment = strcmp(optarg, "-") == 0 ? "" : optarg;
			break;
		case 'b':
			opt.baseline = optarg;
			break;
		case 'r':
			opt.repair = 1;
			break;
		case 'S':
			opt.since = optarg;
			break;
		case 'U':
			opt.until = optarg;
			break;
		}
	}
	args = argv + optind;
	nargs = argc - optind;
	if (nargs < cmd->min_args ||
	    (cmd->max_args >= 0 && nargs > cmd->max_args))
		pv_usage_exit(usage, help, PV_EXIT_TROUBLE);
	rc = cmd->fn(&opt, nargs, args);
	pv_close_stdout();
	return rc;
}
