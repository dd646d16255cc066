! The mpif.h part of fsites.f90: a message from rank 0 to 1 and a broadcast.
subroutine fsites_f77(rank)
    implicit none
    include 'mpif.h'
    integer, intent(in) :: rank
    integer :: ierr, value

    value = 7
    if (rank == 0) then
        call MPI_Send(value, 1, MPI_INTEGER, 1, 3, MPI_COMM_WORLD, ierr) ! @f77_send
    else
        call MPI_Recv(value, 1, MPI_INTEGER, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr) ! @f77_recv
    end if
    call MPI_Bcast(value, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr) ! @f77_bcast
end subroutine fsites_f77
