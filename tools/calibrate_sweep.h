/* The computation of prognoz-calibrate's resume probe (docs/calibrate.md, "Resume"): a
 * program computing between its messages streams through its arrays, which pushes MPI's
 * and the kernel's code and data out of the core's caches, so the probe computes the
 * same way rather than spinning on the clock. */
#ifndef PZ_CALIBRATE_SWEEP_H
#define PZ_CALIBRATE_SWEEP_H

/* The buffer the sweep streams through: four times the core's second-level cache (as
 * the kernel describes it, else sysconf), PZ_CAL_SWEEP_DEFAULT if unknown. */
#define PZ_CAL_SWEEP_DEFAULT (16L << 20)

/* Computes for `seconds` by the clock, reading and writing one double per cache line
 * of the buffer, on from where the previous sweep stopped (round the buffer); without
 * the buffer (no memory) it spins on the clock.  Not thread-safe. */
void pz_cal_sweep(double seconds);

/* The buffer's size in bytes (allocating it on first use); 0 without memory. */
long pz_cal_sweep_bytes(void);

/* The seconds the sweep takes to touch as many bytes as the second-level cache holds
 * (a quarter of the buffer): the least of 3 timed passes over that many lines.  A
 * computation shorter than that cannot have pushed the cache's contents out.  0
 * without the buffer. */
double pz_cal_sweep_cache_seconds(void);

#endif
