! MPI-4 and one-sided calls through 'use mpi_f08' (integration/fortran_new.sh, on 2
! processes): a persistent Allreduce started twice, a window allocated, fenced and
! freed, and the file named by the first argument opened, viewed from the rank's 8 bytes,
! written collectively, closed and deleted.  Rank 0 prints the sum.
program fnew_f08
    use mpi_f08
    use, intrinsic :: iso_c_binding, only: c_ptr
    implicit none
    integer :: rank, ierr, i, a(2), b(2)
    integer(kind=MPI_ADDRESS_KIND) :: bytes
    integer(kind=MPI_OFFSET_KIND) :: disp
    character(len=256) :: name
    type(MPI_File) :: fh
    type(MPI_Request) :: req
    type(MPI_Win) :: win
    type(c_ptr) :: base

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    a = rank + 1
    call MPI_Allreduce_init(a, b, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &
                            req, ierr)
    do i = 1, 2
        call MPI_Start(req, ierr)
        call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
    end do
    call MPI_Request_free(req, ierr)
    bytes = 8
    call MPI_Win_allocate(bytes, 4, MPI_INFO_NULL, MPI_COMM_WORLD, base, win, ierr)
    call MPI_Win_fence(0, win, ierr)
    call MPI_Win_free(win, ierr)
    call get_command_argument(1, name)
    call MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE + MPI_MODE_WRONLY, &
                       MPI_INFO_NULL, fh, ierr)
    disp = 8 * rank
    call MPI_File_set_view(fh, disp, MPI_INTEGER, MPI_INTEGER, 'native', MPI_INFO_NULL, ierr)
    call MPI_File_write_all(fh, a, 2, MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
    call MPI_File_close(fh, ierr)
    if (rank == 0) call MPI_File_delete(name, MPI_INFO_NULL, ierr)
    if (rank == 0) print '(a, i0)', 'fnew: ', b(1)
    call MPI_Finalize(ierr)
end program fnew_f08
