! A Fortran MPI program using the 'use mpi_f08' module (tests/integration/fortran_f08.sh):
! on 2 ranks, a send and a wildcard receive ignoring the status, a broadcast, an
! allreduce, Irecv/Isend pairs completed by Waitall (statuses ignored) and by Wait, a
! nonblocking barrier, a Comm_split whose communicator carries a barrier, Comm_free.
! MPICH's f08 bindings call PMPI_ directly for the routines without a choice buffer
! (Init, Comm_rank, Barrier, Wait...), so those are seen only if the recorder wraps the
! f08 entry points too.  Rank 0 prints the allreduce's result.
program ff08
    use mpi_f08
    implicit none
    integer :: rank, nprocs, peer, total, i
    integer :: ibuf(3)
    type(MPI_Request) :: req(2)
    type(MPI_Comm) :: sub
    double precision :: d(2)

    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
    if (nprocs /= 2) then
        write (0, '(a)') 'ff08: run me on 2 ranks'
        call MPI_Abort(MPI_COMM_WORLD, 2)
    end if
    peer = 1 - rank
    ibuf = [(i, i = 1, 3)]
    d = 0
    if (rank == 0) then
        call MPI_Send(ibuf, 3, MPI_INTEGER, 1, 5, MPI_COMM_WORLD)
    else
        call MPI_Recv(ibuf, 3, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &
                      MPI_STATUS_IGNORE)
    end if
    call MPI_Bcast(d, 2, MPI_DOUBLE_PRECISION, 1, MPI_COMM_WORLD)
    call MPI_Allreduce(rank + 1, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    call MPI_Irecv(ibuf, 2, MPI_INTEGER, peer, 6, MPI_COMM_WORLD, req(1))
    call MPI_Isend(ibuf(3), 1, MPI_INTEGER, peer, 6, MPI_COMM_WORLD, req(2))
    call MPI_Waitall(2, req, MPI_STATUSES_IGNORE)
    call MPI_Irecv(ibuf, 2, MPI_INTEGER, peer, 7, MPI_COMM_WORLD, req(1))
    call MPI_Isend(ibuf(3), 1, MPI_INTEGER, peer, 7, MPI_COMM_WORLD, req(2))
    call MPI_Wait(req(1), MPI_STATUS_IGNORE)
    call MPI_Wait(req(2), MPI_STATUS_IGNORE)
    call MPI_Ibarrier(MPI_COMM_WORLD, req(1))
    call MPI_Wait(req(1), MPI_STATUS_IGNORE)
    call MPI_Comm_split(MPI_COMM_WORLD, 0, -rank, sub)
    call MPI_Barrier(sub)
    call MPI_Comm_free(sub)
    if (rank == 0) print '(a, i0)', 'ff08: total ', total
    call MPI_Finalize()
end program ff08
