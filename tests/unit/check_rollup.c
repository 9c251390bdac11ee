/*
 * check_rollup: keys in key order summed up per test, suite and section:
 * which scopes end where, what each holds when it ends, and that a key
 * given but not added ends scopes all the same.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rec_check.h"
#include "rollup.h"

/* the flushes, one line each */
static char log_text[4096];

static void
flush(void *arg, struct pv_roll *r, enum pv_scope scope)
{
	size_t n = strlen(log_text), i;

	(void)arg;
	n += (size_t)snprintf(log_text + n, sizeof(log_text) - n,
			      "%d %.*s/%.*s/%.*s keys %zu runs %zu min %zu sum "
			      "%g min %g var %g nse %zu:", (int)scope,
			      (int)r->first->role.len, r->first->role.s,
			      (int)r->first->suite.len, r->first->suite.s,
			      (int)r->first->test.len, r->first->test.s,
			      r->keys, r->runs, r->min_runs, r->sum, r->min,
			      r->var, r->nse);
	for (i = 0; r->value != NULL && i < r->keys; i++)
		n += (size_t)snprintf(log_text + n, sizeof(log_text) - n,
				      " %g", r->value[i]);
	snprintf(log_text + n, sizeof(log_text) - n, "\n");
}

static struct pv_runkey
key(const char *role, const char *suite, const char *test)
{
	struct pv_runkey k;

	memset(&k, 0, sizeof(k));
	k.role = S(role);
	k.suite = S(suite);
	k.test = S(test);
	k.level = PV_NONE;
	return k;
}

START_TEST(test_scopes)
{
	struct pv_runkey k[6];
	struct pv_rollup r;
	int i;

	k[0] = key("a", "s1", "t1");
	k[1] = key("a", "s1", "t1");
	k[2] = key("a", "s1", "t2");
	k[3] = key("a", "s2", "t2");
	k[4] = key("b", "s2", "t2");
	k[5] = key("b", "s2", "t2");
	log_text[0] = '\0';
	pv_rollup_init(&r, 1, flush, NULL);
	for (i = 0; i < 6; i++) {
		pv_rollup_next(&r, &k[i]);
		/* key 5 is given, not added */
		if (i != 5)
			pv_rollup_add(&r, &k[i], (size_t)(i + 2), i - 1.5,
				      i == 1 ? NAN : 0.5);
	}
	pv_rollup_end(&r);
	pv_rollup_release(&r);
	ck_assert_str_eq(log_text,
		"0 a/s1/t1 keys 2 runs 5 min 2 sum -2 min -1.5 var 0.25 nse 1:"
		" -1.5 -0.5\n"
		"0 a/s1/t2 keys 1 runs 4 min 4 sum 0.5 min 0.5 var 0.25 nse 1:"
		" 0.5\n"
		"1 a/s1/t1 keys 3 runs 9 min 2 sum -1.5 min -1.5 var 0.5 nse 2:"
		" -1.5 -0.5 0.5\n"
		"0 a/s2/t2 keys 1 runs 5 min 5 sum 1.5 min 1.5 var 0.25 nse 1:"
		" 1.5\n"
		"1 a/s2/t2 keys 1 runs 5 min 5 sum 1.5 min 1.5 var 0.25 nse 1:"
		" 1.5\n"
		"2 a/s1/t1 keys 4 runs 14 min 2 sum 0 min -1.5 var 0.75 nse 3:"
		" -1.5 -0.5 0.5 1.5\n"
		"0 b/s2/t2 keys 1 runs 6 min 6 sum 2.5 min 2.5 var 0.25 nse 1:"
		" 2.5\n"
		"1 b/s2/t2 keys 1 runs 6 min 6 sum 2.5 min 2.5 var 0.25 nse 1:"
		" 2.5\n"
		"2 b/s2/t2 keys 1 runs 6 min 6 sum 2.5 min 2.5 var 0.25 nse 1:"
		" 2.5\n");
}
END_TEST

/* a scope whose keys were given but never added writes nothing */
START_TEST(test_empty)
{
	struct pv_runkey a = key("a", "s", "t"), b = key("a", "s", "u");
	struct pv_rollup r;

	log_text[0] = '\0';
	pv_rollup_init(&r, 0, flush, NULL);
	pv_rollup_end(&r);
	pv_rollup_next(&r, &a);
	pv_rollup_next(&r, &b);
	pv_rollup_add(&r, &b, 1, 7, NAN);
	pv_rollup_end(&r);
	pv_rollup_release(&r);
	ck_assert_str_eq(log_text,
		"0 a/s/u keys 1 runs 1 min 1 sum 7 min 7 var 0 nse 0:\n"
		"1 a/s/u keys 1 runs 1 min 1 sum 7 min 7 var 0 nse 0:\n"
		"2 a/s/u keys 1 runs 1 min 1 sum 7 min 7 var 0 nse 0:\n");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("rollup");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_scopes);
	tcase_add_test(tc, test_empty);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
