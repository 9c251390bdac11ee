/*
 * testspill: a table of runs (runtab.h) that holds one test at a time
 * while its input is grouped by test, as pv-stat and pv-diff read theirs.
 *
 * A test is a ROLE VERSION EXPERIMENT SUITE TEST.  Before a record is
 * added to the table, pv_testspill_enter() names its test; when that is
 * not the test being read, the sets of the one being read are saved to a
 * temporary file (the spill) and dropped from the table, so the table
 * holds the keys of one test.  At the end the caller reads the tests back
 * (pv_testspill_load()), in the order it needs, a batch at a time.
 *
 * A test that comes back after another began (input not grouped) makes
 * pv_testspill_enter() return 1 and set hold: from then on no test is
 * saved, and the caller takes that test back (pv_testspill_take()) or
 * every test (pv_testspill_hold_all()), as a table of the whole input.
 *
 * The spill is an unlinked file in $TMPDIR, else /tmp, named after the
 * tool, made when the first test is saved; one struct pv_testspill_file
 * may serve several tables (pv-diff's samples and runvals).  The bytes
 * are pv_runtab_save()'s, for this process only.
 *
 * Errors: the functions that can fail return -1 with ts->err set (a
 * system error's message ends in ": strerror").  The groups' strings live
 * in ts until pv_testspill_release().
 */
#ifndef PV_TESTSPILL_H
#define PV_TESTSPILL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "error.h"
#include "record.h"
#include "runtab.h"
#include "strbuf.h"
#include "symtab.h"

/* The temporary file; fd -1 until the first save. */
struct pv_testspill_file {
	const char *tool;	/* names the file: TOOL.XXXXXX */
	int fd;
	off_t end;
	struct pv_strbuf buf;	/* the bytes of one test, saved or read */
};

/* A test of the table, held or saved. */
struct pv_testspill_group {
	struct pv_runkey key;	/* its five fields, the rest empty */
	off_t off;		/* its saved sets in the spill */
	size_t len;
	int saved;		/* they are there, not in the table */
};

#define PV_TESTSPILL_NONE UINT32_MAX

struct pv_testspill {
	struct pv_runtab *tab;
	struct pv_testspill_file *file;
	struct pv_symtab gid;		/* a test's identity: its group */
	struct pv_symtab gstr;		/* the groups' strings */
	struct pv_strbuf idbuf;
	struct pv_testspill_group *g;	/* by id, in the order first read */
	size_t n, alloc;
	uint32_t cur;			/* the group being read, or NONE */
	int hold;			/* a test came back: hold all */
	struct pv_err err;
};

/* tool: a static string, "pv-stat" say. */
void pv_testspill_file_init(struct pv_testspill_file *f, const char *tool);
void pv_testspill_file_release(struct pv_testspill_file *f);

void pv_testspill_init(struct pv_testspill *ts, struct pv_runtab *tab,
		       struct pv_testspill_file *file);
void pv_testspill_release(struct pv_testspill *ts);

/*
 * The record about to be added to the table is of this test.  When
 * another was being read, its sets are saved (unless hold is set).
 * Returns 0; 1 when this test's sets are saved (it came back: hold is now
 * set, and the caller takes them back); -1 on a failure of the spill.
 */
int pv_testspill_enter(struct pv_testspill *ts, struct pv_str role,
		       struct pv_str version, struct pv_str experiment,
		       struct pv_str suite, struct pv_str test);

/*
 * The sets of the test being read saved, and none being read: at the end
 * of the input, before the tests are read back.  Returns 0 or -1.
 */
int pv_testspill_save_current(struct pv_testspill *ts);

/*
 * The saved sets of group g added to table t (ts->tab or another); g
 * stays saved, to be loaded again.  Nothing when g is not saved.  Returns
 * 0 or -1 (a read error, or bytes that t refuses).
 */
int pv_testspill_load(struct pv_testspill *ts,
		      const struct pv_testspill_group *g, struct pv_runtab *t);

/* Group g's sets back in ts->tab for good: no longer saved.  0 or -1. */
int pv_testspill_take(struct pv_testspill *ts, struct pv_testspill_group *g);

/* hold set and every saved group taken back into ts->tab.  0 or -1. */
int pv_testspill_hold_all(struct pv_testspill *ts);

#endif
