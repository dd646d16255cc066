/* The scaling validation's SUMMA-like product (share/validation/summa.c: the rows and
 * columns of MPI_Dims_create's 2-D grid made by MPI_Comm_split, a block broadcast along
 * each from the member the step gives) as a test program, for prognoz scale
 * (tests/integration/scale_summa.sh). */
#include "../../share/validation/summa.c"
