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
 *   add VERSION HASH SIZE CSIZE TIME KINDS COMMIT BRANCH NAME [EXPERIMENT...]
 *   rm  VERSION HASH TIME
 *
 * "add" files the object HASH (SIZE bytes, CSIZE compressed) under
 * VERSION at TIME (seconds since the epoch); KINDS lists the record kinds
 * the stream holds ("stack", "sample", joined by ','; "-" for neither);
 * COMMIT and BRANCH are the git commit and branch, NAME the file the stream
 * came from, each "-" when absent; the EXPERIMENT fields are the distinct
 * experiment identities of its sections, in order ("-" for an absent one).
 * "rm" withdraws the entry (VERSION, HASH).  An entry is identified by
 * (VERSION, HASH): an "add" of an entry that is already live changes
 * nothing, so the same stream added twice under one version is one entry.
 *
 * Durability: an object is written to DIR/tmp, fsynced, linked to its name
 * (never replacing a file there) and its directory fsynced; only then is
 * its index line appended, with one write(2) under an exclusive flock(2) of
 * the index, and fsynced.  A line cut short by a crash has no newline: the
 * readers ignore it and the next writer truncates it away before appending.
 * Writers (add, rm) and readers of objects (show, pair, verify) hold a
 * shared lock of DIR/lock for their whole run; pv_store_gc() holds it
 * exclusively, so it never removes an object whose index line is still to
 * come, and it replaces the index by rename(2).
 *
 * The code is split by concern, each file's exported names after it:
 *   store.c          the handle, creating and opening, the lock
 *   store_index.c    the index: loading, looking up, appending, rewriting
 *   store_obj.c      objects: writing, naming, listing
 *   store_cat.c      objects read back: bytes, or records with roles set
 *   store_scan.c     what a stream holds, before it is added
 *   store_version.c  versions: the baseline rule
 *   store_gc.c       garbage collection
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
#include "sha256.h"
#include "strbuf.h"

#define PV_STORE_FORMAT "pv-store 1"

/* Kinds of records a stream holds (struct pv_store_scan.kinds). */
enum {
	PV_KIND_STACK = 1,
	PV_KIND_SAMPLE = 2
};

/* A slot of the (version, hash) table: entry + 1 (0: empty), key hash. */
struct pv_store_slot {
	size_t entry;
	uint64_t key;
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
	unsigned long line;		/* in the index */
	int live;			/* 0 once withdrawn by an rm line */
};

struct pv_store {
	char *dir;
	int lockfd;
	struct pv_arena arena;		/* the entries' strings */
	struct pv_store_entry *entry;	/* in index order, live or not */
	size_t nentry, entry_alloc;
	struct pv_store_slot *slot;	/* (version, hash) -> entry */
	size_t nslot;
	int torn;			/* the index ended in a cut line */
	struct pv_err err;
	/*
	 * When the last pv_store_index_load() failed on a line of DIR/index:
	 * its number, err saying what is wrong with it; else 0.
	 */
	unsigned long err_line;
};

#define PV_STORE_INIT { NULL, -1, PV_ARENA_INIT, NULL, 0, 0, NULL, 0, 0, \
			PV_ERR_INIT, 0 }

/* store.c: the handle */

void pv_store_init(struct pv_store *st);
void pv_store_release(struct pv_store *st);

/*
 * Make a store at dir (its parents must exist).  An existing store is left
 * as it is (0); an existing directory that is not a store, not empty, is
 * an error.
 */
int pv_store_create(struct pv_store *st, const char *dir);
/* Open the store at dir, checking its format file. */
int pv_store_open(struct pv_store *st, const char *dir);

/* Take DIR/lock shared (writers) or exclusive (gc), waiting for it. */
int pv_store_lock(struct pv_store *st, int exclusive);

/* store_index.c: the index */

/*
 * Read the index into st->entry (again, if called again).  A cut last line
 * is skipped and st->torn set.  A damaged line sets st->err_line.
 */
int pv_store_index_load(struct pv_store *st);
/* The live entry (version, hash), or NULL. */
const struct pv_store_entry *pv_store_index_find(const struct pv_store *st,
						 const char *version,
						 const char *hash);

/*
 * Index lines, appended to sb: an add line for e (its live and line
 * members ignored), an rm line.
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
 * disk in DIR/tmp), then commit (filed under its name) or abort.  Commit
 * and abort free obj; so does a failing finish.
 */
struct pv_store_obj {
	char hash[PV_SHA256_HEXLEN + 1];
	uint64_t size, csize;
	const char *tmp;		/* the temporary file, after finish */
	struct pv_store_objstate *state;
};

struct pv_store_obj *pv_store_obj_begin(struct pv_store *st);
int pv_store_obj_write(struct pv_store *st, struct pv_store_obj *obj,
		       const void *buf, size_t len);
int pv_store_obj_finish(struct pv_store *st, struct pv_store_obj *obj);
/* Returns 1 if the object was new, 0 if the store had it already. */
int pv_store_obj_commit(struct pv_store *st, struct pv_store_obj *obj);
void pv_store_obj_discard(struct pv_store *st, struct pv_store_obj *obj);

/* The path of object hash, in sb. */
void pv_store_obj_path(const struct pv_store *st, const char *hash,
		       struct pv_strbuf *sb);

/*
 * The names of the objects in DIR/objects, sorted; files there that are
 * not object names are counted in *stray.  The caller frees each name and
 * the array.
 */
int pv_store_obj_list(struct pv_store *st, char ***names, size_t *n,
		      size_t *stray);

/* store_cat.c: objects read back */

/*
 * Write object hash's stream to out (NULL: only check it), byte for byte,
 * checking it against its name on the way.  Returns 0 when intact, 1 when
 * corrupt (undecodable, or its bytes hash to another name), 2 when
 * missing, -1 on another error; 1 and 2 set st->err too.  With out, a
 * corruption found at the end comes after the bytes were written.
 */
int pv_store_cat(struct pv_store *st, const char *hash, FILE *out,
		 uint64_t *size);

/*
 * Copy object hash's records to out through the record reader, keeping
 * only the sections whose experiment is experiment (NULL: all; "" the
 * absent one, which includes records before any section).  With role
 * non-NULL, every section record is written with ROLE set to role and
 * VERSION set to version (when not NULL, whatever the stream said: the
 * version a pair compares is the stored one), and records before any
 * section get a "section ROLE VERSION -" record before them.  Other
 * records are copied as they were read, except "pv-format" lines: the
 * caller writes one at the top of what it prints.
 *
 * With run_base not NULL, each sample's RUN is moved on by *run_base,
 * which then grows by the largest RUN of the stream: the streams of one
 * version copied in turn with one run_base keep their runs apart (two
 * collections of one plan both number their runs from 1).
 *
 * Returns 0, or -1 with st->err ("LINE: message" for a malformed stream).
 */
int pv_store_cat_records(struct pv_store *st, const char *hash, FILE *out,
			 const char *role, const char *version,
			 const char *experiment, uint64_t *run_base);

/* store_scan.c: what a stream holds */

/*
 * What a stream holds, read with the record reader from path (plain or
 * gzip): the kinds of its records and its sections' distinct experiment
 * identities, first seen first ("" for an absent one, which records before
 * the first section have too).  A malformed stream returns -1 with err and
 * line set (the name in err is left out, for the caller to give the user's
 * name for the stream).
 */
struct pv_store_scan {
	unsigned kinds;
	char **experiment;
	size_t nexperiment, alloc;
	unsigned long line;
	struct pv_err err;
};

int pv_store_scan(const char *path, struct pv_store_scan *sc);
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

/* store_gc.c: garbage collection */

/*
 * Collect garbage, holding the exclusive lock: rewrite the index with only
 * its live entries (atomically), remove the objects no live entry names
 * and the leftovers of interrupted writers in DIR/tmp.  Counts what it
 * removed.
 */
int pv_store_gc(struct pv_store *st, size_t *nobj, uint64_t *bytes);

#endif
