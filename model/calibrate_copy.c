/* copy_segments from timed copies (calibrate_copy.h). */
#include "calibrate_copy.h"

/* The last segment's bound: any size (2^53, the largest double of exact integers). */
#define ANY_SIZE 9007199254740992.0

int pz_fit_copy_segments(const double *bytes, const double *times, int n,
                         struct pz_segments *out)
{
    out->n = 0;
    if (n < 1 || n > PZ_MAX_SEGMENTS)
        return -1;
    for (int i = 0; i < n; i++)
        if (!(bytes[i] > 0) || !(times[i] > 0) || (i > 0 && !(bytes[i] > bytes[i - 1])))
            return -1;
    for (int i = 0; i < n; i++)
        out->seg[i] = (struct pz_segment){ i == n - 1 ? ANY_SIZE : bytes[i], 0,
                                           bytes[i] / times[i] };
    out->n = n;
    return 0;
}
