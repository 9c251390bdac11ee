/*
 * sampler: perf_event_open(2) sampling of call chains (sampler.h).
 *
 * The rings of all CPUs are drained together: their records are copied
 * out and, once the command has ended (or a bounded buffer is full),
 * ordered by time (every record carries it, sample_id_all) and used, so
 * that a sample on one CPU meets the mmap record another CPU saw before
 * it.  Processes are tracked from the side-band records: a new
 * process inherits its parent's mappings (fork), an exec clears them
 * (comm with the exec flag); a process first seen by a sample (with
 * --all-cpus, one already running) has its mappings read from
 * /proc/PID/maps.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "elfsym.h"
#include "hash.h"
#include "hmap.h"
#include "input.h"
#include "sampler.h"
#include "strbuf.h"
#include "xalloc.h"

#define MAX_FRAMES 512
/* records kept unnamed while the command runs, at most */
#define PENDING_MAX (64u << 20)

static const struct event {
	const char *name;
	uint32_t type;
	uint64_t config;
} events[] = {
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
};

struct map {
	uint64_t start, end, pgoff;
	struct pv_elfsym_dso *dso;
};

struct proc {
	uint32_t pid;
	int maps_read;		/* /proc/PID/maps tried */
	struct map *map;	/* sorted by start, not overlapping */
	size_t nmap, alloc;
};

struct thread {
	uint32_t tid;
	char *comm;
};

struct ring {
	int fd;
	int hup;
	void *base;
	size_t size;		/* data bytes, a power of 2 */
};

/* A record copied out of a ring, for ordering. */
struct rec {
	uint64_t time, seq;
	size_t off;		/* into the drain buffer */
};

/* a frame name's module (mods id; NONE: no frame gave it) and file */
struct frameinfo {
	struct pv_elfsym_dso *dso;	/* NULL: not in a mapped file */
	uint32_t mod;
	int kernel, file_tried;
	const char *file;
};

#define NONE UINT32_MAX

struct pv_sampler {
	struct pv_sampler_opts opt;
	const struct event *ev;
	struct pv_elfsym *es;
	int have_kernel;
	long pagesize;
	int *cpu;
	size_t ncpu;
	struct ring *ring;
	size_t nring;
	/* processes and threads, and the tables of their ids */
	struct proc **proc;
	size_t nproc, proc_alloc;
	struct pv_hmap proc_map;
	struct thread *thread;
	size_t nthread, thread_alloc;
	struct pv_hmap thread_map;
	/* the drain */
	struct pv_strbuf buf;
	struct rec *rec;
	size_t nrec, rec_alloc;
	struct pollfd *pfd;
	/* the sink */
	struct pv_symtab *names;
	struct pv_stacktab *stacks;
	uint32_t event_id;
	uint32_t *frames;
	size_t frames_alloc;
	uint64_t samples, lost, seq;
	struct pv_strbuf tmp;
	/* what the frames said of each names id (pv_sampler_frame()) */
	struct frameinfo *fi;
	size_t fi_alloc;
	const struct pv_symtab *fi_names;
	struct pv_symtab mods;
	int failed;		/* a stack could not be kept: err says why */
	struct pv_err err;
};

int
pv_sampler_event_known(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		if (strcmp(events[i].name, name) == 0)
			return 1;
	return 0;
}

static int
perf_open(struct perf_event_attr *a, pid_t pid, int cpu)
{
	return (int)syscall(SYS_perf_event_open, a, pid, cpu, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

static void
make_attr(const struct pv_sampler *s, struct perf_event_attr *a, int task)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = s->ev->type;
	a->config = s->ev->config;
	a->freq = 1;
	a->sample_freq = s->opt.frequency;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
	a->disabled = 1;
	a->exclude_kernel = s->opt.user_only != 0;
	a->exclude_hv = 1;
	a->sample_id_all = 1;
	a->sample_max_stack = 127;
	if (task) {
		a->inherit = 1;
		a->enable_on_exec = 1;
	}
	a->mmap = 1;
	a->mmap2 = 1;
	a->comm = 1;
	a->comm_exec = 1;
	a->task = 1;
	a->watermark = 1;
	a->wakeup_watermark = (uint32_t)(s->opt.ring_pages *
					 (unsigned long)s->pagesize / 4);
}

static int
read_paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int v = 99;

	if (f == NULL)
		return v;
	if (fscanf(f, "%d", &v) != 1)
		v = 99;
	fclose(f);
	return v;
}

/* The message for an event the kernel did not open. */
static void
explain(struct pv_sampler *s, int e, struct pv_err *err, int *refused)
{
	int par = read_paranoid();

	if (e == EACCES || e == EPERM) {
		*refused = 1;
		if (s->opt.all_cpus)
			pv_err_set(err, "sampling refused: "
				   "perf_event_paranoid is %d; sampling every "
				   "CPU needs it at -1 or 0 (sysctl "
				   "kernel.perf_event_paranoid=0) or "
				   "CAP_PERFMON (or root)", par);
		else if (!s->opt.user_only)
			pv_err_set(err, "sampling refused: "
				   "perf_event_paranoid is %d; kernel call "
				   "chains need it at 1 or less (sysctl "
				   "kernel.perf_event_paranoid=1) or "
				   "CAP_PERFMON; --user-only samples without "
				   "them at 2", par);
		else
			pv_err_set(err, "sampling refused: "
				   "perf_event_paranoid is %d; sampling needs "
				   "it at 2 or less (sysctl "
				   "kernel.perf_event_paranoid=2) or "
				   "CAP_PERFMON", par);
	} else if (e == ENOENT || e == EOPNOTSUPP ||
		   (e == EINVAL && s->ev->type == PERF_TYPE_HARDWARE)) {
		pv_err_set(err, "event '%s' is not supported here: "
			   "%s (cpu-clock always is)", s->ev->name,
			   strerror(e));
	} else if (e == ENOSYS) {
		pv_err_set(err, "perf_event_open is not available: "
			   "the kernel lacks CONFIG_PERF_EVENTS");
	} else {
		pv_err_set(err, "cannot open event '%s': %s",
			   s->ev->name, strerror(e));
	}
}

/* The online CPUs, from /sys or, failing that, sysconf. */
static void
online_cpus(struct pv_sampler *s)
{
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	size_t alloc = 0;
	int a, b, c;

	if (f != NULL) {
		while (fscanf(f, "%d", &a) == 1) {
			b = a;
			c = fgetc(f);
			if (c == '-') {
				if (fscanf(f, "%d", &b) != 1)
					break;
				c = fgetc(f);
			}
			for (; a <= b; a++) {
				PV_GROW(s->cpu, s->ncpu + 1, alloc);
				s->cpu[s->ncpu++] = a;
			}
			if (c != ',')
				break;
		}
		fclose(f);
	}
	if (s->ncpu == 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		for (a = 0; a < (n > 0 ? n : 1); a++) {
			PV_GROW(s->cpu, s->ncpu + 1, alloc);
			s->cpu[s->ncpu++] = a;
		}
	}
}

struct pv_sampler *
pv_sampler_new(const struct pv_sampler_opts *opts, struct pv_err *err,
	       int *refused)
{
	struct pv_sampler *s = pv_xcalloc(1, sizeof(*s));
	struct perf_event_attr a;
	const char *ev = opts->event != NULL ? opts->event : "cpu-clock";
	size_t i;
	int fd;

	*refused = 0;
	s->opt = *opts;
	s->pagesize = sysconf(_SC_PAGESIZE);
	if (s->opt.ring_pages == 0)
		s->opt.ring_pages = 128;
	for (i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		if (strcmp(events[i].name, ev) == 0)
			s->ev = &events[i];
	if (s->ev == NULL || s->opt.frequency == 0 ||
	    (s->opt.ring_pages & (s->opt.ring_pages - 1)) != 0) {
		if (s->ev == NULL)
			pv_err_set(err, "unknown event '%s'", ev);
		else
			pv_err_set(err, "bad sampling options for '%s'", ev);
		free(s);
		return NULL;
	}
	pv_strbuf_init(&s->buf, 0);
	pv_strbuf_init(&s->tmp, 0);
	pv_symtab_init(&s->mods);
	online_cpus(s);
	/* try the event once, so that a refusal stops us before any run */
	make_attr(s, &a, !s->opt.all_cpus);
	fd = s->opt.all_cpus ? perf_open(&a, -1, s->cpu[0]) :
		perf_open(&a, 0, -1);
	if (fd < 0) {
		explain(s, errno, err, refused);
		pv_sampler_free(s);
		return NULL;
	}
	close(fd);
	s->es = pv_elfsym_new(s->opt.inline_frames);
	if (!s->opt.user_only)
		s->have_kernel = pv_elfsym_load_kernel(s->es,
			s->opt.kallsyms != NULL ? s->opt.kallsyms :
			"/proc/kallsyms") > 0;
	s->opt.kallsyms = NULL;		/* the caller's, used only here */
	return s;
}

static void forget_tasks(struct pv_sampler *s);

static void
free_proc(struct proc *p)
{
	free(p->map);
	free(p);
}

void
pv_sampler_free(struct pv_sampler *s)
{
	if (s == NULL)
		return;
	forget_tasks(s);
	free(s->ring);
	free(s->cpu);
	free(s->rec);
	free(s->pfd);
	free(s->frames);
	free(s->fi);
	pv_symtab_release(&s->mods);
	pv_strbuf_release(&s->buf);
	pv_strbuf_release(&s->tmp);
	pv_elfsym_free(s->es);
	free(s);
}

void
pv_sampler_sink(struct pv_sampler *s, struct pv_symtab *names,
		struct pv_stacktab *stacks)
{
	if (names != s->fi_names) {
		/* another table's ids: what was noted is not of them */
		s->fi_names = names;
		s->fi_alloc = 0;
		free(s->fi);
		s->fi = NULL;
	}
	s->names = names;
	s->stacks = stacks;
	s->event_id = pv_symtab_intern(names, s->ev->name,
				       strlen(s->ev->name));
}

const char *
pv_sampler_event(const struct pv_sampler *s)
{
	return s->ev->name;
}

uint64_t
pv_sampler_samples(const struct pv_sampler *s)
{
	return s->samples;
}

uint64_t
pv_sampler_lost(const struct pv_sampler *s)
{
	return s->lost;
}

const char *
pv_sampler_error(const struct pv_sampler *s)
{
	return pv_err_msg(&s->err);
}

/* Processes and threads by id. */

static int
proc_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct pv_sampler *s = ctx;

	return s->proc[id]->pid == *(const uint32_t *)key;
}

static struct proc *
get_proc(struct pv_sampler *s, uint32_t pid, int create)
{
	uint64_t h = pv_hash_fold(pid + 1, PV_HASH_K1);
	size_t pos;
	uint32_t id = pv_hmap_find(&s->proc_map, h, proc_eq, s, &pid, &pos);

	if (id != PV_HMAP_NONE)
		return s->proc[id];
	if (!create)
		return NULL;
	/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
	PV_GROW(s->proc, s->nproc + 1, s->proc_alloc);
	s->proc[s->nproc] = pv_xcalloc(1, sizeof(struct proc));
	s->proc[s->nproc]->pid = pid;
	pv_hmap_add_at(&s->proc_map, pos, h, (uint32_t)s->nproc);
	return s->proc[s->nproc++];
}

static int
thread_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct pv_sampler *s = ctx;

	return s->thread[id].tid == *(const uint32_t *)key;
}

/* The thread of tid; the pointer is good until a new thread is added. */
static struct thread *
get_thread(struct pv_sampler *s, uint32_t tid, int create)
{
	uint64_t h = pv_hash_fold(tid + 1, PV_HASH_K2);
	size_t pos;
	uint32_t id = pv_hmap_find(&s->thread_map, h, thread_eq, s, &tid,
				   &pos);

	if (id != PV_HMAP_NONE)
		return &s->thread[id];
	if (!create)
		return NULL;
	PV_GROW(s->thread, s->nthread + 1, s->thread_alloc);
	memset(&s->thread[s->nthread], 0, sizeof(*s->thread));
	s->thread[s->nthread].tid = tid;
	pv_hmap_add_at(&s->thread_map, pos, h, (uint32_t)s->nthread);
	return &s->thread[s->nthread++];
}

static void
set_comm(struct pv_sampler *s, uint32_t tid, const char *comm)
{
	struct thread *t = get_thread(s, tid, 1);

	free(t->comm);
	t->comm = pv_xstrdup(comm);
}

/* Add a mapping, replacing what it overlaps. */
static void
add_map(struct pv_sampler *s, struct proc *p, uint64_t start, uint64_t len,
	uint64_t pgoff, const char *path, const unsigned char *bid,
	size_t bidlen)
{
	uint64_t end = start + len;
	size_t i, j;

	for (i = j = 0; i < p->nmap; i++)
		if (p->map[i].end <= start || p->map[i].start >= end)
			p->map[j++] = p->map[i];
	p->nmap = j;
	PV_GROW(p->map, p->nmap + 1, p->alloc);
	for (i = p->nmap; i > 0 && p->map[i - 1].start > start; i--)
		p->map[i] = p->map[i - 1];
	p->map[i].start = start;
	p->map[i].end = end;
	p->map[i].pgoff = pgoff;
	p->map[i].dso = pv_elfsym_dso(s->es, path, bid, bidlen);
	p->nmap++;
}

/* The executable mappings of a running process, from /proc. */
static void
read_maps(struct pv_sampler *s, struct proc *p)
{
	struct pv_strbuf path = PV_STRBUF_INIT;
	struct pv_input *in;
	char *line;
	size_t len;

	p->maps_read = 1;
	pv_strbuf_addf(&path, "/proc/%u/maps", p->pid);
	in = pv_input_open(path.buf);
	pv_strbuf_release(&path);
	if (in == NULL)
		return;
	while (pv_input_getline(in, &line, &len) > 0) {
		unsigned long long a, b, off;
		char perm[8];
		int n = 0;

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s%n", &a, &b, perm,
			   &off, &n) < 4 || n == 0 || perm[2] != 'x')
			continue;
		while (line[n] == ' ')
			n++;
		if (line[n] == '\0')
			continue;
		add_map(s, p, a, b - a, off, line + n, NULL, 0);
	}
	pv_input_close(in);
}

static const char *
comm_of(struct pv_sampler *s, uint32_t pid, uint32_t tid)
{
	struct thread *t = get_thread(s, tid, 0);

	if (pid == 0 && tid == 0)
		return "swapper";	/* the idle task, as perf names it */
	if (t == NULL || t->comm == NULL) {
		struct pv_strbuf p = PV_STRBUF_INIT;
		FILE *f;
		char buf[64];

		/* a thread that existed before sampling: ask /proc */
		pv_strbuf_addf(&p, "/proc/%u/task/%u/comm", pid, tid);
		f = fopen(p.buf, "r");
		pv_strbuf_release(&p);
		t = get_thread(s, tid, 1);
		if (f != NULL && fgets(buf, sizeof(buf), f) != NULL) {
			buf[strcspn(buf, "\n")] = '\0';
			t->comm = pv_xstrdup(buf);
		} else {
			t->comm = pv_xstrdup("[unknown]");
		}
		if (f != NULL)
			fclose(f);
	}
	return t->comm;
}

static uint32_t
intern(struct pv_sampler *s, const char *name, int kernel)
{
	if (kernel && s->opt.annotate_kernel) {
		pv_strbuf_reset(&s->tmp);
		pv_strbuf_addstr(&s->tmp, name);
		pv_strbuf_addstr(&s->tmp, "_[k]");
		return pv_symtab_intern(s->names, s->tmp.buf, s->tmp.len);
	}
	return pv_symtab_intern(s->names, name, strlen(name));
}

/* Keep the module of frame name id, unless a frame gave it before. */
static void
note_frame(struct pv_sampler *s, uint32_t id, struct pv_elfsym_dso *dso,
	   const char *mod, const char *kmod, int kernel)
{
	struct frameinfo *f;
	size_t old;

	if (id < s->fi_alloc && s->fi[id].mod != NONE)
		return;
	if (id >= s->fi_alloc) {
		old = s->fi_alloc;
		PV_GROW(s->fi, (size_t)id + 1, s->fi_alloc);
		for (; old < s->fi_alloc; old++)
			s->fi[old].mod = NONE;
	}
	f = &s->fi[id];
	f->dso = dso;
	f->kernel = kernel;
	f->file_tried = 0;
	f->file = NULL;
	if (kmod != NULL) {
		/* a kernel module, as perf names it */
		pv_strbuf_reset(&s->tmp);
		pv_strbuf_addf(&s->tmp, "[%s]", kmod);
		f->mod = pv_symtab_intern(&s->mods, s->tmp.buf, s->tmp.len);
	} else {
		f->mod = pv_symtab_intern(&s->mods, mod, strlen(mod));
	}
}

int
pv_sampler_frame(struct pv_sampler *s, uint32_t id, const char *root,
		 const char **module, int *kernel, const char **file)
{
	struct frameinfo *f;

	*module = *file = NULL;
	*kernel = 0;
	if (s->fi_names == NULL || id >= s->fi_alloc ||
	    s->fi[id].mod == NONE)
		return 0;
	f = &s->fi[id];
	if (!f->file_tried && f->dso != NULL) {
		struct pv_str name = pv_symtab_get(s->fi_names, id);

		pv_elfsym_dso_decl_file(s->es, f->dso, name.s, name.len, root,
					&f->file);
	}
	f->file_tried = 1;
	*module = pv_symtab_get(&s->mods, f->mod).s;
	*kernel = f->kernel;
	*file = f->file;
	return 1;
}

/*
 * A frame without a symbol, named as pv-parse(1) names perf script's
 * "ADDR [unknown] (MODULE)": the module's base name in brackets, with
 * --addrs followed by the address as perf script prints it
 * ("[libc.so.6 <2724a>]").
 */
static uint32_t
unknown_frame(struct pv_sampler *s, const char *module, uint64_t addr,
	      int kernel)
{
	struct pv_strbuf *sb = &s->tmp;

	pv_strbuf_reset(sb);
	pv_strbuf_addch(sb, '[');
	pv_strbuf_addstr(sb, module);
	if (s->opt.addrs)
		pv_strbuf_addf(sb, " <%" PRIx64 ">", addr);
	pv_strbuf_addch(sb, ']');
	if (kernel && s->opt.annotate_kernel)
		pv_strbuf_addstr(sb, "_[k]");
	return pv_symtab_intern(s->names, sb->buf, sb->len);
}

static void
on_sample(struct pv_sampler *s, const unsigned char *p, size_t size)
{
	uint64_t ip, time, period, nr, i, ctx = PERF_CONTEXT_USER;
	uint32_t pid, tid, leaf[MAX_FRAMES];
	size_t n = 0, k;
	struct proc *proc = NULL;
	const uint64_t *chain;

	if (size < 48)
		return;
	memcpy(&ip, p, 8);
	memcpy(&pid, p + 8, 4);
	memcpy(&tid, p + 12, 4);
	memcpy(&time, p + 16, 8);
	memcpy(&period, p + 24, 8);
	memcpy(&nr, p + 32, 8);
	(void)ip;
	(void)time;
	if (nr > (size - 40) / 8)
		return;
	chain = (const uint64_t *)(p + 40);
	s->samples++;
	if (s->stacks == NULL)
		return;
	for (i = 0; i < nr && n < MAX_FRAMES; i++) {
		uint64_t a = chain[i];
		const char *names[16];
		uint64_t off;
		size_t m;

		if (a >= PERF_CONTEXT_MAX) {
			ctx = a;
			continue;
		}
		if (ctx == PERF_CONTEXT_KERNEL) {
			const char *mod, *name = s->have_kernel ?
				pv_elfsym_kernel(s->es, a, &mod) : NULL;

			leaf[n] = name != NULL ? intern(s, name, 1) :
				unknown_frame(s, "[kernel.kallsyms]", a, 1);
			note_frame(s, leaf[n++], NULL, "[kernel.kallsyms]",
				   name != NULL ? mod : NULL, 1);
			continue;
		}
		if (ctx != PERF_CONTEXT_USER)
			continue;	/* hypervisor, guest */
		if (proc == NULL) {
			proc = get_proc(s, pid, 1);
			if (proc->nmap == 0 && !proc->maps_read)
				read_maps(s, proc);
		}
		{
			size_t lo = 0, hi = proc->nmap;
			const struct map *mp = NULL;

			while (lo < hi) {
				size_t mid = lo + (hi - lo) / 2;

				if (proc->map[mid].end <= a)
					lo = mid + 1;
				else
					hi = mid;
			}
			if (lo < proc->nmap && proc->map[lo].start <= a)
				mp = &proc->map[lo];
			if (mp == NULL) {
				leaf[n] = unknown_frame(s, "unknown", a, 0);
				note_frame(s, leaf[n++], NULL, "[unknown]",
					   NULL, 0);
				continue;
			}
			off = a - mp->start + mp->pgoff;
			m = pv_elfsym_resolve(s->es, mp->dso, off, names, 16);
			if (m == 0) {
				leaf[n] = unknown_frame(s,
					pv_elfsym_dso_name(mp->dso),
					pv_elfsym_dso_relative(mp->dso) ?
					off : a, 0);
				note_frame(s, leaf[n++], NULL,
					   pv_elfsym_dso_path(mp->dso), NULL,
					   0);
				continue;
			}
			/* innermost inlined function first: leaf order */
			while (m > 0 && n < MAX_FRAMES) {
				leaf[n] = intern(s, names[--m], 0);
				note_frame(s, leaf[n++], mp->dso,
					   pv_elfsym_dso_path(mp->dso), NULL,
					   0);
			}
		}
	}
	PV_GROW(s->frames, n + 1, s->frames_alloc);
	{
		const char *c = comm_of(s, pid, tid);

		s->frames[0] = pv_symtab_intern(s->names, c, strlen(c));
	}
	for (k = 0; k < n; k++)
		s->frames[k + 1] = leaf[n - 1 - k];
	if (pv_stacktab_add(s->stacks, s->event_id, s->frames, n + 1, 1,
			    period) == NULL && !s->failed) {
		s->err = s->stacks->err;
		s->failed = 1;
	}
}

static void
on_record(struct pv_sampler *s, const unsigned char *p)
{
	struct perf_event_header h;
	const unsigned char *body = p + sizeof(h);
	uint32_t pid, tid;

	memcpy(&h, p, sizeof(h));
	switch (h.type) {
	case PERF_RECORD_SAMPLE:
		on_sample(s, body, h.size - sizeof(h));
		break;
	case PERF_RECORD_MMAP2: {
		/* pid tid addr len pgoff (maj min ino ino_gen | build id)
		   prot flags filename */
		uint64_t addr, len, pgoff;
		unsigned char bid[20];
		size_t bidlen = 0;
		struct proc *pr;

		memcpy(&pid, body, 4);
		memcpy(&addr, body + 8, 8);
		memcpy(&len, body + 16, 8);
		memcpy(&pgoff, body + 24, 8);
		if (h.misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			bidlen = body[32];
			if (bidlen > 20)
				bidlen = 20;
			memcpy(bid, body + 36, bidlen);
		}
		pr = get_proc(s, pid, 1);
		pr->maps_read = 1;
		add_map(s, pr, addr, len, pgoff, (const char *)body + 64,
			bid, bidlen);
		break;
	}
	case PERF_RECORD_MMAP: {
		uint64_t addr, len, pgoff;
		struct proc *pr;

		memcpy(&pid, body, 4);
		memcpy(&addr, body + 8, 8);
		memcpy(&len, body + 16, 8);
		memcpy(&pgoff, body + 24, 8);
		pr = get_proc(s, pid, 1);
		pr->maps_read = 1;
		add_map(s, pr, addr, len, pgoff, (const char *)body + 32,
			NULL, 0);
		break;
	}
	case PERF_RECORD_COMM:
		memcpy(&pid, body, 4);
		memcpy(&tid, body + 4, 4);
		if (h.misc & PERF_RECORD_MISC_COMM_EXEC) {
			struct proc *pr = get_proc(s, pid, 1);

			pr->nmap = 0;
			pr->maps_read = 1;
		}
		set_comm(s, tid, (const char *)body + 8);
		break;
	case PERF_RECORD_FORK: {
		uint32_t ppid, ptid;
		struct thread *pt;

		memcpy(&pid, body, 4);
		memcpy(&ppid, body + 4, 4);
		memcpy(&tid, body + 8, 4);
		memcpy(&ptid, body + 12, 4);
		/* a parent from before sampling: ask /proc while it lives */
		pt = get_thread(s, ptid, 0);
		if (pt == NULL || pt->comm == NULL)
			comm_of(s, ppid, ptid);
		pt = get_thread(s, ptid, 0);
		if (pt != NULL && pt->comm != NULL && tid != ptid) {
			char *c = pv_xstrdup(pt->comm);

			set_comm(s, tid, c);
			free(c);
		}
		if (pid != ppid) {
			struct proc *pp = get_proc(s, ppid, 1);
			struct proc *np;

			if (pp->nmap == 0 && !pp->maps_read)
				read_maps(s, pp);
			np = get_proc(s, pid, 1);
			pp = get_proc(s, ppid, 0);	/* the table may grow */
			np->nmap = 0;
			np->maps_read = 1;
			if (pp != NULL && pp->nmap > 0) {
				PV_GROW(np->map, pp->nmap, np->alloc);
				memcpy(np->map, pp->map,
				       pp->nmap * sizeof(*pp->map));
				np->nmap = pp->nmap;
			}
		}
		break;
	}
	case PERF_RECORD_LOST: {
		uint64_t lost;

		memcpy(&lost, body + 8, 8);
		s->lost += lost;
		break;
	}
	default:
		break;
	}
}

static int
cmp_rec(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The time of a record: in a sample's body, or its trailing sample_id. */
static uint64_t
rec_time(const unsigned char *p)
{
	struct perf_event_header h;
	uint64_t t = 0;

	memcpy(&h, p, sizeof(h));
	if (h.type == PERF_RECORD_SAMPLE && h.size >= sizeof(h) + 24)
		memcpy(&t, p + sizeof(h) + 16, 8);
	else if (h.type != PERF_RECORD_SAMPLE && h.size >= sizeof(h) + 16)
		memcpy(&t, p + h.size - 8, 8);
	return t;
}

/* Copy every record out of every ring, to be used later. */
static void
collect(struct pv_sampler *s)
{
	size_t r;

	for (r = 0; r < s->nring; r++) {
		struct ring *rg = &s->ring[r];
		struct perf_event_mmap_page *mp = rg->base;
		const unsigned char *data = (const unsigned char *)rg->base +
			s->pagesize;
		uint64_t head = __atomic_load_n(&mp->data_head,
						__ATOMIC_ACQUIRE);
		uint64_t tail = mp->data_tail;

		while (tail < head) {
			struct perf_event_header h;
			size_t at = tail & (rg->size - 1), first;

			first = rg->size - at;
			if (first >= sizeof(h)) {
				memcpy(&h, data + at, sizeof(h));
			} else {
				memcpy(&h, data + at, first);
				memcpy((char *)&h + first, data,
				       sizeof(h) - first);
			}
			if (h.size < sizeof(h) || tail + h.size > head)
				break;
			PV_GROW(s->rec, s->nrec + 1, s->rec_alloc);
			s->rec[s->nrec].off = s->buf.len;
			s->rec[s->nrec].seq = s->seq++;
			if (first >= h.size) {
				pv_strbuf_add(&s->buf, data + at, h.size);
			} else {
				pv_strbuf_add(&s->buf, data + at, first);
				pv_strbuf_add(&s->buf, data, h.size - first);
			}
			s->rec[s->nrec].time = rec_time(
				(const unsigned char *)s->buf.buf +
				s->rec[s->nrec].off);
			s->nrec++;
			tail += h.size;
		}
		__atomic_store_n(&mp->data_tail, tail, __ATOMIC_RELEASE);
	}
}

/* Order the records collected so far by time and use them. */
static void
process(struct pv_sampler *s)
{
	size_t i;

	/* no records yet: s->rec may be NULL, which qsort must not get */
	if (s->nrec == 0)
		return;
	qsort(s->rec, s->nrec, sizeof(*s->rec), cmp_rec);
	for (i = 0; i < s->nrec; i++)
		on_record(s, (const unsigned char *)s->buf.buf +
			  s->rec[i].off);
	pv_strbuf_reset(&s->buf);
	s->nrec = 0;
}

static void
close_rings(struct pv_sampler *s)
{
	size_t r;

	for (r = 0; r < s->nring; r++) {
		if (s->ring[r].base != NULL)
			munmap(s->ring[r].base, s->ring[r].size +
			       (size_t)s->pagesize);
		if (s->ring[r].fd >= 0)
			close(s->ring[r].fd);
	}
	s->nring = 0;
}

/*
 * Forget the processes and threads of the last run: between runs nothing
 * is watched, and an id may have been reused.
 */
static void
forget_tasks(struct pv_sampler *s)
{
	size_t i;

	for (i = 0; i < s->nproc; i++)
		free_proc(s->proc[i]);
	for (i = 0; i < s->nthread; i++)
		free(s->thread[i].comm);
	free(s->proc);
	free(s->thread);
	s->proc = NULL;
	s->thread = NULL;
	s->nproc = s->nthread = 0;
	s->proc_alloc = s->thread_alloc = 0;
	pv_hmap_release(&s->proc_map);
	pv_hmap_release(&s->thread_map);
}

int
pv_sampler_attach(struct pv_sampler *s, pid_t pid)
{
	struct perf_event_attr a;
	size_t c, size = s->opt.ring_pages * (size_t)s->pagesize;
	int retried = 0;

	forget_tasks(s);
	s->ring = pv_xreallocarray(s->ring, s->ncpu, sizeof(*s->ring));
	s->nring = 0;
	make_attr(s, &a, !s->opt.all_cpus);
	a.build_id = 1;
	for (c = 0; c < s->ncpu; c++) {
		struct ring *rg = &s->ring[s->nring];
		int fd = perf_open(&a, s->opt.all_cpus ? -1 : pid, s->cpu[c]);

		if (fd < 0 && errno == EINVAL && a.build_id && !retried) {
			/* kernels before 5.12 report no build ids */
			a.build_id = 0;
			retried = 1;
			c--;
			continue;
		}
		if (fd < 0) {
			int e = errno, refused;

			close_rings(s);
			explain(s, e, &s->err, &refused);
			return -1;
		}
		rg->fd = fd;
		rg->hup = 0;
		rg->size = size;
		rg->base = mmap(NULL, size + (size_t)s->pagesize,
				PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		s->nring++;
		if (rg->base == MAP_FAILED) {
			rg->base = NULL;
			pv_err_set(&s->err, "cannot map the sampling buffer: "
				   "%s (perf_event_mlock_kb)", strerror(errno));
			close_rings(s);
			return -1;
		}
	}
	if (s->opt.all_cpus)
		for (c = 0; c < s->nring; c++)
			ioctl(s->ring[c].fd, PERF_EVENT_IOC_ENABLE, 0);
	s->pfd = pv_xreallocarray(s->pfd, s->nring + 1, sizeof(*s->pfd));
	return 0;
}

int
pv_sampler_poll(struct pv_sampler *s, int fd, int timeout_ms)
{
	size_t r, n = 0;
	int rc;

	for (r = 0; r < s->nring; r++) {
		s->pfd[n].fd = s->ring[r].hup ? -1 : s->ring[r].fd;
		s->pfd[n].events = POLLIN;
		s->pfd[n].revents = 0;
		n++;
	}
	if (fd >= 0) {
		s->pfd[n].fd = fd;
		s->pfd[n].events = POLLIN;
		s->pfd[n].revents = 0;
		n++;
	}
	/*
	 * System-wide, read often: a process that was running before
	 * sampling is named from /proc, which it must still be in.
	 */
	if (s->opt.all_cpus && (timeout_ms < 0 || timeout_ms > 100))
		timeout_ms = 100;
	rc = poll(s->pfd, n, timeout_ms);
	if (rc < 0 && errno != EINTR) {
		pv_err_set_errno(&s->err, errno, "poll");
		return -1;
	}
	/*
	 * While the command runs, only copy: naming frames then would
	 * compete with it for the machine (perf, too, only writes its
	 * file).  System-wide, or past PENDING_MAX bytes, name them now:
	 * processes that were running before are looked up in /proc,
	 * which they must still be in, and memory stays bounded.
	 */
	collect(s);
	if (s->opt.all_cpus || s->buf.len > PENDING_MAX)
		process(s);
	if (s->failed)
		return -1;
	if (rc <= 0)
		return 0;
	for (r = 0; r < s->nring; r++)
		if (s->pfd[r].revents & (POLLHUP | POLLERR))
			s->ring[r].hup = 1;
	return fd >= 0 && (s->pfd[n - 1].revents & (POLLIN | POLLHUP)) ? 1 :
		0;
}

int
pv_sampler_detach(struct pv_sampler *s)
{
	size_t r;

	for (r = 0; r < s->nring; r++)
		ioctl(s->ring[r].fd, PERF_EVENT_IOC_DISABLE, 0);
	collect(s);
	process(s);
	close_rings(s);
	return s->failed ? -1 : 0;
}
