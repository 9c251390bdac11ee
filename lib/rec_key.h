/*
 * rec_key: the key fields that the statistics records of pv-format(5)
 * share, written and read for their codecs (rec_sample, rec_stat,
 * rec_cmp, rec_verdict).
 *
 * A key is a section's identity, ROLE VERSION EXPERIMENT (in comparison
 * records BASE TARGET EXPERIMENT: the baseline's version in role, the
 * target's in version), and a sample's SUITE TEST OPERATION METRIC UNIT
 * DIRECTION LEVEL.  Written, an empty string and an absent level are '-';
 * read, '-' is an empty string and an absent level (PV_NONE).
 *
 * The writers append fields to a strbuf, each with the TAB before it, as
 * field.h's do.  Where a key is written for many records, its text (the
 * fields as pv_rec_key_add() writes them with the section) is made once
 * and given to the codecs instead of the key.
 */
#ifndef PV_REC_KEY_H
#define PV_REC_KEY_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "record.h"
#include "strbuf.h"

struct pv_runkey {
	struct pv_str role, version, experiment;	/* "" when absent */
	struct pv_str suite, test, operation, metric, unit;
	enum pv_direction direction;
	uint64_t level;		/* PV_NONE when absent */
};

/*
 * The scopes of the roll-up records (statroll, cmproll), innermost
 * first: the keys of a test, of a suite, of a section ("run").
 */
enum pv_scope {
	PV_SCOPE_TEST,
	PV_SCOPE_SUITE,
	PV_SCOPE_RUN
};
#define PV_NSCOPE 3

/* The fields of key; with_section: ROLE VERSION EXPERIMENT first. */
void pv_rec_key_add(struct pv_strbuf *sb, const struct pv_runkey *key,
		    int with_section);
/* Only ROLE VERSION EXPERIMENT. */
void pv_rec_key_add_section(struct pv_strbuf *sb,
			    const struct pv_runkey *key);
/*
 * The fields of key with the section, ROLE and VERSION from key and the
 * rest from text, the text of a key (pv_rec_key_add(sb, k, 1)) of the same
 * EXPERIMENT, SUITE ... LEVEL: a comparison's key from one side's.
 */
void pv_rec_key_add_text(struct pv_strbuf *sb, const struct pv_runkey *key,
			 struct pv_str text);
/* A key's text without its last field, LEVEL. */
struct pv_str pv_rec_key_text_levelless(struct pv_str text);
/* The last field, LEVEL, of a key's text: after its levelless text, the
 * whole text of the key of that level. */
void pv_rec_key_add_level(struct pv_strbuf *sb, uint64_t level);
/*
 * The key fields of a roll-up record: ROLE VERSION EXPERIMENT SCOPE SUITE
 * TEST, SUITE '-' in the run scope and TEST '-' but in the test scope.
 */
void pv_rec_key_add_scope(struct pv_strbuf *sb, const struct pv_runkey *key,
			  enum pv_scope scope);

/*
 * The bytes of a sample record's fields SUITE to LEVEL as read (TABs
 * between), when each points into the record's line (none was unescaped
 * elsewhere); else an empty string.
 */
struct pv_str pv_rec_key_sample_span(const struct pv_record *rec);
/*
 * Whether such a span is the text pv_rec_key_add() writes for its fields
 * (level: the LEVEL field in it): none is empty (written '-'), none holds
 * a CR (written escaped), LEVEL has no leading zero.
 */
int pv_rec_key_span_is_text(struct pv_str span, struct pv_str level);

/*
 * Read the key fields ROLE ... LEVEL (10) of rec from field[first] into
 * key, its strings pointing into rec.  Returns 0, or -1 with e set.
 */
int pv_rec_key_get(const struct pv_record *rec, size_t first,
		   struct pv_runkey *key, struct pv_err *e);
/* ROLE VERSION EXPERIMENT SCOPE SUITE TEST from field[1] (a roll-up). */
int pv_rec_key_get_scope(const struct pv_record *rec, struct pv_runkey *key,
			 enum pv_scope *scope, struct pv_err *e);

/*
 * The order of keys in the statistics records: fields byte-wise, level
 * numerically with absent levels first.
 */
int pv_rec_key_cmp(const struct pv_runkey *a, const struct pv_runkey *b);
/* Levels in that order: absent (PV_NONE) first, then ascending. */
static inline int
pv_rec_key_level_cmp(uint64_t a, uint64_t b)
{
	if (a == b)
		return 0;
	if (a == PV_NONE || b == PV_NONE)
		return a == PV_NONE ? -1 : 1;
	return a < b ? -1 : 1;
}
/* The same without ROLE and VERSION (what pairs baseline and target). */
int pv_rec_key_cmp_measure(const struct pv_runkey *a,
			   const struct pv_runkey *b);

#endif
