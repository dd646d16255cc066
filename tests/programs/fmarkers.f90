! Interval markers in Fortran (tests/integration/fortran_markers.sh): a program using
! 'use mpi' includes prognoz.fh and marks interval 1 around a loop of 3 steps, each of
! them interval 2 around an MPI_Allreduce, then interval 3 around an MPI_Barrier and
! sequential interval 4 around the work each rank repeats; linked with
! libprognoz-markers.  Each prognoz_begin's line carries a comment "@NAME" by which
! the test finds the line.  Rank 0 prints the sum of the allreduces.
program fmarkers
    use mpi
    implicit none
    include 'prognoz.fh'
    integer :: rank, nprocs, ierr, i, s, total

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
    total = 0
    call prognoz_begin(1) ! @outer
    do i = 1, 3
        call prognoz_begin(2) ! @step
        call MPI_Allreduce(i * (rank + 1), s, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
        total = total + s
        call prognoz_end(2)
    end do
    call prognoz_end(1)
    call prognoz_begin(3) ! @barrier
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    call prognoz_end(3)
    call prognoz_begin_seq(4) ! @seq
    s = nprocs * nprocs
    call prognoz_end(4)
    if (rank == 0) print '(a, i0, a, i0)', 'fmarkers: ', nprocs, ' ranks, total ', total
    call MPI_Finalize(ierr)
end program fmarkers
