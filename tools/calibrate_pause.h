/* A pause of both ranks between the ping-pong's rounds (calibrate_rounds.h): rank 0
 * orders it and both sleep, so that neither busy-polls a core meanwhile (rank 1 would,
 * in the MPI_Recv of its next order) and the pause leaves the machine to its load. */
#ifndef PZ_CALIBRATE_PAUSE_H
#define PZ_CALIBRATE_PAUSE_H

/* The order (calibrate_cpu.h's pz_cal_order) of a pause, its nanoseconds in the last
 * field; apart from calibrate_cpu.h's orders. */
#define PZ_CAL_PAUSE (-32)

/* Rank 0: both ranks pause for seconds (nothing when not above 0). */
void pz_cal_lead_pause(double seconds);

/* Rank 1: the pause ordered, of nanoseconds. */
void pz_cal_answer_pause(long nanoseconds);

#endif
