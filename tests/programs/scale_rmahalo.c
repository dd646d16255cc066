/* The scaling validation's one-sided halo exchange (share/validation/rmahalo.c: a 1-D
 * halo by MPI_Put between MPI_Win_fence calls, not periodic) as a test program, for
 * prognoz scale (tests/integration/scale_rma.sh). */
#include "../../share/validation/rmahalo.c"
