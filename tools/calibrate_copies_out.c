/* The local copies of prognoz calibrate, told (calibrate_copies.h). */
#include "calibrate_copies.h"
#include "calibrate_out.h"

void pz_cal_print_copies(FILE *out, const double *bytes, const double *times, int n)
{
    char a[64];

    if (n == 0)
        return;
    fprintf(out, "\nLocal copies (MPI_Alltoall of one block on MPI_COMM_SELF, the lower "
            "quartile of %d):\n", PZ_CAL_COPY_REPETITIONS);
    fprintf(out, "%10s %12s %12s\n", "size", "time (us)", "GB/s");
    for (int i = 0; i < n; i++)
        fprintf(out, "%10s %12.3f %12.3f\n", pz_cal_size(a, sizeof(a), bytes[i]), times[i] * 1e6,
                bytes[i] / times[i] / 1e9);
}

const char *pz_cal_copy_note(char *buf, size_t len, int n)
{
    snprintf(buf, len,
             "copy_segments: MPI's copy of a process's own block inside a collective\n"
             "(MPICH's pairwise Alltoall copies it before its exchanges): an MPI_Alltoall of\n"
             "one block on MPI_COMM_SELF at %d sizes from 64 KiB, the lower quartile of %d;\n"
             "a segment per size up to it (the last for any larger copy), the size over\n"
             "its time, the rate falling as the copies leave the caches",
             n, PZ_CAL_COPY_REPETITIONS);
    return buf;
}
