/*
 * kvset: the comparability of two sections, by their meta and env records
 * (pv-diff refuses to compare samples measured under different conditions).
 * A pv_kvset holds (type, key, value) triples; a key given twice with
 * different values holds the value "(several values)".  The strings are
 * copied.
 */
#ifndef PV_KVSET_H
#define PV_KVSET_H

#include <stddef.h>

#include "record.h"
#include "strbuf.h"

struct pv_kv {
	char *type, *key, *value;
};

struct pv_kvset {
	struct pv_kv *kv;
	size_t nkv, alloc;
	int sorted;
};

void pv_kvset_init(struct pv_kvset *s);
void pv_kvset_release(struct pv_kvset *s);
void pv_kvset_add(struct pv_kvset *s, struct pv_str type, struct pv_str key,
		  struct pv_str value);

/*
 * The keys whose values differ between a and b (or that only one has),
 * apart from the keys in ignore[0..nignore) (matched by "TYPE.KEY", "KEY",
 * or a prefix ending in '*'), described as "meta 'KEY' ('A' vs 'B')" and
 * separated by ", " into why.  Returns their number.
 */
size_t pv_kvset_diff(struct pv_kvset *a, struct pv_kvset *b,
		     const char *const *ignore, size_t nignore,
		     struct pv_strbuf *why);

/* The keys that differ by design between a baseline and a target. */
extern const char *const pv_kvset_default_ignore[];
extern const size_t pv_kvset_default_nignore;

#endif
