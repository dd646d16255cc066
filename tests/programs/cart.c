/* Cartesian topologies on 4 ranks (tests/integration/cart.sh).  MPI_Cart_create lays the
 * world out as a 2x2 grid, periodic along dimension 0 only, without reordering: rank r
 * is at (r / 2, r % 2).  MPI_Cart_sub keeps dimension 1, making the rows {0, 1} and
 * {2, 3}, a 1-D grid of 2 in each.  A 1-D grid of 3 leaves world rank 3 out
 * (MPI_COMM_NULL), and MPI_Cart_sub keeping no dimension makes a grid of none, which
 * has no topology to record (MPICH gives it to rank 0 alone, MPI_COMM_NULL to the
 * others).  Each grid is used by a collective. */
#include <mpi.h>
#include <stdio.h>

static void check(int ok, const char *what, int rank)
{
    if (!ok) {
        fprintf(stderr, "cart: world rank %d: %s\n", rank, what);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
}

int main(int argc, char **argv)
{
    int rank, size, sub_rank, sum, coords[2];
    int dims[2] = { 2, 2 }, periods[2] = { 1, 0 }, keep_row[2] = { 0, 1 };
    int keep_none[2] = { 0, 0 }, line = 3, line_period = 0;
    MPI_Comm grid, row, trio, point;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check(size == 4, "run me on 4 ranks", rank);

    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
    MPI_Cart_coords(grid, rank, 2, coords);
    check(coords[0] == rank / 2 && coords[1] == rank % 2, "unexpected coordinates", rank);
    MPI_Cart_sub(grid, keep_row, &row);
    MPI_Comm_rank(row, &sub_rank);
    check(sub_rank == rank % 2, "unexpected rank in its row", rank);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, row);
    check(sum == 4 * (rank / 2) + 1, "unexpected sum over its row", rank);

    MPI_Cart_create(MPI_COMM_WORLD, 1, &line, &line_period, 0, &trio);
    check((trio == MPI_COMM_NULL) == (rank == 3), "unexpected line of 3", rank);
    if (trio != MPI_COMM_NULL) {
        MPI_Barrier(trio);
        MPI_Comm_free(&trio);
    }

    MPI_Cart_sub(grid, keep_none, &point);
    if (point != MPI_COMM_NULL) {
        MPI_Barrier(point);
        MPI_Comm_free(&point);
    }

    MPI_Comm_free(&row);
    MPI_Comm_free(&grid);
    MPI_Finalize();
    return 0;
}
