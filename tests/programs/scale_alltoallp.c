/* The scaling validation's all-to-all written by hand (share/validation/alltoallp.c: a
 * transpose whose blocks go to every other rank in turn, (rank + i) mod P at step i, by
 * MPI_Sendrecv) as a test program, for prognoz scale (tests/integration/scale_allpairs.sh). */
#include "../../share/validation/alltoallp.c"
