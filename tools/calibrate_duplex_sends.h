/* The duplex overhead measured (docs/calibrate.md, "Duplex overhead"): both ranks
 * exchange a small message back to back, each timing its MPI_Isend alone; with the
 * MPI_Isend of a message whose receiver waits without sending (set up as the send
 * overhead's measurement, calibrate_cpu.h, but MPI_Isend timed alone), their excess is
 * the CPU time the later sender pays while its receiver's message is on its way
 * (machine key duplex_overhead). */
#ifndef PZ_CALIBRATE_DUPLEX_SENDS_H
#define PZ_CALIBRATE_DUPLEX_SENDS_H

/* The order (calibrate_cpu.h's pz_cal_order) of the measurement, with the size, the
 * exchanges and (in the time's field) the lone sends; apart from calibrate_cpu.h's
 * orders. */
#define PZ_CAL_DUPLEX_SENDS (-33)

/* Rank 0: after a barrier both ranks exchange bytes both ways `exchanges` times back to
 * back (MPI_Irecv, MPI_Isend, MPI_Waitall, the next at once), each timing its
 * MPI_Isend alone; the trimmed mean of each rank's (pz_cal_typical) into isend[0] and
 * isend[1].  Then rank 0 sends bytes `sends` times, each once rank 1 has posted its
 * receive and said so, timing MPI_Isend alone: the trimmed mean into *lone. */
void pz_cal_lead_duplex_sends(char *out, char *in, long bytes, int exchanges, int sends,
                              double isend[2], double *lone);

/* Rank 1: its side of the measurement ordered; buf holds two messages of bytes. */
void pz_cal_answer_duplex_sends(char *buf, long bytes, int exchanges, int sends);

#endif
