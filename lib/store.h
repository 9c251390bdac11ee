/*
 * store: the version store of pv-store(1), a directory of plain files that
 * keeps pv record streams by the version they measured.
 *
 * Layout of a store DIR (pv-store(1) states it for users):
 *
 *   DIR/format            "pv-store 1": marks the directory as a store
 *   DIR/index             the index, append-only (see below)
 *   DIR/lock              empty; flock(2)ed by writers
 *   DIR/objects/XX/Y...   each stream, gzip-compressed, named by the
 *                         SHA-256 of its uncompressed bytes (64 hex digits:
 *                         the first two name the directory); read-only
 *   DIR/tmp/              objects and index copies being written
 *
 * The index is itself a pv-format(5) stream: a "pv-format 1" line, then one
 * record a line, fields escaped as in every pv stream (lib/rec_index.h is
 * their codec):
 *
 *   add   VERSION HASH SIZE CSIZE TIME KINDS COMMIT BRANCH NAME [EXPERIMENT...]
 *   rm    VERSION HASH TIME
 *   tests VERSION HASH [EXPERIMENT SUITE TEST RUNS]...
 *
 * "add" files the object HASH (SIZE bytes, CSIZE compressed) under
 * VERSION at TIME (seconds since the epoch); KINDS lists the record kinds
 * the stream holds ("stack", "sample", joined by ','; "-" for neither);
 * COMMIT and BRANCH are the git commit and branch, NAME the file the stream
 * came from, each "-" when absent; the EXPERIMENT fields are the distinct
 * experiment identities of its sections, in order ("-" for an absent one),
 * as many as there are.  "rm" withdraws the entry (VERSION, HASH).  An
 * entry is identified by (VERSION, HASH): an "add" of an entry that is
 * already live changes nothing, so the same stream added twice under one
 * version is one entry.  A "tests" line comes just before the add line of
 * its (VERSION, HASH), in the same write(2): the tests of the stream's
 * sample and runval records, each with its experiment and its number of
 * runs (distinct LEVEL and RUN pairs).  One that its add line does not
 * follow (a write cut short, then repaired) is ignored; an add line without
 * one (from a pv-store before tests lines) leaves the entry's tests
 * unknown.
 *
 * Nothing inside a store is followed if it is a symbolic link: every file
 * is opened relative to the store's directory, one name at a time, with
 * O_NOFOLLOW, and a link is refused with a message (the store's own path
 * may be a link).  The directories git does not keep (tmp/, an empty
 * objects/) are made again by pv_store_prepare().
 *
 * Durability: an object is written to DIR/tmp, fsynced, linked to its name
 * (a sound object there is never replaced) and its directory fsynced; only
 * then is its index line appended, with one write(2) under an exclusive
 * flock(2) of the index, and fsynced.  A line cut short by a crash has no
 * newline: the readers ignore it and the next writer truncates it away
 * before appending.  Writers (add, rm) and readers of objects (show, pair,
 * verify) hold a shared lock of DIR/lock for their whole run; gc and fsck
 * --repair hold it exclusively, so gc never removes an object whose index
 * line is still to come; they replace the index by rename(2).  Whoever
 * takes the lock while no other process holds it removes what killed
 * writers left in DIR/tmp, so no temporary outlives the next command.
 *
 * The code is split by concern, each file's exported names after it:
 *   store.c          the handle, creating and opening, the lock, the walk
 *                    of paths that follows no link (store_private.h)
 *   store_index.c    the index: loading, looking up, appending, rewriting
 *   store_obj.c      objects: writing, naming, listing
 *   store_cat.c      objects read back: checked, as bytes, as records with
 *                    roles set
 *   store_scan.c     what a stream holds, before it is added
 *   store_version.c  versions: the baseline rule
 *   store_gc.c       garbage collection
 *   store_fsck.c     every damaged index line found; the index repaired
 *
 * Errors: functions return -1 (or as documented) and leave a message in
 * st->err (lib/error.h); a fault of a line of the index also sets
 * st->err_line.  Nothing here prints or exits.
 *
 * Lifecycle: PV_STORE_INIT or pv_store_init(); pv_store_open() or
 * pv_store_create(); pv_store_release() frees everything and drops locks.
 */
#ifndef PV_STORE_H
#define PV_STORE_H

#include <stdint.h>
#include <stdio.h>

#include "arena.h"
#include "error.h"
#include "hmap.h"
#include "sha256.h"
#include "strbuf.h"

#define PV_STORE_FORMAT "pv-store 1"

/* Kinds of records a stream holds (struct pv_store_scan.kinds). */
enum {
	PV_KIND_STACK = 1,
	PV_KIND_SAMPLE = 2
};

/* A test of a stream: its experiment ("" absent), suite and test, runs. */
struct pv_store_test {
	const char *experiment, *suite, *test;
	uint64_t runs;
};

/* One index entry; strings are NUL-terminated, NULL when absent. */
struct pv_store_entry {
	const char *version;
	char hash[PV_SHA256_HEXLEN + 1];
	uint64_t size, csize;
	int64_t time;
	const char *kinds;		/* "-" when neither */
	const char *commit, *branch, *name;
	const char **experiment;	/* "" for an absent experiment */
	size_t nexperiment;
	const struct pv_store_test *test;	/* from its tests line */
	size_t ntest;
	int has_tests;			/* 0: no tests line, tests unknown */
	unsigned long line;		/* in the index */
	int live;			/* 0 once withdrawn by an rm line */
};

struct pv_store {
	char *dir;
	int dirfd;			/* DIR, opened once */
	int lockfd;
	struct pv_arena arena;		/* the entries' strings */
	struct pv_store_entry *entry;	/* in index order, live or not */
	size_t nentry, entry_alloc;
	struct pv_hmap map;		/* (version, hash) -> entry index */
	unsigned long torn;		/* the cut last line's number, or 0 */
	struct pv_err err;
	/*
	 * When the last pv_store_index_load() failed on a line of DIR/index:
	 * its number, err saying what is wrong with it; else 0.
	 */
	unsigned long err_line;
	/* the damaged lines pv_store_index_check() found, ascending */
	unsigned long *damaged;
	size_t ndamaged, damaged_alloc;
};

#define PV_STORE_INIT { .dirfd = -1, .lockfd = -1, .arena = PV_ARENA_INIT, \
			.err = PV_ERR_INIT }

/* store.c: the handle */

void pv_store_init(struct pv_store *st);
void pv_store_release(struct pv_store *st);

/*
 * Make a store at dir (its parents must exist).  An existing store is kept
 * as it is, except that what git does not keep is made again (as
 * pv_store_prepare()); an existing directory that is not a store, not
 * empty, is an error.
 */
int pv_store_create(struct pv_store *st, const char *dir);
/* Open the store at dir, checking its format file. */
int pv_store_open(struct pv_store *st, const char *dir);
/*
 * Before writing: make DIR/tmp and DIR/objects again where they are
 * missing (a clone of a store kept in git has neither while it holds no
 * object), refusing a link in their place.
 */
int pv_store_prepare(struct pv_store *st);

/*
 * Take DIR/lock shared (writers, readers of objects) or exclusive (gc,
 * fsck --repair), waiting for it.  Shared: when no other process holds
 * the lock, the leftovers of killed writers in DIR/tmp are removed first
 * (as far as permissions allow; nothing else is touched).
 */
int pv_store_lock(struct pv_store *st, int exclusive);

/* store_index.c: the index */

/*
 * Read the index into st->entry (again, if called again).  A cut last line
 * is skipped and st->torn set to its number.  A damaged line fails the
 * read, with st->err_line set.
 */
int pv_store_index_load(struct pv_store *st);
/* The live entry (version, hash), or NULL. */
const struct pv_store_entry *pv_store_index_find(const struct pv_store *st,
						 const char *version,
						 const char *hash);

/*
 * Index lines, appended to sb: the tests line (when e->has_tests) and the
 * add line of e (its live and line members ignored); an rm line.
 */
void pv_store_index_format_add(struct pv_strbuf *sb,
			       const struct pv_store_entry *e);
void pv_store_index_format_rm(struct pv_strbuf *sb, const char *version,
			      const char *hash, int64_t time);
/*
 * Append whole lines (sb ends in '\n') to the index: one write(2) under
 * the index lock, after cutting off a torn last line; then fsync.
 */
int pv_store_index_append(struct pv_store *st, const struct pv_strbuf *lines);
/*
 * Replace the index, atomically, by one of the live entries as loaded, in
 * their order.  Only under the exclusive lock (pv_store_lock()): an
 * append meanwhile would be lost.
 */
int pv_store_index_rewrite(struct pv_store *st);

/* store_obj.c: objects */

/*
 * Writing an object: begin, write the stream's bytes in pieces, finish
 * (hash and size known: obj->hash, obj->size, obj->csize; the data is on
 * disk in DIR/tmp, and obj->fd reads it from its start), then commit
 * (filed under its name) or discard.  Commit and discard free obj; so
 * does a failing finish.  After a failing write, discard it.
 */
struct pv_store_obj {
	char hash[PV_SHA256_HEXLEN + 1];
	uint64_t size, csize;
	int fd;				/* the temporary file, after finish */
	struct pv_store_objstate *state;
};

struct pv_store_obj *pv_store_obj_begin(struct pv_store *st);
int pv_store_obj_write(struct pv_store *st, struct pv_store_obj *obj,
		       const void *buf, size_t len);
int pv_store_obj_finish(struct pv_store *st, struct pv_store_obj *obj);
/*
 * File the object under its name.  Returns 1 if the object was new, 0 if
 * the store had it already, sound; an object there that is not sound (it
 * does not hash to its name) is replaced, atomically, and 1 returned.
 */
int pv_store_obj_commit(struct pv_store *st, struct pv_store_obj *obj);
void pv_store_obj_discard(struct pv_store *st, struct pv_store_obj *obj);

/* The path of object hash, in sb, for messages. */
void pv_store_obj_path(const struct pv_store *st, const char *hash,
		       struct pv_strbuf *sb);

/*
 * The names of the objects in DIR/objects, sorted; anything there that is
 * not an object name, or not a regular file or directory (a link), is
 * counted in *stray and never opened.  No DIR/objects is no object.  The
 * caller frees each name and the array.
 */
int pv_store_obj_list(struct pv_store *st, char ***names, size_t *n,
		      size_t *stray);

/* store_cat.c: objects read back */

/*
 * Check object hash: decompress it and hash its bytes.  Returns 0 when
 * intact (*size set, when size is not NULL), 1 when corrupt (undecodable,
 * its bytes hash to another name, not a regular file), 2 when missing, -1
 * on another error; 1 and 2 set st->err too.  A reader of objects checks
 * every object it is to write before it writes a byte of any of them
 * (pv_store_check()), so that a damaged one leaves nothing written.
 */
int pv_store_verify(struct pv_store *st, const char *hash, uint64_t *size);
/*
 * pv_store_verify() of each of the n entries' objects, in turn: 0 when all
 * are intact, else the result for the first that is not, its index in
 * *bad (st->err names its object).  The one check before writing of show,
 * pair and the like.
 */
int pv_store_check(struct pv_store *st, const struct pv_store_entry *const *e,
		   size_t n, size_t *bad);

/*
 * Write object hash's stream to out byte for byte.  Returns 0, or as
 * pv_store_verify() (an object changed since it was checked is found at
 * its end, after its bytes were written).
 */
int pv_store_cat(struct pv_store *st, const char *hash, FILE *out);

/*
 * Copy object hash's records to out through the record reader, keeping
 * only the sections whose experiment is experiment (NULL: all; "" the
 * absent one, which includes records before any section).  With role
 * non-NULL, every section record is written with ROLE set to role and
 * VERSION set to version (when not NULL, whatever the stream said: the
 * version a pair compares is the stored one), and records before any
 * section get a "section ROLE VERSION -" record before them.  The records
 * that carry their own ROLE VERSION EXPERIMENT (runval, stat, statroll:
 * pv-stat(1) writes them after the last section) are kept or left out by
 * their own EXPERIMENT, and get ROLE and VERSION as the sections do.
 * Other records are copied as they were read, except "pv-format" lines:
 * the caller writes one at the top of what it prints.
 *
 * With run_base not NULL, the RUN of each sample and runval record is
 * moved on by *run_base, which then grows by the largest RUN of the
 * stream: the streams of one version copied in turn with one run_base
 * keep their runs apart (two collections of one plan both number their
 * runs from 1).
 *
 * Returns 0, or -1 with st->err ("LINE: message" for a malformed stream).
 */
int pv_store_cat_records(struct pv_store *st, const char *hash, FILE *out,
			 const char *role, const char *version,
			 const char *experiment, uint64_t *run_base);

/* store_scan.c: what a stream holds */

/*
 * What a stream holds, read with the record reader from fd (plain or
 * gzip, from its current offset; fd is left open): the kinds of its
 * records; its sections' distinct experiment identities, first seen first
 * ("" for an absent one, which records before the first section have
 * too); the tests of its sample and runval records by experiment, first
 * seen first, with their runs.  A malformed stream returns -1 with err and
 * line set (the name in err is left out, for the caller to give the
 * user's name for the stream).
 */
struct pv_store_scan {
	unsigned kinds;
	char **experiment;
	size_t nexperiment, alloc;
	struct pv_store_test *test;	/* strings owned by the scan */
	size_t ntest, test_alloc;
	struct pv_store_runkey *run;	/* (test, level, run) seen */
	size_t nrun, run_alloc;
	struct pv_hmap runs;		/* of run[] */
	unsigned long line;
	struct pv_err err;
};

int pv_store_scan(int fd, struct pv_store_scan *sc);
void pv_store_scan_release(struct pv_store_scan *sc);
/* The KINDS field for kinds: "stack,sample", "stack", "sample" or "-" */
const char *pv_store_scan_kinds(unsigned kinds);

/* store_version.c: versions */

/*
 * The baseline of version name among the live entries (see kver.h for
 * the kernel rule): for a kernel version name, its nearest stored ancestor
 * release; for a name git resolves to a commit (in the current work tree),
 * the nearest stored ancestor commit, the first stored commit that "git
 * rev-list --topo-order" lists after it (entries are matched by their
 * COMMIT field, so a stored kernel tag with its commit counts).  Returns 0
 * with *found (a stored version name), 1 when there is none, 2 when name
 * is neither a kernel version nor a commit, -1 when git failed.
 */
int pv_store_version_baseline(struct pv_store *st, const char *name,
			      const char **found);

/*
 * Sort the stored versions v[0..n) (distinct names, each with a live
 * entry) into the store's order, oldest first: the kernel's release order
 * (version.h; two spellings of one version by name) when every one is a
 * kernel version; git's order of descent, ancestors first ("git rev-list
 * --topo-order --reverse"), when every one is a commit (by its COMMIT
 * field); else the order in which their first live entries were added.
 * Returns 0; 1 when they are commits git here cannot order, which are
 * then in the order they were added, with st->err saying so.
 */
int pv_store_version_order(struct pv_store *st, const char **v, size_t n);

/* store_gc.c: garbage collection */

/*
 * What gc removed: objects no live entry names and their bytes, files in
 * DIR/tmp (left by killed writers) and their bytes, withdrawn entries
 * dropped from the index.
 */
struct pv_store_gc_stats {
	size_t objects, tmpfiles, withdrawn;
	uint64_t bytes, tmpbytes;
};

/*
 * Collect garbage, holding the exclusive lock: remove the leftovers in
 * DIR/tmp and the objects no live entry names, then rewrite the index with
 * only its live entries (atomically).  Removing comes first, so that gc
 * frees what it can on a full disk before it needs room for the new
 * index.  *gs counts what was done, also when it fails part way.
 */
int pv_store_gc(struct pv_store *st, struct pv_store_gc_stats *gs);

/* store_fsck.c: damage */

/*
 * Read the index as pv_store_index_load() does, but past its damaged
 * lines: each is left out of st->entry and given to bad() with its number
 * and what is wrong with it (a cut last line is not damage: st->torn).
 * Returns the number of damaged lines, or -1 when the index cannot be read
 * at all.
 */
long pv_store_index_check(struct pv_store *st,
			  void (*bad)(void *arg, unsigned long line,
				      const char *msg),
			  void *arg);
/*
 * Look for symbolic links where the store keeps its files (format, index,
 * lock, tmp, objects, and in objects/ and its fan-out directories): each
 * is given to bad() with its path in the store.  With repair, a link in
 * place of tmp or lock, or inside objects/, is removed (the link, never
 * what it names), tmp and lock are made anew, and bad() is told so.
 * Returns the number of links found, or -1.
 */
long pv_store_check_links(struct pv_store *st, int repair,
			  void (*bad)(void *arg, const char *rel,
				      int repaired),
			  void *arg);
/*
 * Rewrite the index with its lines as they are, less the damaged ones
 * that pv_store_index_check() found (and a cut last line); a damaged
 * first line is replaced by the index's "pv-format 1" line.  Only under
 * the exclusive lock.  Returns the number of lines dropped, or -1.
 */
long pv_store_index_repair(struct pv_store *st);

#endif
