! Predefined attributes read from Fortran with both generations (MPI 4.1 §7.7.3, §20.3.7:
! integer-valued predefined attributes behave as if put by MPI_ATTR_PUT, so MPI_TAG_UB gives
! the tag bound, not an address) on MPI_COMM_WORLD, MPI_COMM_SELF, a dup and a split; and
! errors in IERROR with the classes C gets (docs/DESIGN.md "Errors and bad input").
program predefined_errors
#ifdef USE_MPIF_H
  implicit none
  include 'mpif.h'
#else
  use mpi
  implicit none
#endif
  integer :: ierr, nfail, comms(4), i, ival, k, cls, dupc, splitc
  integer(kind=MPI_ADDRESS_KIND) :: aval, es
  logical :: flag
  character(len=MPI_MAX_OBJECT_NAME) :: name
  integer :: rlen

  nfail = 0
  call MPI_INIT(ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_DUP(MPI_COMM_WORLD, dupc, ierr)
  call MPI_COMM_SPLIT(MPI_COMM_WORLD, 0, 0, splitc, ierr)
  comms = (/ MPI_COMM_WORLD, MPI_COMM_SELF, dupc, splitc /)
  do i = 1, 4
    aval = -1
    call MPI_COMM_GET_ATTR(comms(i), MPI_TAG_UB, aval, flag, ierr)
    call check(ierr == MPI_SUCCESS .and. flag .and. aval >= 32767 .and. aval == 2147483647_MPI_ADDRESS_KIND, &
               'MPI_COMM_GET_ATTR(MPI_TAG_UB) is the tag bound on every communicator', nfail)
    ival = -1
    call MPI_ATTR_GET(comms(i), MPI_TAG_UB, ival, flag, ierr)
    call check(ierr == MPI_SUCCESS .and. flag .and. ival == 2147483647, &
               'MPI_ATTR_GET(MPI_TAG_UB) is the tag bound on every communicator', nfail)
  end do
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, aval, flag, ierr)
  call check(ierr == MPI_SUCCESS .and. (.not. flag .or. aval == 0 .or. aval == 1), &
             'MPI_WTIME_IS_GLOBAL is a logical value if set', nfail)

  ! Predefined keyvals cannot be set, deleted or freed by users: MPI_ERR_KEYVAL (docs/DESIGN.md).
  aval = 5
  call MPI_COMM_SET_ATTR(MPI_COMM_WORLD, MPI_TAG_UB, aval, ierr)
  call check(ierr == MPI_ERR_KEYVAL, 'setting MPI_TAG_UB is MPI_ERR_KEYVAL', nfail)
  call MPI_ATTR_PUT(MPI_COMM_WORLD, MPI_TAG_UB, 5, ierr)
  call check(ierr == MPI_ERR_KEYVAL, 'MPI_ATTR_PUT on MPI_TAG_UB is MPI_ERR_KEYVAL', nfail)
  call MPI_COMM_DELETE_ATTR(MPI_COMM_WORLD, MPI_TAG_UB, ierr)
  call check(ierr == MPI_ERR_KEYVAL, 'deleting MPI_TAG_UB is MPI_ERR_KEYVAL', nfail)
  k = MPI_TAG_UB
  call MPI_COMM_FREE_KEYVAL(k, ierr)
  call check(ierr == MPI_ERR_KEYVAL .and. k == MPI_TAG_UB, 'freeing MPI_TAG_UB is MPI_ERR_KEYVAL', nfail)

  ! MPI 4.1 §7.7.2: MPI_KEYVAL_INVALID, unknown and freed keyvals are MPI_ERR_KEYVAL.
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, aval, flag, ierr)
  call check(ierr == MPI_ERR_KEYVAL, 'MPI_KEYVAL_INVALID is MPI_ERR_KEYVAL', nfail)
  es = 0
  call MPI_TYPE_CREATE_KEYVAL(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, k, es, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_TYPE_CREATE_KEYVAL', nfail)
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, k, aval, flag, ierr)
  call check(ierr == MPI_ERR_KEYVAL, 'a datatype keyval on a communicator is MPI_ERR_KEYVAL', nfail)
  call MPI_TYPE_FREE_KEYVAL(k, ierr)
  call check(ierr == MPI_SUCCESS .and. k == MPI_KEYVAL_INVALID, 'MPI_TYPE_FREE_KEYVAL', nfail)
  ! Error class of the code, as C gets it.
  call MPI_COMM_GET_ATTR(MPI_COMM_NULL, MPI_TAG_UB, aval, flag, ierr)
  call check(ierr /= MPI_SUCCESS, 'MPI_COMM_NULL is an error', nfail)
  call MPI_ERROR_CLASS(ierr, cls, i)
  call check(cls == MPI_ERR_COMM, 'MPI_COMM_NULL gives class MPI_ERR_COMM', nfail)
  call MPI_COMM_FREE(k, ierr)
  call check(ierr == MPI_ERR_COMM, 'freeing a non-communicator handle is MPI_ERR_COMM', nfail)

  ! Names: trailing blanks of a Fortran CHARACTER are not significant; the output is blank padded.
  call MPI_COMM_SET_NAME(dupc, 'my dup   ', ierr)
  name = 'xxxxxxxx'
  call MPI_COMM_GET_NAME(dupc, name, rlen, ierr)
  call check(ierr == MPI_SUCCESS .and. rlen == 6 .and. name == 'my dup', &
             'MPI_COMM_GET_NAME returns the name, blank padded, resultlen 6', nfail)

  call MPI_COMM_FREE(dupc, ierr)
  call MPI_COMM_FREE(splitc, ierr)
  call MPI_FINALIZE(ierr)
  print '(A,I0,A)', 'predefined_errors: ', nfail, ' failure(s)'
  if (nfail > 0) stop 1
contains
  include 'check.inc'
end program predefined_errors
