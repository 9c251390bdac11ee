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

#endif
