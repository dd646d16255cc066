! A Fortran MPI program using the 'use mpi' module (tests/integration/fortran.sh): on
! 2 ranks, a send and a wildcard receive, a broadcast, an allreduce, an Irecv/Isend
! pair completed by Waitall, a barrier.  Rank 0 prints the allreduce's result.
program fhello
    use mpi
    implicit none
    integer :: rank, nprocs, peer, ierr, total, i
    integer :: ibuf(3), req(2), sts(MPI_STATUS_SIZE, 2), st(MPI_STATUS_SIZE)
    double precision :: d(2)

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
    if (nprocs /= 2) then
        write (0, '(a)') 'fhello: run me on 2 ranks'
        call MPI_Abort(MPI_COMM_WORLD, 2, ierr)
    end if
    peer = 1 - rank
    ibuf = [(i, i = 1, 3)]
    d = 0
    if (rank == 0) then
        call MPI_Send(ibuf, 3, MPI_INTEGER, 1, 5, MPI_COMM_WORLD, ierr)
    else
        call MPI_Recv(ibuf, 3, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, st, ierr)
    end if
    call MPI_Bcast(d, 2, MPI_DOUBLE_PRECISION, 1, MPI_COMM_WORLD, ierr)
    call MPI_Allreduce(rank + 1, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    call MPI_Irecv(ibuf, 2, MPI_INTEGER, peer, 6, MPI_COMM_WORLD, req(1), ierr)
    call MPI_Isend(ibuf(3), 1, MPI_INTEGER, peer, 6, MPI_COMM_WORLD, req(2), ierr)
    call MPI_Waitall(2, req, sts, ierr)
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    if (rank == 0) print '(a, i0)', 'fhello: total ', total
    call MPI_Finalize(ierr)
end program fhello
