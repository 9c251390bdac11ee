/*
 * pv-parse: turn `perf script` text into pv stack records.
 *
 * Each input file becomes one section: its `perf script --header` lines as
 * env records, then one stack record per distinct (event, stack), sorted,
 * with the sample count and the period sum.  Frames are named as
 * stackcollapse-perf.pl names them (lib/perfscript.c), so that
 * `pv-parse FILE | pv-render --format=folded` gives the folded stacks the
 * FlameGraph tools expect.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "opt.h"
#include "bench.h"
#include "blockfeed.h"
#include "elfsym.h"
#include "input.h"
#include "perfscript.h"
#include "rec_profile.h"
#include "record.h"
#include "stacktab.h"
#include "strbuf.h"
#include "symtab.h"
#include "xalloc.h"

static const char usage[] =
	"pv-parse [--format=FORMAT] [--pid | --tid] [--kernel] [--jit] [--all]\n"
	"                [--addrs] [--debuginfo] [--vmlinux=FILE] [--source-root=DIR]\n"
	"                [--event-filter=EVENT] [--suite=SUITE] [--test=TEST]\n"
	"                [--level=N] [--run=N] [--role=ROLE] [--subject=VERSION]\n"
	"                [--experiment=ID] [--meta=KEY=VALUE] [FILE ...]";

static const char help[] =
	"Turn `perf script` output into pv stack records, and benchmark output\n"
	"into pv sample records (pv-format(5)).\n"
	"\n"
	"  -f, --format=FORMAT     perf, stress-ng, will-it-scale, sysbench,\n"
	"                          unixbench, generic or mmtests (default: told\n"
	"                          by the first line; a directory is mmtests)\n"
	"  -p, --pid               name the root frame COMM-PID\n"
	"  -t, --tid               name the root frame COMM-PID/TID\n"
	"  -k, --kernel            suffix kernel frames with _[k]\n"
	"  -j, --jit               suffix JIT frames with _[j]\n"
	"  -a, --all               both --kernel and --jit\n"
	"      --addrs             keep the addresses of unknown frames\n"
	"      --debuginfo         the frames' source files, from the DWARF of the\n"
	"                          files the capture names\n"
	"      --vmlinux=FILE      the kernel's DWARF (implies --debuginfo)\n"
	"      --source-root=DIR   source files relative to DIR, not to their\n"
	"                          compilation directory\n"
	"  -e, --event-filter=EVENT  keep only the samples of EVENT\n"
	"      --suite=SUITE       benchmarks: the suite instead of the format's\n"
	"      --test=TEST         benchmarks: the test where the output has none\n"
	"      --level=N           benchmarks: the concurrency level, if not said\n"
	"      --run=N             benchmarks: the number of the first run\n"
	"  -r, --role=ROLE         the section's role (baseline, target)\n"
	"  -s, --subject=VERSION   the version the capture measured\n"
	"  -x, --experiment=ID     the experiment identity\n"
	"  -m, --meta=KEY=VALUE    add a meta record (repeatable)\n"
	"  -h, --help              print this help and exit\n"
	"  -V, --version           print the version and exit\n"
	"\n"
	"With no FILE, or when FILE is -, read standard input; gzip-compressed\n"
	"input is read transparently.  Each FILE becomes one section (each run of\n"
	"an MMTests tree, one section); the runs of benchmark FILEs are numbered\n"
	"on from one FILE to the next, so that each FILE is a run of its own.\n"
	"\n"
	"Exit status: 0 on success, 2 on trouble (malformed input included).\n";

/* warnings printed per input before they are only counted */
#define MAX_WARNINGS 10
/* threads folding one file, and the least bytes worth a thread */
#define MAX_THREADS 8
#define MIN_CHUNK (16u << 20)

struct options {
	struct pv_perf_opts perf;
	const char *role, *subject, *experiment;
	char **meta;		/* "KEY=VALUE" */
	size_t nmeta;
	int wrote_version;	/* output starts only with a good section */
	const char *format;	/* NULL: by the input's first line */
	const char *suite, *test;	/* for benchmark output */
	uint64_t level, run;
	uint64_t next_run;	/* of the next benchmark file; 0: --run's */
	struct pv_elfsym *debuginfo;	/* --debuginfo: source files */
	const char *vmlinux, *source_root;
};

/* The --meta facts, as meta records. */
static void
write_meta(const struct options *opt)
{
	size_t i;

	for (i = 0; i < opt->nmeta; i++) {
		const char *eq = strchr(opt->meta[i], '=');
		char *key = pv_xmemdup(opt->meta[i],
				       (size_t)(eq - opt->meta[i]));

		pv_write_kv(stdout, "meta", key, eq + 1);
		free(key);
	}
}

/*
 * What one part of a capture said: the first MAX_WARNINGS warnings (with
 * their lines, counted from 1 at the part's start), how many there were,
 * and the error that ended it.
 */
struct report {
	unsigned long failed_line;	/* line of the error */
	char *error;		/* NULL if none */
	struct warning {
		unsigned long line;
		char *msg;
	} warn[MAX_WARNINGS];
	unsigned long nwarn;	/* all of them, printed or not */
	unsigned long lines;	/* in the part (a block of a stream) */
	/* a block: the events of its folder's first stacks, NUL-ended */
	struct pv_strbuf events;
};

static void
report_clear(struct report *r)
{
	unsigned long i;

	for (i = 0; i < r->nwarn && i < MAX_WARNINGS; i++)
		free(r->warn[i].msg);
	free(r->error);
	pv_strbuf_release(&r->events);
	memset(r, 0, sizeof(*r));
}

static void
report_fail(struct report *r, unsigned long line, const char *msg)
{
	r->failed_line = line;
	r->error = pv_xstrdup(msg);
}

/*
 * Print the warnings of a part whose first line is line base + 1 (the
 * first MAX_WARNINGS of the input, counted in *warned).  Returns its
 * error, or NULL.
 */
static const char *
report_say(const struct report *r, const char *name, unsigned long base,
	   unsigned long *warned)
{
	unsigned long k;

	for (k = 0; k < r->nwarn && k < MAX_WARNINGS; k++)
		if ((*warned)++ < MAX_WARNINGS)
			pv_warn_at(name, base + r->warn[k].line, "%s",
				   r->warn[k].msg);
	if (r->nwarn > MAX_WARNINGS)
		*warned += r->nwarn - MAX_WARNINGS;
	return r->error;
}

/*
 * A folder of a capture, or of a part of one, with its own tables: a
 * thread's part of a file (its report says how it went), or a worker's
 * blocks of a stream (each block has a report of its own).
 */
struct chunk {
	const char *path;
	uint64_t off, len;	/* the part of the file; len 0: all of it */
	struct pv_symtab names;
	struct pv_stacktab stacks;
	struct pv_perf *perf;
	struct pv_input *in;	/* already open (standard input), or NULL */
	const char *first;	/* a line read already, to fold first */
	size_t first_len;
	struct report rep;
	int failed;		/* the folder stopped at an error */
	size_t nstack_seen;	/* stacks whose events are noted */
	unsigned char *event_seen;	/* by names id */
	size_t event_alloc;
};

static void
chunk_init(struct chunk *c, const struct options *opt, const char *path,
	   int continuation)
{
	struct pv_perf_opts po = opt->perf;

	memset(c, 0, sizeof(*c));
	c->path = path;
	po.continuation = continuation;
	pv_symtab_init(&c->names);
	pv_stacktab_init(&c->stacks);
	c->perf = pv_perf_new(&po, &c->names, &c->stacks);
}

static void
chunk_release(struct chunk *c)
{
	report_clear(&c->rep);
	free(c->event_seen);
	pv_perf_free(c->perf);
	pv_stacktab_release(&c->stacks);
	pv_symtab_release(&c->names);
}

/* Fold one line; -1 after an error (kept in the report). */
static int
fold_line(struct pv_perf *perf, struct report *r, const char *line,
	  size_t len, unsigned long lineno)
{
	int rc = pv_perf_line(perf, line, len);

	if (rc < 0) {
		report_fail(r, lineno, pv_perf_message(perf));
		return -1;
	}
	if (rc == PV_PERF_WARN && r->nwarn++ < MAX_WARNINGS) {
		r->warn[r->nwarn - 1].line = lineno;
		r->warn[r->nwarn - 1].msg = pv_xstrdup(pv_perf_message(perf));
	}
	return 0;
}

/* Fold the chunk's lines; errors and warnings are kept in the chunk. */
static void *
run_chunk(void *arg)
{
	struct chunk *c = arg;
	struct pv_input *in = c->in;
	char *line;
	size_t len;
	unsigned long lineno = 0;
	int rc = 0;

	if (in == NULL)
		in = c->len ? pv_input_open_range(c->path, c->off, c->len) :
			      pv_input_open(c->path);
	if (in == NULL) {
		report_fail(&c->rep, 0, strerror(errno));
		return NULL;
	}
	if (c->first != NULL) {
		lineno = pv_input_lineno(in);
		if (fold_line(c->perf, &c->rep, c->first, c->first_len,
			      lineno) < 0)
			goto out;
	}
	while ((rc = pv_input_getline(in, &line, &len)) > 0) {
		lineno = pv_input_lineno(in);
		if (fold_line(c->perf, &c->rep, line, len, lineno) < 0)
			goto out;
	}
	if (rc < 0)
		report_fail(&c->rep, pv_input_lineno(in), pv_input_error(in));
	else if (pv_perf_finish(c->perf) < 0)
		report_fail(&c->rep, lineno, pv_perf_message(c->perf));
out:
	if (c->in == NULL)
		pv_input_close(in);
	return NULL;
}

/*
 * PV_TEST_PARSE_BLOCK, for the tests: the bytes of a block of a stream
 * and the least part of a file worth a thread, so that small inputs are
 * split as large ones are.
 */
static size_t
test_block(void)
{
	const char *s = getenv("PV_TEST_PARSE_BLOCK");
	uint64_t v;

	if (s != NULL && pv_parse_u64(s, strlen(s), &v) == 0 && v > 0 &&
	    v < MIN_CHUNK)
		return (size_t)v;
	return 0;
}

/* The offset just after the first blank line at or after from, or 0. */
static uint64_t
sample_boundary(int fd, uint64_t from, uint64_t size)
{
	char buf[65536];
	ssize_t r;

	while (from < size) {
		const char *p;

		r = pread(fd, buf, sizeof(buf), (off_t)from);
		if (r < 2)
			return 0;
		p = memmem(buf, (size_t)r, "\n\n", 2);
		if (p != NULL)
			return from + (uint64_t)(p - buf) + 2;
		from += (uint64_t)r - 1;
	}
	return 0;
}

/* Lines in the first off bytes: where a later chunk's numbers start. */
static unsigned long
lines_before(const char *path, uint64_t off)
{
	char buf[65536];
	unsigned long n = 0;
	uint64_t at = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	while (fd >= 0 && at < off) {
		size_t want = off - at < sizeof(buf) ? (size_t)(off - at) :
			      sizeof(buf);
		ssize_t r = pread(fd, buf, want, (off_t)at);
		const char *p = buf;

		if (r <= 0)
			break;
		while ((p = memchr(p, '\n', (size_t)(buf + r - p))) != NULL) {
			n++;
			p++;
		}
		at += (uint64_t)r;
	}
	if (fd >= 0)
		close(fd);
	return n;
}

/*
 * Split a plain capture file into parts that end at a blank line (the end
 * of a sample), one per processor, and fold them in parallel.  Returns the
 * number of parts.
 */
static size_t
fold_parallel(const struct options *opt, const char *path, uint64_t size,
	      struct chunk *c)
{
	pthread_t tid[MAX_THREADS];
	int started[MAX_THREADS];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	uint64_t least = test_block() ? test_block() : MIN_CHUNK;
	size_t n = 1, i;
	int fd;

	if (cpus > MAX_THREADS)
		cpus = MAX_THREADS;
	while (n < (size_t)cpus && size / (n + 1) >= least)
		n++;
	fd = n > 1 ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	for (i = 1; i < n && fd >= 0; i++) {
		uint64_t cut = sample_boundary(fd, size / n * i, size);

		if (cut == 0 || cut <= c[i - 1].off || cut >= size)
			break;
		chunk_init(&c[i], opt, path, 1);
		c[i].off = cut;
		c[i].len = size - cut;
		c[i - 1].len = cut - c[i - 1].off;
	}
	if (fd >= 0)
		close(fd);
	n = i;
	if (n == 1)
		c[0].len = 0;	/* whole: read as any file */
	for (i = 1; i < n; i++) {
		started[i] = pthread_create(&tid[i], NULL, run_chunk,
					    &c[i]) == 0;
		if (!started[i])
			run_chunk(&c[i]);	/* no thread: do it here */
	}
	run_chunk(&c[0]);
	for (i = 1; i < n; i++)
		if (started[i])
			pthread_join(tid[i], NULL);
	return n;
}

/*
 * The modules of the frames (frame records): by names id of the first
 * chunk, the first line's, whichever chunk it was in.
 */
struct frames {
	struct pv_symtab mods;
	/* mod ~0: none; pos: where it came (pv_perf_frame_pos()) */
	struct { uint32_t mod; int kernel; uint64_t pos; } *f;
	size_t alloc;
};

static void
frames_add(struct frames *fr, const struct pv_symtab *names,
	   const struct chunk *c)
{
	size_t i, old;

	for (i = 0; i < c->names.nsym; i++) {
		struct pv_str m, name = pv_symtab_get(&c->names, (uint32_t)i);
		uint32_t id = names == &c->names ? (uint32_t)i :
			pv_symtab_find(names, name.s, name.len);
		uint64_t pos = pv_perf_frame_pos(c->perf, (uint32_t)i);
		int kernel;

		if (id == PV_HMAP_NONE ||
		    !pv_perf_frame(c->perf, (uint32_t)i, &m, &kernel))
			continue;
		if (id >= fr->alloc) {
			old = fr->alloc;
			PV_GROW(fr->f, (size_t)id + 1, fr->alloc);
			memset(fr->f + old, 0xff,
			       (fr->alloc - old) * sizeof(*fr->f));
		}
		/* the first chunk's, or the first block's of a stream */
		if (fr->f[id].mod != UINT32_MAX && fr->f[id].pos <= pos)
			continue;
		fr->f[id].mod = pv_symtab_intern(&fr->mods, m.s, m.len);
		fr->f[id].kernel = kernel;
		fr->f[id].pos = pos;
	}
}

static const struct pv_symtab *sort_names;

static int
cmp_name(const void *a, const void *b)
{
	return pv_str_cmp(pv_symtab_get(sort_names, *(const uint32_t *)a),
			  pv_symtab_get(sort_names, *(const uint32_t *)b));
}

/*
 * The source file of frame name (a names entry) in module, or a 0 length:
 * the ELF file is the module's path, or for the kernel --vmlinux's; the
 * name loses the annotation suffixes pv-perf added.
 */
static struct pv_str
frame_file(const struct options *opt, struct pv_str name, struct pv_str m,
	   int kernel)
{
	static const char *const sfx[] = { "_[k]", "_[j]", "_[i]" };
	struct pv_str none = { "", 0 };
	char *path;
	const char *file = NULL;
	size_t i;
	int found;

	/* "[libc.so.6]": a frame without a symbol, no function to look up */
	if (name.len > 0 && name.s[0] == '[')
		return none;
	for (i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++)
		if (name.len > 4 &&
		    memcmp(name.s + name.len - 4, sfx[i], 4) == 0)
			name.len -= 4;
	if (kernel && m.len == 17 && memcmp(m.s, "[kernel.kallsyms]", 17) == 0)
		path = opt->vmlinux != NULL ? pv_xstrdup(opt->vmlinux) : NULL;
	else if (m.len > 0 && m.s[0] == '/' && memchr(m.s, '\0', m.len) == NULL)
		path = pv_xmemdup(m.s, m.len);
	else
		path = NULL;
	if (path == NULL)
		return none;
	found = pv_elfsym_decl_file(opt->debuginfo, path, name.s, name.len,
				    opt->source_root, &file);
	free(path);
	if (!found)
		return none;
	return (struct pv_str){ file, strlen(file) };
}

/* A frame record per frame name a line gave, sorted by name. */
static void
frames_write(const struct options *opt, const struct frames *fr,
	     const struct pv_symtab *names)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;
	uint32_t *id = NULL;
	size_t i, n = 0;

	for (i = 0; i < fr->alloc && i < names->nsym; i++)
		if (fr->f[i].mod != UINT32_MAX)
			n++;
	if (n == 0)
		return;
	id = pv_xreallocarray(NULL, n, sizeof(*id));
	for (i = 0, n = 0; i < fr->alloc && i < names->nsym; i++)
		if (fr->f[i].mod != UINT32_MAX)
			id[n++] = (uint32_t)i;
	sort_names = names;
	qsort(id, n, sizeof(*id), cmp_name);
	sort_names = NULL;
	for (i = 0; i < n; i++) {
		struct pv_rec_frame r;

		memset(&r, 0, sizeof(r));
		r.name = pv_symtab_get(names, id[i]);
		r.space = fr->f[id[i]].kernel ? (struct pv_str){ "kernel", 6 } :
			  (struct pv_str){ "user", 4 };
		r.module = pv_symtab_get(&fr->mods, fr->f[id[i]].mod);
		if (opt->debuginfo != NULL)
			r.file = frame_file(opt, r.name, r.module,
					    fr->f[id[i]].kernel);
		pv_rec_frame_write(&sb, &r);
		if (sb.len >= 65536) {
			fwrite(sb.buf, 1, sb.len, stdout);
			pv_strbuf_reset(&sb);
		}
	}
	fwrite(sb.buf, 1, sb.len, stdout);
	pv_strbuf_release(&sb);
	free(id);
}

/*
 * A stream (a pipe, gzip data) folded by worker threads: the calling
 * thread reads it in blocks cut at sample boundaries (lib/blockfeed.c),
 * each worker folds the blocks it takes into its own chunk, and the
 * reports of the blocks are taken back in the stream's order, so that
 * the messages and their line numbers are those of one pass.
 */
struct stream {
	struct pv_input *in;
	const char *name;
	struct chunk *fold;	/* one a worker */
	struct report *rep;	/* one a block in flight */
	struct pv_symtab events;	/* in the order of their first stacks */
	int header_done;	/* a sample header line was cut past */
	unsigned long lines;	/* in the blocks taken */
	unsigned long warned;
	char *error;		/* the first error, in the stream's order */
	unsigned long error_line;
};

/* The end of the last blank line ("\n\n") of buf[from..len), or 0. */
static size_t
last_boundary(const char *buf, size_t from, size_t len)
{
	const char *q;

	while (len > from) {
		q = memrchr(buf + from, '\n', len - from);
		if (q == NULL)
			return 0;
		if (q > buf + from && q[-1] == '\n')
			return (size_t)(q - buf) + 1;
		len = (size_t)(q - buf);
	}
	return 0;
}

/* Whether a line is blank to the folder: white space only (C locale). */
static int
blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isspace((unsigned char)s[i]))
			return 0;
	return 1;
}

/*
 * Where a block of perf script text is cut: after its last blank line,
 * the end of a sample, but not within the header (the first worker folds
 * all of it); else after its last line, the sample going on in the next
 * block.
 */
static size_t
cut_samples(void *arg, const char *buf, size_t len, size_t index, int *whole)
{
	struct stream *st = arg;
	const char *s = buf, *end = buf + len, *nl;
	size_t from = 0, at;

	(void)index;
	while (!st->header_done && s < end &&
	       (nl = memchr(s, '\n', (size_t)(end - s))) != NULL) {
		if (*s != '#' && !blank(s, (size_t)(nl - s))) {
			st->header_done = 1;
			from = (size_t)(s - buf);
		}
		s = nl + 1;
	}
	if (st->header_done && (at = last_boundary(buf, from, len)) > 0) {
		*whole = 1;
		return at;
	}
	*whole = 0;
	nl = memrchr(buf, '\n', len);
	return nl != NULL ? (size_t)(nl - buf) + 1 : 0;
}

/*
 * The events whose first stacks in this folder came in this block, into
 * its report: taken in the stream's order, they give the events the order
 * of their first stacks in the stream, the order one pass writes them in.
 */
static void
note_events(struct chunk *c, struct report *r)
{
	size_t i;

	for (i = c->nstack_seen; i < c->stacks.nstack; i++) {
		uint32_t ev = c->stacks.stack[i].event;
		struct pv_str name;

		if (ev >= c->event_alloc) {
			size_t old = c->event_alloc;

			PV_GROW(c->event_seen, (size_t)ev + 1, c->event_alloc);
			memset(c->event_seen + old, 0, c->event_alloc - old);
		}
		if (c->event_seen[ev])
			continue;
		c->event_seen[ev] = 1;
		name = pv_symtab_get(&c->names, ev);
		pv_strbuf_add(&r->events, name.s, name.len);
		pv_strbuf_addch(&r->events, '\0');
	}
	c->nstack_seen = c->stacks.nstack;
}

/* Fold a block's lines, as pv_input_getline() cuts them. */
static void
fold_block(void *arg, size_t worker, const struct pv_blockfeed_block *b)
{
	struct stream *st = arg;
	struct chunk *c = &st->fold[worker];
	struct report *r = &st->rep[b->slot];
	const char *s = b->buf, *end = b->buf + b->len, *nl;
	const char *nul = memchr(b->buf, '\0', b->len);
	unsigned long lineno = 0;
	size_t n;

	if (c->failed)
		return;		/* an error came before: it ends the input */
	pv_perf_set_pos(c->perf, b->index);
	while (s < end) {
		nl = memchr(s, '\n', (size_t)(end - s));
		if (nl == NULL) {
			if (b->failed)
				break;	/* cut by the error */
			nl = end;
		}
		n = (size_t)(nl - s);
		lineno++;
		if (nul != NULL && nul < nl) {
			report_fail(r, lineno, "NUL byte in input "
				    "(a binary file?)");
			c->failed = 1;
			break;
		}
		if (n > 0 && s[n - 1] == '\r')
			n--;
		if (fold_line(c->perf, r, s, n, lineno) < 0) {
			c->failed = 1;
			break;
		}
		s = nl + 1;
	}
	r->lines = lineno;
	note_events(c, r);
}

/* The events a block noted, after those of the blocks before it. */
static void
take_events(struct stream *st, const struct report *r)
{
	const char *ev = r->events.buf, *end = ev + r->events.len;

	for (; ev < end; ev += strlen(ev) + 1)
		pv_symtab_intern(&st->events, ev, strlen(ev));
}

/*
 * The workers' stacks into one table in c[0], its events interned first
 * in the stream's order (pv_stacktab_sorted() orders the events by their
 * ids); c[1..jobs) are released.
 */
static void
merge_stream(struct stream *st, const char *name, struct chunk *c,
	     size_t jobs, struct frames *fr)
{
	struct pv_symtab names;
	struct pv_stacktab stacks;
	size_t i, used = 0;

	for (i = 1; i < jobs; i++)
		used += c[i].stacks.nstack > 0;
	if (used == 0) {
		/* one folder had it all: one pass's order already */
		for (i = 0; i < jobs; i++)
			frames_add(fr, &c[0].names, &c[i]);
		for (i = 1; i < jobs; i++)
			chunk_release(&c[i]);
		return;
	}
	pv_symtab_init(&names);
	pv_stacktab_init(&stacks);
	for (i = 0; i < st->events.nsym; i++) {
		struct pv_str ev = pv_symtab_get(&st->events, (uint32_t)i);

		pv_symtab_intern(&names, ev.s, ev.len);
	}
	for (i = 0; i < jobs; i++) {
		if (pv_stacktab_overflowed(&c[i].stacks))
			pv_die("%s: a count does not fit in 64 bits", name);
		/* the parts fitted alone, not together: no line to name */
		if (pv_stacktab_merge(&stacks, &names, &c[i].stacks,
				      &c[i].names) < 0)
			pv_die("%s: %s", name, pv_err_msg(&stacks.err));
		frames_add(fr, &names, &c[i]);
		if (i > 0)
			chunk_release(&c[i]);
	}
	/* c[0] keeps its folder for the header; its tables are replaced */
	pv_stacktab_release(&c[0].stacks);
	pv_symtab_release(&c[0].names);
	c[0].stacks = stacks;
	c[0].names = names;
}

/* A block done: its messages, in order; -1 after an error. */
static int
take_block(void *arg, const struct pv_blockfeed_block *b)
{
	struct stream *st = arg;
	struct report *r = &st->rep[b->slot];
	const char *err;

	if (st->error == NULL) {
		take_events(st, r);
		err = report_say(r, st->name, st->lines, &st->warned);
		if (err != NULL) {
			st->error = pv_xstrdup(err);
			st->error_line = st->lines + r->failed_line;
		} else if (b->failed) {
			/*
			 * after the lines before it, as one pass has it: the
			 * input counts none but the line too long, if that
			 * was the error
			 */
			st->error = pv_xstrdup(pv_input_error(st->in));
			st->error_line = st->lines + r->lines +
					 pv_input_lineno(st->in);
		}
		st->lines += r->lines;
	}
	report_clear(r);
	return st->error != NULL ? -1 : 0;
}

/*
 * Fold a stream open in "in" (its first lines read, then rewound) with
 * one chunk a worker in c.  Returns the number of chunks; dies on the
 * first error.
 */
static size_t
fold_stream(const struct options *opt, const char *path, const char *name,
	    struct pv_input *in, struct chunk *c, unsigned long *warned,
	    struct frames *fr)
{
	size_t jobs = pv_blockfeed_jobs(0), i;
	struct pv_blockfeed job;
	struct stream st;

	if (jobs > MAX_THREADS)
		jobs = MAX_THREADS;
#ifdef F_SETPIPE_SZ
	{
		/* a pipe of a MiB: fewer turns between writer and reader */
		struct stat sb;

		if (strcmp(path, "-") == 0 && fstat(0, &sb) == 0 &&
		    S_ISFIFO(sb.st_mode))
			(void)fcntl(0, F_SETPIPE_SZ, 1 << 20);
	}
#endif
	memset(&st, 0, sizeof(st));
	st.in = in;
	st.name = name;
	st.fold = c;
	for (i = 0; i < jobs; i++)
		chunk_init(&c[i], opt, path, i > 0);
	st.rep = pv_xcalloc(pv_blockfeed_slots(jobs), sizeof(*st.rep));
	/* the workers count the lines, not the thread that reads */
	pv_input_count_lines(in, 0);
	memset(&job, 0, sizeof(job));
	job.in = in;
	job.block = test_block();
	job.jobs = jobs;
	job.cut = cut_samples;
	job.work = fold_block;
	job.take = take_block;
	job.arg = &st;
	pv_blockfeed_run(&job);
	free(st.rep);
	*warned = st.warned;
	if (st.error != NULL)
		pv_die_at(name, st.error_line, "%s", st.error);
	/* only the last block can end within a sample (or the header) */
	for (i = 0; i < jobs; i++) {
		if (pv_perf_finish(c[i].perf) < 0)
			pv_die_at(name, st.lines, "%s",
				  pv_perf_message(c[i].perf));
		note_events(&c[i], &c[i].rep);
		take_events(&st, &c[i].rep);
	}
	merge_stream(&st, name, c, jobs, fr);
	pv_symtab_release(&st.events);
	return 1;
}

static void
parse_file(struct options *opt, const char *path, struct pv_input *in,
	   const char *first, size_t first_len)
{
	struct chunk c[MAX_THREADS];
	const char *name, *err;
	size_t n = 1, i;
	uint64_t size;
	unsigned long warned = 0;
	char *line;
	size_t len = 0;
	int opened = 0, rc;
	struct frames fr;
	int streamed = 0;

	memset(&fr, 0, sizeof(fr));
	pv_symtab_init(&fr.mods);
	name = strcmp(path, "-") == 0 ? "(standard input)" : path;
	if (in == NULL && pv_input_plain_size(path, &size) == 0) {
		chunk_init(&c[0], opt, path, 0);
		n = fold_parallel(opt, path, size, c);
	} else {
		if (in == NULL) {
			/* its first line read as parse_input() reads it */
			if ((in = pv_input_open(path)) == NULL)
				pv_die_errno("cannot open '%s'", path);
			opened = 1;
			while ((rc = pv_input_getline(in, &line, &len)) > 0 &&
			       len == 0)
				;
			if (rc < 0)
				pv_die_at(name, pv_input_lineno(in), "%s",
					  pv_input_error(in));
			first = rc > 0 ? line : NULL;
			first_len = len;
		}
		if (pv_input_rewind(in) == 0) {
			/* a pipe or compressed data: by blocks */
			n = fold_stream(opt, path, name, in, c, &warned,
					&fr);
			streamed = 1;
		} else {
			/* its start is gone (a MiB of blank lines): one pass */
			chunk_init(&c[0], opt, path, 0);
			c[0].in = in;
			c[0].first = first;
			c[0].first_len = first_len;
			run_chunk(&c[0]);
		}
		if (opened)
			pv_input_close(in);
	}

	/* messages in the order of the file, with the file's line numbers */
	for (i = 0; i < n; i++) {
		unsigned long base = 0;
		const struct report *r = &c[i].rep;

		if (r->failed_line == 0 && r->error != NULL)
			pv_die("cannot open '%s': %s", path, r->error);
		if (i > 0 && (r->nwarn > 0 || r->error != NULL))
			base = lines_before(path, c[i].off);
		err = report_say(r, name, base, &warned);
		if (err != NULL)
			pv_die_at(name, base + r->failed_line, "%s", err);
	}
	if (warned > MAX_WARNINGS)
		pv_warn("%s: %lu more lines skipped with warnings", name,
			warned - MAX_WARNINGS);
	if (!streamed)
		frames_add(&fr, &c[0].names, &c[0]);
	for (i = 1; i < n; i++) {
		/* the parts fitted alone, not together: no line to name */
		if (pv_stacktab_merge(&c[0].stacks, &c[0].names, &c[i].stacks,
				      &c[i].names) < 0)
			pv_die("%s: %s", name, pv_err_msg(&c[0].stacks.err));
		frames_add(&fr, &c[0].names, &c[i]);
		chunk_release(&c[i]);
	}
	if (pv_stacktab_overflowed(&c[0].stacks))
		pv_die("%s: a count does not fit in 64 bits", name);
	if (c[0].stacks.nstack == 0)
		pv_die("%s: no samples with stacks%s", name,
		       opt->perf.event_filter ? " of that event" : "");

	if (!opt->wrote_version++)
		pv_write_version(stdout);
	pv_write_section(stdout, opt->role, opt->subject, opt->experiment);
	for (i = 0; i < pv_perf_nenv(c[0].perf); i++) {
		const char *k, *v;

		pv_perf_env(c[0].perf, i, &k, &v);
		pv_write_kv(stdout, "env", k, v);
	}
	write_meta(opt);
	frames_write(opt, &fr, &c[0].names);
	pv_stacktab_write(&c[0].stacks, &c[0].names, stdout);
	pv_symtab_release(&fr.mods);
	free(fr.f);
	chunk_release(&c[0]);
}

static void
bench_warning(void *arg, const char *file, unsigned long line, const char *msg)
{
	(void)arg;
	if (line > 0)
		pv_warn_at(file, line, "%s", msg);
	else
		pv_warn("%s: %s", file, msg);
}

/*
 * Read benchmark output with the reader of format (lib/bench.c).  in, when
 * not NULL, is open on path with nblank blank lines and then first read.
 */
static void
parse_bench(struct options *opt, const char *format, const char *path,
	    struct pv_input *in, unsigned long nblank, const char *first,
	    size_t first_len)
{
	struct pv_bench_opts bo = PV_BENCH_OPTS_INIT;
	struct pv_bench *b;
	const char *name = strcmp(path, "-") == 0 ? "(standard input)" : path;
	int tree = strcmp(format, "mmtests") == 0, rc = 0;
	char *line;
	size_t len, i;

	bo.suite = opt->suite;
	bo.test = opt->test;
	bo.level = opt->level;
	/* each bare file is a run of its own, numbered on */
	bo.run = tree || opt->next_run == 0 ? opt->run : opt->next_run;
	bo.name = name;
	bo.warn = bench_warning;
	if (!opt->wrote_version++)
		pv_write_version(stdout);
	if (tree) {
		/* each run of the tree opens its own section */
		if (opt->nmeta > 0)
			pv_die("%s: --meta does not apply to an MMTests tree",
			       name);
		bo.role = opt->role;
		bo.version = opt->subject;
		bo.experiment = opt->experiment;
	} else {
		pv_write_section(stdout, opt->role, opt->subject,
				 opt->experiment);
		write_meta(opt);
	}
	b = pv_bench_new(format, &bo, stdout);
	if (tree) {
		rc = pv_bench_read_tree(b, path);
	} else {
		if (in == NULL && (in = pv_input_open(path)) == NULL)
			pv_die_errno("cannot open '%s'", path);
		for (i = 0; i < nblank && rc == 0; i++)
			rc = pv_bench_line(b, "", 0);
		if (rc == 0 && first != NULL)
			rc = pv_bench_line(b, first, first_len);
		while (rc == 0 && (rc = pv_input_getline(in, &line, &len)) > 0)
			rc = pv_bench_line(b, line, len);
		if (rc < 0 && pv_bench_error(b)[0] == '\0')
			pv_die_at(name, pv_input_lineno(in), "%s",
				  pv_input_error(in));
		if (rc == 0)
			rc = pv_bench_finish(b);
		pv_input_close(in);
	}
	if (rc < 0)
		pv_die_at(pv_bench_error_file(b) ? pv_bench_error_file(b) : name,
			  pv_bench_error_line(b), "%s", pv_bench_error(b));
	if (!tree && pv_bench_last_run(b) > 0)
		opt->next_run = pv_bench_last_run(b) + 1;
	pv_bench_free(b);
}

/*
 * One operand: a directory is an MMTests tree; otherwise the format is
 * --format's, or the one the first non-empty line names (pv_bench_detect),
 * or else perf script.
 */
static void
parse_input(struct options *opt, const char *path)
{
	struct stat st;
	struct pv_input *in;
	unsigned long nblank = 0;
	const char *fmt = opt->format;
	char *line = NULL;
	size_t len = 0;
	uint64_t size;
	int rc;

	if (strcmp(path, "-") != 0 && stat(path, &st) == 0 &&
	    S_ISDIR(st.st_mode)) {
		if (fmt != NULL && strcmp(fmt, "mmtests") != 0)
			pv_die("'%s' is a directory", path);
		parse_bench(opt, "mmtests", path, NULL, 0, NULL, 0);
		return;
	}
	if (fmt != NULL && strcmp(fmt, "perf") == 0) {
		parse_file(opt, path, NULL, NULL, 0);
		return;
	}
	if (fmt != NULL) {
		if (strcmp(fmt, "mmtests") == 0)
			pv_die("'%s' is not a directory (an MMTests tree)", path);
		parse_bench(opt, fmt, path, NULL, 0, NULL, 0);
		return;
	}
	if ((in = pv_input_open(path)) == NULL)
		pv_die_errno("cannot open '%s'", path);
	while ((rc = pv_input_getline(in, &line, &len)) > 0 && len == 0)
		nblank++;
	if (rc < 0)
		pv_die_at(pv_input_name(in), pv_input_lineno(in), "%s",
			  pv_input_error(in));
	fmt = rc > 0 ? pv_bench_detect(line, len) : NULL;
	if (fmt != NULL) {
		parse_bench(opt, fmt, path, in, nblank, line, len);
	} else if (pv_input_plain_size(path, &size) == 0) {
		/* a file of perf script text: fold it in parallel */
		pv_input_close(in);
		parse_file(opt, path, NULL, NULL, 0);
	} else {
		parse_file(opt, path, in, rc > 0 ? line : NULL, len);
		pv_input_close(in);
	}
}

int
main(int argc, char **argv)
{
	enum { OPT_ADDRS = 256, OPT_SUITE, OPT_TEST, OPT_LEVEL, OPT_RUN,
	       OPT_DEBUGINFO, OPT_VMLINUX, OPT_SOURCE_ROOT };
	static const struct option longopts[] = {
		{ "pid", no_argument, NULL, 'p' },
		{ "tid", no_argument, NULL, 't' },
		{ "kernel", no_argument, NULL, 'k' },
		{ "jit", no_argument, NULL, 'j' },
		{ "all", no_argument, NULL, 'a' },
		{ "addrs", no_argument, NULL, OPT_ADDRS },
		{ "debuginfo", no_argument, NULL, OPT_DEBUGINFO },
		{ "vmlinux", required_argument, NULL, OPT_VMLINUX },
		{ "source-root", required_argument, NULL, OPT_SOURCE_ROOT },
		{ "event-filter", required_argument, NULL, 'e' },
		{ "format", required_argument, NULL, 'f' },
		{ "suite", required_argument, NULL, OPT_SUITE },
		{ "test", required_argument, NULL, OPT_TEST },
		{ "level", required_argument, NULL, OPT_LEVEL },
		{ "run", required_argument, NULL, OPT_RUN },
		{ "role", required_argument, NULL, 'r' },
		{ "subject", required_argument, NULL, 's' },
		{ "experiment", required_argument, NULL, 'x' },
		{ "meta", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct options opt;
	int c, i, debuginfo = 0;
	char *vmlinux = NULL, *root = NULL;

	pv_diag_init(argv[0]);
	memset(&opt, 0, sizeof(opt));
	opt.level = opt.run = PV_NONE;
	while ((c = getopt_long(argc, argv, "f:ptkjae:r:s:x:m:hV", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'p':
			opt.perf.include_pid = 1;
			break;
		case 't':
			opt.perf.include_tid = 1;
			break;
		case 'k':
			opt.perf.annotate_kernel = 1;
			break;
		case 'j':
			opt.perf.annotate_jit = 1;
			break;
		case 'a':
			opt.perf.annotate_kernel = opt.perf.annotate_jit = 1;
			break;
		case OPT_ADDRS:
			opt.perf.include_addrs = 1;
			break;
		case OPT_DEBUGINFO:
			debuginfo = 1;
			break;
		case OPT_VMLINUX:
			opt.vmlinux = optarg;
			debuginfo = 1;
			break;
		case OPT_SOURCE_ROOT:
			opt.source_root = optarg;
			break;
		case 'e':
			opt.perf.event_filter = optarg;
			break;
		case 'f':
			if (strcmp(optarg, "perf") != 0 &&
			    !pv_bench_known(optarg)) {
				pv_error("unknown format '%s'", optarg);
				pv_usage_exit(usage, help, PV_EXIT_TROUBLE);
			}
			opt.format = optarg;
			break;
		case OPT_SUITE:
			opt.suite = optarg;
			break;
		case OPT_TEST:
			opt.test = optarg;
			break;
		case OPT_LEVEL:
		case OPT_RUN:
			if (pv_parse_u64(optarg, strlen(optarg),
					 c == OPT_LEVEL ? &opt.level : &opt.run) < 0 ||
			    (c == OPT_LEVEL ? opt.level : opt.run) == PV_NONE) {
				pv_error("--%s wants a whole number, not '%s'",
					 c == OPT_LEVEL ? "level" : "run", optarg);
				pv_usage_exit(usage, help, PV_EXIT_TROUBLE);
			}
			break;
		case 'r':
			/* pv-diff pairs sections by these two roles only */
			if (strcmp(optarg, "baseline") != 0 &&
			    strcmp(optarg, "target") != 0) {
				pv_error("invalid role '%s': baseline or "
					 "target expected", optarg);
				pv_usage_exit(usage, help, PV_EXIT_TROUBLE);
			}
			opt.role = optarg;
			break;
		case 's':
			opt.subject = optarg;
			break;
		case 'x':
			opt.experiment = optarg;
			break;
		case 'm':
			if (strchr(optarg, '=') == NULL || optarg[0] == '=') {
				pv_error("--meta wants KEY=VALUE, not '%s'",
					 optarg);
				pv_usage_exit(usage, help, PV_EXIT_TROUBLE);
			}
			opt.meta = pv_xreallocarray(opt.meta, opt.nmeta + 1,
						    sizeof(*opt.meta));
			opt.meta[opt.nmeta++] = optarg;
			break;
		default:
			pv_opt_common(c, usage, help);
		}
	}

	pv_opt_files(argc - optind, argv + optind);
	if (opt.source_root != NULL) {
		/* DWARF's paths are absolute: so must the root be */
		if ((root = realpath(opt.source_root, NULL)) == NULL)
			pv_die_errno("cannot open '%s'", opt.source_root);
		opt.source_root = root;
	}
	if (debuginfo) {
		opt.debuginfo = pv_elfsym_new(0);
		if (opt.vmlinux != NULL) {
			/* by its absolute path, as the capture names files */
			char *abs = realpath(opt.vmlinux, NULL);
			int rc = abs == NULL ? -1 :
				pv_elfsym_has_dwarf(opt.debuginfo, abs);

			if (rc < 0)
				pv_die_errno("cannot open '%s'", opt.vmlinux);
			if (rc == 0)
				pv_die("'%s': no debug information (DWARF) "
				       "found for it", opt.vmlinux);
			opt.vmlinux = vmlinux = abs;
		}
	}
	if (optind == argc)
		parse_input(&opt, "-");
	for (i = optind; i < argc; i++)
		parse_input(&opt, argv[i]);
	free(opt.meta);
	pv_elfsym_free(opt.debuginfo);
	free(vmlinux);
	free(root);
	pv_close_stdout();
	return PV_EXIT_OK;
}
