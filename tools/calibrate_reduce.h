/* prognoz-calibrate's measure of the reduction arithmetic (docs/calibrate.md): the time
 * per byte of MPI_SUM on doubles, the operation of most reductions, which the model
 * charges per byte a collective's algorithm combines (reduce_byte_time). */
#ifndef PZ_CALIBRATE_REDUCE_H
#define PZ_CALIBRATE_REDUCE_H

/* The bytes of each reduction timed: a vector of doubles that stays in the caches, as
 * the blocks a reduction combines just arrived. */
#define PZ_CAL_REDUCE_BYTES (1 << 20)

/* Times of it taken: their lower quartile is the measure, as for the ping-pong. */
#define PZ_CAL_REDUCE_REPETITIONS 41

/* Seconds of one MPI_Reduce_local of PZ_CAL_REDUCE_BYTES of doubles with MPI_SUM, the
 * lower quartile of PZ_CAL_REDUCE_REPETITIONS after one untimed; on the calling rank
 * alone (no communication).  A negative value when memory runs out. */
double pz_cal_reduce_time(void);

#endif
