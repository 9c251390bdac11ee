/*
 * Unit tests of lib/sampler: the event names, bad options, and (where
 * this machine lets us sample) the stacks of a child process: every stack
 * rooted at the child's name, counts and periods added up; kernel frames
 * without kernel symbols, named with their addresses.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner.h"
#include "sampler.h"
#include "stacktab.h"
#include "symtab.h"

START_TEST(events)
{
	ck_assert(pv_sampler_event_known("cpu-clock"));
	ck_assert(pv_sampler_event_known("cycles"));
	ck_assert(!pv_sampler_event_known("nosuch"));
	ck_assert(!pv_sampler_event_known(""));
}
END_TEST

START_TEST(bad_options)
{
	struct pv_sampler_opts o = { .event = "nosuch", .frequency = 99 };
	struct pv_err err;
	int refused = 7;

	ck_assert_ptr_null(pv_sampler_new(&o, &err, &refused));
	ck_assert_str_eq(pv_err_msg(&err), "unknown event 'nosuch'");
	ck_assert_int_eq(refused, 0);
	o.event = NULL;
	o.ring_pages = 3;
	ck_assert_ptr_null(pv_sampler_new(&o, &err, &refused));
	ck_assert_str_eq(pv_err_msg(&err),
			 "bad sampling options for 'cpu-clock'");
}
END_TEST

START_TEST(sample_child)
{
	struct pv_sampler_opts o = { .frequency = 999, .user_only = 1 };
	char *argv[] = { "sh", "-c", "i=0; while [ $i -lt 400000 ]; "
			 "do i=$((i+1)); done", NULL };
	struct pv_symtab names;
	struct pv_stacktab stacks;
	struct pv_run_result res;
	struct pv_sampler *s;
	struct pv_run_opts ro = PV_RUN_OPTS_INIT;
	struct pv_err err;
	uint64_t n = 0, period = 0;
	size_t i;
	int refused;

	s = pv_sampler_new(&o, &err, &refused);
	if (s == NULL) {
		ck_assert(refused);	/* anything else is a failure */
		fprintf(stderr, "check_sampler: not sampled here: %s\n",
			pv_err_msg(&err));
		return;
	}
	ck_assert_str_eq(pv_sampler_event(s), "cpu-clock");
	pv_symtab_init(&names);
	pv_stacktab_init(&stacks);
	pv_sampler_sink(s, &names, &stacks);
	ro.sampler = s;
	ck_assert_int_eq(pv_runner_run(argv, NULL, NULL, &ro, &res, &err),
			 0);
	ck_assert(pv_runner_ok(&res));
	ck_assert_uint_gt(stacks.nstack, 0);
	for (i = 0; i < stacks.nstack; i++) {
		struct pv_stack *st = &stacks.stack[i];
		struct pv_str root = pv_symtab_get(&names, st->frame[0]);

		ck_assert_uint_ge(st->nframe, 2);
		ck_assert_msg(root.len == 2 && memcmp(root.s, "sh", 2) == 0,
			      "root frame '%.*s'", (int)root.len, root.s);
		n += st->samples;
		period += st->period;
	}
	ck_assert_uint_eq(n, pv_sampler_samples(s));
	/* cpu-clock periods are nanoseconds: about 1 ms at 999 Hz */
	ck_assert_uint_ge(period / n, 500000);
	ck_assert_uint_le(period / n, 2000000);
	ck_assert_uint_eq(pv_sampler_lost(s), 0);
	pv_stacktab_release(&stacks);
	pv_symtab_release(&names);
	pv_sampler_free(s);
}
END_TEST

/*
 * Kernel symbols hidden (kallsyms of zero addresses, as kptr_restrict
 * gives): every kernel frame is "[[kernel.kallsyms] <ADDRESS>]_[k]" with
 * addrs and annotate_kernel, the name pv-parse --addrs --kernel gives perf
 * script's "ADDRESS [unknown] ([kernel.kallsyms])".
 */
START_TEST(unresolved_kernel)
{
	char ks[] = "/tmp/check_sampler.XXXXXX";
	struct pv_sampler_opts o = { .frequency = 999, .annotate_kernel = 1,
				     .addrs = 1, .kallsyms = ks };
	char *argv[] = { "dd", "if=/dev/zero", "of=/dev/null", "bs=1",
			 "count=200000", "status=none", NULL };
	struct pv_symtab names;
	struct pv_stacktab stacks;
	struct pv_run_result res;
	struct pv_sampler *s;
	struct pv_run_opts ro = PV_RUN_OPTS_INIT;
	struct pv_err err;
	size_t i, j, nk = 0;
	int refused, fd = mkstemp(ks);
	FILE *f;

	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	fputs("0000000000000000 T _stext\n0000000000000000 T _etext\n", f);
	ck_assert_int_eq(fclose(f), 0);
	s = pv_sampler_new(&o, &err, &refused);
	unlink(ks);
	if (s == NULL) {
		ck_assert(refused);
		fprintf(stderr, "check_sampler: not sampled here: %s\n",
			pv_err_msg(&err));
		return;
	}
	pv_symtab_init(&names);
	pv_stacktab_init(&stacks);
	pv_sampler_sink(s, &names, &stacks);
	ro.sampler = s;
	ck_assert_int_eq(pv_runner_run(argv, NULL, NULL, &ro, &res, &err),
			 0);
	ck_assert(pv_runner_ok(&res));
	for (i = 0; i < stacks.nstack; i++) {
		struct pv_stack *st = &stacks.stack[i];

		for (j = 1; j < st->nframe; j++) {
			struct pv_str fr = pv_symtab_get(&names,
							 st->frame[j]);
			char name[256];
			unsigned long long a;
			int end = 0;

			if (fr.len < 4 || memcmp(fr.s + fr.len - 4, "_[k]",
						 4) != 0)
				continue;
			ck_assert_uint_lt(fr.len, sizeof(name));
			memcpy(name, fr.s, fr.len);
			name[fr.len] = '\0';
			ck_assert_msg(sscanf(name, "[[kernel.kallsyms] <%llx>]"
					     "_[k]%n", &a, &end) == 1 &&
				      (size_t)end == fr.len && a != 0,
				      "kernel frame '%s'", name);
			nk++;
		}
	}
	ck_assert_uint_gt(nk, 0);
	pv_stacktab_release(&stacks);
	pv_symtab_release(&names);
	pv_sampler_free(s);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("sampler");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, events);
	tcase_add_test(tc, bad_options);
	tcase_add_test(tc, sample_child);
	tcase_add_test(tc, unresolved_kernel);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
