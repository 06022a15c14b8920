! Info objects from Fortran (MPI 4.1 §10): CHARACTER keys and values with hidden lengths,
! trailing blanks trimmed on input and outputs blank-padded, and MPI_COMM_DUP_WITH_INFO taking a
! created info. Built with `use mpi` and, with -DUSE_MPIF_H, with include 'mpif.h'.
program info
#ifdef USE_MPIF_H
  implicit none
  include 'mpif.h'
#else
  use mpi
  implicit none
#endif
  integer :: ierr, nfail, inf, dup, nkeys, vlen, comm
  character(len=MPI_MAX_INFO_VAL) :: value
  character(len=MPI_MAX_INFO_KEY) :: key
  character(len=4) :: short
  logical :: flag

  nfail = 0
  call MPI_INIT(ierr)
  ! Errors tied to no communicator go to MPI_COMM_SELF's handler (MPI 4.1 §9.3); older
  ! implementations use MPI_COMM_WORLD's: set both, so the program is portable.
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)

  call MPI_INFO_CREATE(inf, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI 4.1 §10.3: MPI_INFO_CREATE')
  call MPI_INFO_SET(inf, 'striping_factor  ', '4   ', ierr)
  call check(ierr == MPI_SUCCESS, 'MPI 4.1 §10.3: MPI_INFO_SET')
  call MPI_INFO_SET(inf, 'cb_nodes', '1', ierr)
  call MPI_INFO_GET_NKEYS(inf, nkeys, ierr)
  call check(nkeys == 2, 'MPI 4.1 §10.3: two keys')
  call MPI_INFO_GET_NTHKEY(inf, 0, key, ierr)
  call check(key == 'striping_factor', 'MPI 4.1 §10.3: trailing blanks of the key were trimmed')
  call MPI_INFO_GET_VALUELEN(inf, 'striping_factor', vlen, flag, ierr)
  call check(flag .and. vlen == 1, 'MPI 4.1 §10.3: trailing blanks of the value were trimmed')
  call MPI_INFO_GET(inf, 'cb_nodes', MPI_MAX_INFO_VAL, value, flag, ierr)
  call check(flag .and. value == '1', 'MPI 4.1 §10.3: MPI_INFO_GET, blank-padded')
  call MPI_INFO_SET(inf, 'cb_nodes', '123456', ierr)
  call MPI_INFO_GET(inf, 'cb_nodes', 3, short, flag, ierr)
  call check(flag .and. short == '123', 'MPI 4.1 §10.3: at most VALUELEN characters')
  call MPI_INFO_GET(inf, 'absent', MPI_MAX_INFO_VAL, value, flag, ierr)
  call check(.not. flag, 'MPI 4.1 §10.3: a missing key gives FLAG = .FALSE.')
  call MPI_INFO_DUP(inf, dup, ierr)
  call MPI_INFO_DELETE(inf, 'cb_nodes', ierr)
  call check(ierr == MPI_SUCCESS, 'MPI 4.1 §10.3: MPI_INFO_DELETE')
  call MPI_INFO_DELETE(inf, 'cb_nodes', ierr)
  call check(ierr == MPI_ERR_INFO_NOKEY, 'MPI 4.1 §10.3: deleting a missing key is MPI_ERR_INFO_NOKEY')
  call MPI_INFO_GET_NKEYS(dup, nkeys, ierr)
  call check(nkeys == 2, 'MPI 4.1 §10.3: the dup keeps its keys')

  call MPI_COMM_DUP_WITH_INFO(MPI_COMM_WORLD, inf, comm, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI 4.1 §7.4.2: MPI_COMM_DUP_WITH_INFO with a created info')
  call MPI_COMM_FREE(comm, ierr)

  call MPI_INFO_FREE(inf, ierr)
  call check(ierr == MPI_SUCCESS .and. inf == MPI_INFO_NULL, 'MPI 4.1 §10.3: MPI_INFO_FREE sets MPI_INFO_NULL')
  call MPI_INFO_FREE(dup, ierr)
  call MPI_FINALIZE(ierr)
  print '(A, I0, A)', 'info: ', nfail, ' failure(s)'
  if (nfail /= 0) stop 1
contains
  subroutine check(ok, rule)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: rule
    if (.not. ok) then
      print '(A, A)', 'FAIL: ', rule
      nfail = nfail + 1
    end if
  end subroutine check
end program info
