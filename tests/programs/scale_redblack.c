/* The scaling validation's halo exchange ordered by parity (share/validation/redblack.c:
 * a 1-D periodic halo by blocking MPI_Send and MPI_Recv, the even ranks sending first,
 * the odd ones receiving first) as a test program, for prognoz scale
 * (tests/integration/scale_redblack.sh). */
#include "../../share/validation/redblack.c"
