! The Alltoallw family from Fortran (tests/integration/fortran_alltoallw.sh), on 2 ranks:
! their arrays of datatypes are as long as the communicator, or as its topology's
! neighbourhood, a length the recorder finds at run time.  With 'use mpi': MPI_Alltoallw
! sending 1 INTEGER to rank 0 and 2 DOUBLE PRECISION to rank 1, the same in place with
! invalid send arguments (3 INTEGERs each way, 1 kept), MPI_Neighbor_alltoallw on a 1-D
! periodic Cartesian communicator of 2 (both neighbours are the other rank: 2 INTEGERs
! to each, received as an MPI_2INTEGER); with 'use mpi_f08',
! nonblocking: MPI_Ialltoallw and MPI_Ineighbor_alltoallw, each as the blocking one, then
! MPI_Wait.  Each checks what it received; rank 0 prints 'falltoallw: ok'.
program falltoallw
    use mpi
    implicit none
    integer :: rank, nprocs, cart, ierr

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
    if (nprocs /= 2) then
        write (0, '(a)') 'falltoallw: run me on 2 ranks'
        call MPI_Abort(MPI_COMM_WORLD, 2, ierr)
    end if
    call alltoallw(rank)
    call alltoallw_in_place(rank)
    call MPI_Cart_create(MPI_COMM_WORLD, 1, [2], [.true.], .false., cart, ierr)
    call neighbor_alltoallw(rank, cart)
    call nonblocking(rank, cart)
    call MPI_Comm_free(cart, ierr)
    if (rank == 0) print '(a)', 'falltoallw: ok'
    call MPI_Finalize(ierr)
end program falltoallw

subroutine check(ok, what)
    use mpi
    implicit none
    logical, intent(in) :: ok
    character(*), intent(in) :: what
    integer :: ierr

    if (.not. ok) then
        write (0, '(2a)') 'falltoallw: wrong data received by ', what
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end if
end subroutine check

! Rank r sends 100 + r as an INTEGER to rank 0 (byte 0), r + 0.5 and r + 1.5 as DOUBLE
! PRECISION to rank 1 (byte 8); rank 0 receives an INTEGER from each (bytes 0, 4), rank 1
! 2 DOUBLE PRECISION from each (bytes 0, 16).
subroutine alltoallw_buffers(rank, sbuf, scounts, sdispls, stypes, rcounts, rdispls, rtypes)
    use mpi
    implicit none
    integer, intent(in) :: rank
    integer, intent(out) :: sbuf(6), scounts(2), sdispls(2), stypes(2)
    integer, intent(out) :: rcounts(2), rdispls(2), rtypes(2)

    sbuf = 0
    sbuf(1) = 100 + rank
    sbuf(3:6) = transfer([rank + 0.5d0, rank + 1.5d0], sbuf(3:6))
    scounts = [1, 2]
    sdispls = [0, 8]
    stypes = [MPI_INTEGER, MPI_DOUBLE_PRECISION]
    rcounts = scounts(rank + 1)
    rtypes = stypes(rank + 1)
    rdispls = [0, merge(4, 16, rank == 0)]
end subroutine alltoallw_buffers

subroutine check_alltoallw(rank, rbuf, what)
    implicit none
    integer, intent(in) :: rank, rbuf(8)
    character(*), intent(in) :: what
    double precision :: d(4)

    if (rank == 0) then
        call check(rbuf(1) == 100 .and. rbuf(2) == 101, what)
    else
        d = transfer(rbuf, d)
        call check(all(d == [0.5d0, 1.5d0, 1.5d0, 2.5d0]), what)
    end if
end subroutine check_alltoallw

subroutine alltoallw(rank)
    use mpi
    implicit none
    integer, intent(in) :: rank
    integer :: sbuf(6), rbuf(8), scounts(2), sdispls(2), stypes(2)
    integer :: rcounts(2), rdispls(2), rtypes(2), ierr

    call alltoallw_buffers(rank, sbuf, scounts, sdispls, stypes, rcounts, rdispls, rtypes)
    rbuf = 0
    call MPI_Alltoallw(sbuf(1), scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, &
                       MPI_COMM_WORLD, ierr)
    call check_alltoallw(rank, rbuf, 'MPI_Alltoallw')
end subroutine alltoallw

! Block j of rank k (bytes 0 and 16; 1 INTEGER for itself, 3 for the other rank) holds
! 1000 k + 100 j + i, then 1000 j + 100 k + i.
subroutine alltoallw_in_place(rank)
    use mpi
    implicit none
    integer, intent(in) :: rank
    integer :: buf(8), counts(2), displs(2), types(2), invalid(2), i, j, ierr

    counts = 3
    counts(rank + 1) = 1
    displs = [0, 16]
    types = MPI_INTEGER
    invalid = -1
    buf = 0
    do j = 0, 1
        do i = 1, counts(j + 1)
            buf(displs(j + 1) / 4 + i) = 1000 * rank + 100 * j + i
        end do
    end do
    call MPI_Alltoallw(MPI_IN_PLACE, invalid, invalid, invalid, buf, counts, displs, types, &
                       MPI_COMM_WORLD, ierr)
    do j = 0, 1
        do i = 1, counts(j + 1)
            call check(buf(displs(j + 1) / 4 + i) == 1000 * j + 100 * rank + i, &
                       'MPI_Alltoallw in place')
        end do
    end do
end subroutine alltoallw_in_place

! 2 INTEGERs 10 r + 1, 10 r + 2 to the negative neighbour (byte 0), 10 r + 3, 10 r + 4 to
! the positive one (byte 8); an MPI_2INTEGER from each (bytes 0, 12).  Both neighbours
! are the other rank, so which block arrives where is MPI's choice: the blocks are alike.
subroutine neighbor_buffers(rank, sbuf, scounts, sdispls, stypes, rcounts, rdispls, rtypes)
    use mpi
    implicit none
    integer, intent(in) :: rank
    integer, intent(out) :: sbuf(4), scounts(2), stypes(2), rcounts(2), rtypes(2)
    integer(kind=MPI_ADDRESS_KIND), intent(out) :: sdispls(2), rdispls(2)

    sbuf = 10 * rank + [1, 2, 3, 4]
    scounts = 2
    sdispls = [0, 8]
    stypes = MPI_INTEGER
    rcounts = 1
    rdispls = [0, 12]
    rtypes = MPI_2INTEGER
end subroutine neighbor_buffers

subroutine check_neighbor(rank, rbuf, what)
    implicit none
    integer, intent(in) :: rank, rbuf(5)
    character(*), intent(in) :: what
    integer :: p

    p = 10 * (1 - rank)
    call check(rbuf(3) == 0 .and. (all(rbuf([1, 2, 4, 5]) == p + [1, 2, 3, 4]) .or. &
                                   all(rbuf([1, 2, 4, 5]) == p + [3, 4, 1, 2])), what)
end subroutine check_neighbor

subroutine neighbor_alltoallw(rank, cart)
    use mpi
    implicit none
    integer, intent(in) :: rank, cart
    integer :: sbuf(4), rbuf(5), scounts(2), stypes(2), rcounts(2), rtypes(2), ierr
    integer(kind=MPI_ADDRESS_KIND) :: sdispls(2), rdispls(2)

    call neighbor_buffers(rank, sbuf, scounts, sdispls, stypes, rcounts, rdispls, rtypes)
    rbuf = 0
    call MPI_Neighbor_alltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, &
                                rtypes, cart, ierr)
    call check_neighbor(rank, rbuf, 'MPI_Neighbor_alltoallw')
end subroutine neighbor_alltoallw

subroutine nonblocking(rank, cart_handle)
    use mpi_f08
    implicit none
    integer, intent(in) :: rank, cart_handle
    integer :: sbuf(6), rbuf(8), scounts(2), sdispls(2), rcounts(2), rdispls(2)
    integer :: stypes(2), rtypes(2), nsbuf(4), nrbuf(5)
    integer(kind=MPI_ADDRESS_KIND) :: nsdispls(2), nrdispls(2)
    type(MPI_Datatype) :: st(2), rt(2)
    type(MPI_Comm) :: cart
    type(MPI_Request) :: req

    call alltoallw_buffers(rank, sbuf, scounts, sdispls, stypes, rcounts, rdispls, rtypes)
    st%MPI_VAL = stypes
    rt%MPI_VAL = rtypes
    rbuf = 0
    call MPI_Ialltoallw(sbuf, scounts, sdispls, st, rbuf, rcounts, rdispls, rt, &
                        MPI_COMM_WORLD, req)
    call MPI_Wait(req, MPI_STATUS_IGNORE)
    call check_alltoallw(rank, rbuf, 'MPI_Ialltoallw')

    cart%MPI_VAL = cart_handle
    call neighbor_buffers(rank, nsbuf, scounts, nsdispls, stypes, rcounts, nrdispls, rtypes)
    st%MPI_VAL = stypes
    rt%MPI_VAL = rtypes
    nrbuf = 0
    call MPI_Ineighbor_alltoallw(nsbuf, scounts, nsdispls, st, nrbuf, rcounts, nrdispls, rt, &
                                 cart, req)
    call MPI_Wait(req, MPI_STATUS_IGNORE)
    call check_neighbor(rank, nrbuf, 'MPI_Ineighbor_alltoallw')
end subroutine nonblocking
