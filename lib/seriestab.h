/*
 * seriestab: the series of every key of a stream, as pv-series(1) reads
 * and builds them, and the state file that carries them from one run to
 * the next.
 *
 * Versions get ids in the order they first appear, in section records or
 * runval records: that is the order of the series.  A key is a sample's
 * key with its section's EXPERIMENT (not ROLE or VERSION).  Runs are
 * gathered per key for the version being read (samples of a run averaged,
 * runval records taken whole, as runtab.h does) and, when the key's runs
 * of another version start or pv_seriestab_close() is called, reduced to
 * a point of its series (series.h): the mean and squares of the runs'
 * logarithms, negated when lower is better.  So the runs of one version
 * of a key come together, but the versions of a key may come in any
 * order (pv-stat -S writes them in the order of their names); the points
 * are put in version order at the end.  A key with a run whose value is
 * not positive has no logarithm: it is marked bad and left out of the
 * analysis.
 *
 * Memory grows with the keys and their versions, not with the records.
 *
 * The state file holds the versions, and for each key its points and the
 * candidates of its complete windows, so that a later run given only new
 * versions goes on from there (pv-series --state).  It is binary, little
 * endian, with a format version and a CRC-32 of its contents; it is
 * written to a temporary file next to it and renamed into place, so that
 * it is never half written.
 */
#ifndef PV_SERIESTAB_H
#define PV_SERIESTAB_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "error.h"
#include "rec_key.h"
#include "record.h"
#include "series.h"
#include "strbuf.h"
#include "symtab.h"

#define PV_SERIESTAB_NONE UINT32_MAX

struct pv_srun {
	uint64_t id;
	uint64_t n;		/* values */
	double sum;		/* of the values; the value itself if merged */
	int merged;		/* from a runval record */
};

struct pv_skey {
	struct pv_runkey key;	/* EXPERIMENT ... LEVEL; role, version empty */
	struct pv_str text;	/* its fields as the records write them */
	struct pv_series series;
	uint32_t *ver;		/* ver[i]: the version of series.pt[i] */
	uint32_t top;		/* the highest of ver[] plus 1; 0: none */
	size_t veralloc;
	uint32_t cur;		/* the version of run[], or NONE */
	struct pv_srun *run;
	size_t nrun, runalloc;
	int bad;		/* a value not positive: not analysed */
};

struct pv_seriestab {
	struct pv_symtab versions;	/* names; ids in order */
	uint32_t nstate;		/* versions from the state */
	struct pv_symtab keytext;	/* a key's text -> its index */
	struct pv_skey *key;
	size_t nkey, keyalloc;
	struct pv_arena arena;		/* the keys' strings */
	struct pv_strbuf scratch;
	struct pv_err err;
	/* where an error of pv_seriestab_read() is: file (none: it cannot
	 * be opened) and line */
	struct pv_strbuf errfile;
	unsigned long errline;
	/*
	 * pv_seriestab_read()'s place, from one file to the next: the
	 * section's experiment and version (ver: its id, NONE until a
	 * sample), the key of the record before (last, its index, or
	 * SIZE_MAX) with its fields as read
	 */
	struct pv_strbuf experiment, version;
	uint32_t ver;
	size_t last;
	struct pv_strbuf last_span;
	int last_runval;
};

void pv_seriestab_init(struct pv_seriestab *t);
void pv_seriestab_release(struct pv_seriestab *t);

/* Note version name (a section's), registering it when new. */
uint32_t pv_seriestab_note(struct pv_seriestab *t, struct pv_str name);
/*
 * The id of version name (of runs about to be added) into *id,
 * registering it when new.  Returns 0, or -1 with t->err set when name is
 * empty or the version is in the state.
 */
int pv_seriestab_version(struct pv_seriestab *t, struct pv_str name,
			 uint32_t *id);
/* The newest version, or NONE when there is none. */
uint32_t pv_seriestab_newest(const struct pv_seriestab *t);
struct pv_str pv_seriestab_version_name(const struct pv_seriestab *t,
					uint32_t id);

/* The key of k (its EXPERIMENT ... LEVEL), made when new. */
struct pv_skey *pv_seriestab_key(struct pv_seriestab *t,
				 const struct pv_runkey *k);

/*
 * A value of run of key k in version ver: a sample's value (merged 0,
 * nvalues 1), or a runval record's mean of nvalues values (merged 1).
 * Returns 0, or -1 with t->err set when the run is given twice (a runval
 * for a run already seen), its values add up to more than a double holds,
 * or the key's runs of ver came before, apart.
 */
int pv_seriestab_add(struct pv_seriestab *t, struct pv_skey *k,
		     uint32_t ver, uint64_t run, uint64_t nvalues,
		     double value, int merged);

/* A record pv_seriestab_read() passes on. */
typedef void pv_seriestab_pass_fn(void *arg, const struct pv_record *rec);

/*
 * Read the record stream path ("-": standard input) into t, as
 * pv-series(1) reads it: section records name the version of the sample
 * and runval records after them (pv_seriestab_add()); every record but
 * changepoint, outlier, trend and scanned records (computed again) is
 * given to pass, when not NULL, after it was read, the others unchecked.
 * The section and the key read last carry over to the next file.
 * Returns 0, or -1 with t->err set and the place of the error in
 * t->errfile and t->errline (errfile empty when the file cannot be
 * opened).
 */
int pv_seriestab_read(struct pv_seriestab *t, const char *path,
		      pv_seriestab_pass_fn *pass, void *arg);

/* Reduce the runs gathered for every key to points, in version order. */
void pv_seriestab_close(struct pv_seriestab *t);

/*
 * The keys ordered as pv_rec_key_cmp_measure() orders them; the caller
 * frees the array.
 */
struct pv_skey **pv_seriestab_sorted(struct pv_seriestab *t);

/*
 * Read the state file path into an empty t.  Returns 1 when read, 0 when
 * there is no such file (t left empty), -1 with t->err set when it cannot
 * be read or is not a state.  *o_alpha and *o_window are set to the
 * options its candidates were found with.
 */
int pv_seriestab_load(struct pv_seriestab *t, const char *path,
		      double *o_alpha, size_t *o_window);

/*
 * Write t (every key closed) with the options o to a new temporary file
 * next to path, whose name is put in tmp (the caller renames it to path,
 * or removes it).  Returns 0, or -1 with t->err set.
 */
int pv_seriestab_save(struct pv_seriestab *t, const char *path,
		      const struct pv_series_opts *o, struct pv_strbuf *tmp);

#endif
