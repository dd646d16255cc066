/* prognoz-calibrate's clocks (docs/calibrate.md, "Exchanges"): how far rank 1's
 * MPI_Wtime is from rank 0's, so that the two ranks' times of one event compare (how
 * far apart they leave a barrier).  Rank 0 leads, rank 1 answers PZ_CAL_CLOCK. */
#ifndef PZ_CALIBRATE_CLOCK_H
#define PZ_CALIBRATE_CLOCK_H

/* Round trips the offset is taken from, and the share of them, the shortest, whose
 * offsets it is the median of (1 / PZ_CAL_CLOCK_SHORTEST). */
#define PZ_CAL_CLOCK_ROUND_TRIPS 200
#define PZ_CAL_CLOCK_SHORTEST 10

/* Rank 0: rank 1's clock less rank 0's, in seconds: over PZ_CAL_CLOCK_ROUND_TRIPS round
 * trips, rank 0 sending and rank 1 answering with its clock, each taking rank 1's
 * reading to fall at the middle of the round trip (the two one-way times equal), the
 * median offset of the shortest tenth of them (they waited least for either process;
 * one round trip during which the system clock was set, which MPI_Wtime may follow,
 * does not move the median); round trips that ended before they began (the clock set
 * back) are left out; 0 if all were. */
double pz_cal_clock_offset(void);

/* Rank 1: answers pz_cal_clock_offset's count round trips. */
void pz_cal_answer_clock(int count);

#endif
