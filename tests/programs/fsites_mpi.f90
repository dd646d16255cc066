! The 'use mpi' part of fsites.f90: an allreduce and a barrier.
subroutine fsites_mpi(rank)
    use mpi
    implicit none
    integer, intent(in) :: rank
    integer :: ierr, total

    call MPI_Allreduce(rank, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr) ! @mpi_allreduce
    call MPI_Barrier(MPI_COMM_WORLD, ierr) ! @mpi_barrier
    if (rank == 0) print '(a, i0)', 'fsites_mpi: ', total
end subroutine fsites_mpi
