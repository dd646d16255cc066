/* The collective overhead's measurement (docs/calibrate.md, "Collective overhead"):
 * after a barrier both ranks call MPI_Allreduce of one double back to back, each
 * timing its calls; what rank 0's take beyond the model's allreduce on the machine
 * fitted from the other measurements is the CPU time a collective call costs besides
 * its messages (machine key collective_overhead). */
#ifndef PZ_CALIBRATE_COLL_H
#define PZ_CALIBRATE_COLL_H

/* The order (calibrate_cpu.h's pz_cal_order) of the measurement, with the calls; apart
 * from calibrate_cpu.h's orders. */
#define PZ_CAL_ALLREDUCE (-35)

/* The bytes each MPI_Allreduce of the measurement reduces: one double. */
#define PZ_CAL_ALLREDUCE_BYTES 8

/* Rank 0: orders the measurement and takes part in it: `calls` MPI_Allreduce of one
 * double (MPI_SUM) back to back after a barrier; the trimmed mean (pz_cal_typical) of
 * its calls' times, NAN without memory. */
double pz_cal_lead_allreduce(int calls);

/* Rank 1: its side of the measurement ordered. */
void pz_cal_answer_allreduce(int calls);

#endif
