! MPI-4's large-count forms through use mpi_f08 (integration/fortran_large.sh, 2 ranks):
! MPICH picks the large-count routine (mpi_<name>_f08_large_, mpi_<name>_f08ts_large_)
! when a count or displacement unit is of kind MPI_COUNT_KIND or MPI_ADDRESS_KIND.
program flarge_f08
  use mpi_f08
  use, intrinsic :: iso_c_binding
  implicit none
  type(MPI_Win) :: win
  type(c_ptr) :: base
  type(MPI_Status) :: st
  integer(kind=MPI_ADDRESS_KIND) :: size, disp_unit
  integer(kind=MPI_COUNT_KIND) :: n
  integer :: rank, buf(4)

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  size = 64
  disp_unit = 4
  call MPI_Win_allocate(size, disp_unit, MPI_INFO_NULL, MPI_COMM_WORLD, base, win)
  call MPI_Win_free(win)
  buf = 7
  n = 3
  if (rank == 0) then
     call MPI_Send(buf, 3_MPI_COUNT_KIND, MPI_INTEGER, 1, 5, MPI_COMM_WORLD)
  else
     call MPI_Recv(buf, 4_MPI_COUNT_KIND, MPI_INTEGER, 0, 5, MPI_COMM_WORLD, st)
     call MPI_Get_count(st, MPI_INTEGER, n)
  end if
  if (rank == 1) print '(a, i0)', 'flarge: ', n
  call MPI_Finalize()
end program flarge_f08
