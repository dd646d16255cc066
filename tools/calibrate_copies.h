/* prognoz calibrate's local copies (docs/calibrate.md, "Local copies"): what MPI takes
 * to copy a process's own block from its send buffer to its receive buffer inside a
 * collective (MPICH's MPIR_Localcopy, before the pairwise Alltoall's exchanges), timed
 * as an MPI_Alltoall on MPI_COMM_SELF, which is that copy alone; machine key
 * copy_segments (pz_fit_copy_segments). */
#ifndef PZ_CALIBRATE_COPIES_H
#define PZ_CALIBRATE_COPIES_H

#include <stddef.h>
#include <stdio.h>

/* The sizes timed: 64 KiB (MPICH's pairwise Alltoall begins above 32 KiB) to 16 MiB,
 * times 4, across the caches' sizes. */
#define PZ_CAL_COPY_SIZES 5
#define PZ_CAL_COPY_FIRST 65536.0

/* Copies timed per size: their lower quartile is the measure, as for the ping-pong. */
#define PZ_CAL_COPY_REPETITIONS 21

/* On the calling rank alone: bytes[i] and the lower quartile of the seconds of
 * PZ_CAL_COPY_REPETITIONS MPI_Alltoall of one block of bytes[i] on MPI_COMM_SELF, after
 * one untimed, into times[i].  Returns PZ_CAL_COPY_SIZES, or 0 when memory runs out. */
int pz_cal_copy_times(double *bytes, double *times);

/* The table of the n copies, for calibrate's output. */
void pz_cal_print_copies(FILE *out, const double *bytes, const double *times, int n);

/* How copy_segments were obtained, for the machine file, into buf. */
const char *pz_cal_copy_note(char *buf, size_t len, int n);

#endif
