/*
 * stats_int: what the files of the stats module share and nobody else
 * calls (stats.c, stats_boot.c).
 */
#ifndef PV_STATS_INT_H
#define PV_STATS_INT_H

/* GSL's aborting error handler off, once for the process: before any
 * GSL call that input could make fail */
void pv_stats_gsl_quiet(void);

/* The exact bootstrap's tables of this thread freed (stats_boot.c), for
 * pv_stats_thread_release(). */
void pv_stats_boot_release(void);

/*
 * A memo of the last two (a, b) -> value asked, the older one replaced:
 * the t quantile and two-sided tail (stats.c) and the probits of the
 * bootstrap's levels (stats_boot.c) are asked the same few arguments key
 * after key.  Zero-initialized it is empty; an entry whose a is 0 is never
 * found, so a caller for whom a == 0 is an argument does not keep it.
 */
struct memo2 {
	double a[2], b[2], v[2];
	unsigned next;
};

static inline int
memo2_get(const struct memo2 *m, double a, double b, double *v)
{
	int i;

	for (i = 0; i < 2; i++)
		if (m->a[i] == a && m->b[i] == b && a != 0) {
			*v = m->v[i];
			return 1;
		}
	return 0;
}

static inline void
memo2_put(struct memo2 *m, double a, double b, double v)
{
	m->a[m->next] = a;
	m->b[m->next] = b;
	m->v[m->next] = v;
	m->next = 1 - m->next;
}

#endif
