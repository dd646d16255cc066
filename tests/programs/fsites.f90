! Call sites of MPI calls made through each Fortran binding (integration/callsites.sh,
! on 2 processes): this file through 'use mpi_f08', fsites_f77.f90 through mpif.h and
! fsites_mpi.f90 through 'use mpi'.  Each call the test checks carries a comment
! "@NAME" by which the test finds its line.  Rank 0 prints the sums.
program fsites
    use mpi_f08
    implicit none
    integer :: rank, ierr, total

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr) ! @f08_rank
    call MPI_Barrier(MPI_COMM_WORLD, ierr) ! @f08_barrier
    call MPI_Allreduce(rank + 1, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr) ! @f08_allreduce
    call fsites_f77(rank)
    call fsites_mpi(rank)
    if (rank == 0) print '(a, i0)', 'fsites: ', total
    call MPI_Finalize(ierr)
end program fsites
