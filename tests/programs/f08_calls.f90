! The calls of a 'use mpi_f08' program that MPICH routes past the C MPI_ symbols
! (initialisation, communicator queries, barrier, wait family, communicator
! constructors) mixed with calls whose choice buffers do reach the C symbols (Isend,
! Irecv, Allreduce).  Run on 2 processes; rank 0 prints one line when every check
! passed, any failure stops the program with a nonzero status.
program f08_calls
    use mpi_f08
    implicit none

    integer :: rank, nprocs, peer, ierr, n, i, total, subsize
    integer :: sbuf(4), rbuf(4), a(2), b(2)
    type(MPI_Request) :: req(2)
    type(MPI_Status) :: st, sts(2)
    type(MPI_Comm) :: sub

    rank = -1
    call MPI_Init(ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_Init ierror')
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
    call check(ierr == MPI_SUCCESS .and. nprocs == 2, 'run on 2 processes')
    peer = 1 - rank
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_Barrier ierror')

    ! Isend and Irecv completed by Wait, with a status and with MPI_STATUS_IGNORE
    sbuf = [(100 * rank + i, i = 1, 4)]
    rbuf = -1
    call MPI_Irecv(rbuf, 4, MPI_INTEGER, peer, 11, MPI_COMM_WORLD, req(1))
    call MPI_Isend(sbuf, 4, MPI_INTEGER, peer, 11, MPI_COMM_WORLD, req(2))
    call MPI_Wait(req(1), st)
    call MPI_Wait(req(2), MPI_STATUS_IGNORE, ierr)
    call check(st%MPI_SOURCE == peer .and. st%MPI_TAG == 11, 'Wait status')
    call check(all(rbuf == [(100 * peer + i, i = 1, 4)]), 'Wait data')
    call check(req(1) == MPI_REQUEST_NULL .and. req(2) == MPI_REQUEST_NULL, 'Wait requests')
    call MPI_Get_count(st, MPI_INTEGER, n)
    call check(n == 4, 'Get_count')

    ! Waitall with an array of statuses
    a = -1
    call MPI_Irecv(a, 2, MPI_INTEGER, peer, 12, MPI_COMM_WORLD, req(1))
    call MPI_Isend(sbuf, 2, MPI_INTEGER, peer, 12, MPI_COMM_WORLD, req(2))
    call MPI_Waitall(2, req, sts)
    call check(sts(1)%MPI_SOURCE == peer .and. sts(1)%MPI_TAG == 12, 'Waitall statuses')
    call check(all(a == [100 * peer + 1, 100 * peer + 2]), 'Waitall data')
    call check(all(req == MPI_REQUEST_NULL), 'Waitall requests')

    ! Waitall with MPI_STATUSES_IGNORE
    b = -1
    call MPI_Isend(sbuf(3:4), 2, MPI_INTEGER, peer, 13, MPI_COMM_WORLD, req(1))
    call MPI_Irecv(b, 2, MPI_INTEGER, peer, 13, MPI_COMM_WORLD, req(2))
    call MPI_Waitall(2, req, MPI_STATUSES_IGNORE, ierr)
    call check(ierr == MPI_SUCCESS, 'Waitall ierror')
    call check(all(b == [100 * peer + 3, 100 * peer + 4]), 'Waitall data (statuses ignored)')
    call check(all(req == MPI_REQUEST_NULL), 'Waitall requests (statuses ignored)')

    call MPI_Allreduce(rank + 1, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    call check(total == 3, 'Allreduce')

    ! every process alone in its own communicator
    call MPI_Comm_split(MPI_COMM_WORLD, rank, 0, sub)
    call MPI_Comm_size(sub, subsize)
    call check(subsize == 1, 'Comm_split')
    call MPI_Comm_free(sub, ierr)
    call check(ierr == MPI_SUCCESS .and. sub == MPI_COMM_NULL, 'Comm_free')

    if (rank == 0) print '(a)', 'f08_calls: ok'
    call MPI_Finalize()

contains

    subroutine check(ok, what)
        logical, intent(in) :: ok
        character(*), intent(in) :: what

        if (.not. ok) then
            write (0, '(a, i0, 2a)') 'f08_calls: rank ', rank, ': failed: ', what
            error stop 1
        end if
    end subroutine check
end program f08_calls
