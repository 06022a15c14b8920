! Generalized requests from Fortran (MPI 4.1 §13.2, the Fortran bindings of §19.3.8's
! callback conventions): QUERY_FN(EXTRA_STATE, STATUS, IERROR) with STATUS an INTEGER array,
! FREE_FN(EXTRA_STATE, IERROR), CANCEL_FN(EXTRA_STATE, COMPLETE, IERROR) with LOGICAL COMPLETE,
! EXTRA_STATE INTEGER(KIND=MPI_ADDRESS_KIND) by reference; the codes they return in IERROR are
! the waits' errors. Also MPI_STATUS_F082F / MPI_STATUS_F2F08 (§19.3.5). Built with `use mpi`
! and, with -DUSE_MPIF_H, with include 'mpif.h'.
module greq_state
  implicit none
  integer :: nquery = 0, nfree = 0, ncancel = 0, query_err = 0
  integer(kind=8) :: seen_extra = -1
  logical :: seen_complete = .true.
end module greq_state

subroutine query_fn(extra_state, status, ierror)
  use greq_state
#ifdef USE_MPIF_H
  implicit none
  include 'mpif.h'
#else
  use mpi
  implicit none
#endif
  integer(kind=MPI_ADDRESS_KIND) :: extra_state
  integer :: status(MPI_STATUS_SIZE), ierror
  nquery = nquery + 1
  seen_extra = extra_state
  call MPI_STATUS_SET_ELEMENTS(status, MPI_INTEGER, 3, ierror)
  status(MPI_SOURCE) = 0
  status(MPI_TAG) = 17
  ierror = query_err
end subroutine query_fn

subroutine free_fn(extra_state, ierror)
  use greq_state
#ifdef USE_MPIF_H
  implicit none
  include 'mpif.h'
#else
  use mpi
  implicit none
#endif
  integer(kind=MPI_ADDRESS_KIND) :: extra_state
  integer :: ierror
  nfree = nfree + 1
  seen_extra = extra_state
  ierror = MPI_SUCCESS
end subroutine free_fn

subroutine cancel_fn(extra_state, complete, ierror)
  use greq_state
#ifdef USE_MPIF_H
  implicit none
  include 'mpif.h'
#else
  use mpi
  implicit none
#endif
  integer(kind=MPI_ADDRESS_KIND) :: extra_state
  logical :: complete
  integer :: ierror
  ncancel = ncancel + 1
  seen_complete = complete
  seen_extra = extra_state
  ierror = MPI_SUCCESS
end subroutine cancel_fn

program grequest
  use greq_state
#ifdef USE_MPIF_H
  implicit none
  include 'mpif.h'
#else
  use mpi
  implicit none
#endif
  external :: query_fn, free_fn, cancel_fn
  integer :: ierr, nfail, req, keep, n, reqs(2)
  integer :: status(MPI_STATUS_SIZE), f(MPI_STATUS_SIZE), f08(MPI_STATUS_SIZE)
  integer :: statuses(MPI_STATUS_SIZE, 2)
  integer(kind=MPI_ADDRESS_KIND) :: extra
  logical :: flag

  nfail = 0
  call MPI_INIT(ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)

  extra = 1234
  call MPI_GREQUEST_START(query_fn, free_fn, cancel_fn, extra, req, ierr)
  call check(ierr == MPI_SUCCESS .and. req /= MPI_REQUEST_NULL, 'MPI 4.1 §13.2: MPI_GREQUEST_START')
  extra = 0
  call MPI_TEST(req, flag, status, ierr)
  call check(ierr == MPI_SUCCESS .and. .not. flag, 'MPI 4.1 §13.2: incomplete until MPI_GREQUEST_COMPLETE')
  call MPI_CANCEL(req, ierr)
  call check(ierr == MPI_SUCCESS .and. ncancel == 1, 'MPI 4.1 §13.2: MPI_CANCEL calls CANCEL_FN')
  call check(.not. seen_complete, 'MPI 4.1 §13.2: CANCEL_FN gets COMPLETE = .FALSE. before completion')
  call check(seen_extra == 1234, 'MPI 4.1 §13.2: EXTRA_STATE is the value given to MPI_GREQUEST_START')

  call MPI_GREQUEST_COMPLETE(req, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI 4.1 §13.2: MPI_GREQUEST_COMPLETE')
  call MPI_CANCEL(req, ierr)
  call check(seen_complete, 'MPI 4.1 §13.2: CANCEL_FN gets COMPLETE = .TRUE. after completion')
  call MPI_REQUEST_GET_STATUS(req, flag, status, ierr)
  call check(flag .and. nquery == 1 .and. nfree == 0, &
       'MPI 4.1 §13.2: MPI_REQUEST_GET_STATUS calls QUERY_FN only')
  status = -1
  call MPI_WAIT(req, status, ierr)
  call check(ierr == MPI_SUCCESS .and. req == MPI_REQUEST_NULL, 'MPI 4.1 §13.2: MPI_WAIT frees the request')
  call check(nquery == 2 .and. nfree == 1, 'MPI 4.1 §13.2: MPI_WAIT calls QUERY_FN then FREE_FN')
  call check(status(MPI_TAG) == 17, 'MPI 4.1 §13.2: the status is the one QUERY_FN filled')
  call MPI_GET_COUNT(status, MPI_INTEGER, n, ierr)
  call check(n == 3, 'MPI 4.1 §13.2: MPI_STATUS_SET_ELEMENTS in QUERY_FN reaches the waiter')

  ! Freed before completion: FREE_FN runs in MPI_GREQUEST_COMPLETE.
  call MPI_GREQUEST_START(query_fn, free_fn, cancel_fn, extra, req, ierr)
  keep = req
  call MPI_REQUEST_FREE(req, ierr)
  call check(ierr == MPI_SUCCESS .and. nfree == 1, 'MPI 4.1 §13.2: FREE_FN waits for completion')
  call MPI_GREQUEST_COMPLETE(keep, ierr)
  call check(nfree == 2, 'MPI 4.1 §13.2: FREE_FN runs in MPI_GREQUEST_COMPLETE after MPI_REQUEST_FREE')

  ! QUERY_FN's IERROR: MPI_WAIT's error; MPI_ERR_IN_STATUS for MPI_WAITALL.
  query_err = MPI_ERR_OTHER
  call MPI_GREQUEST_START(query_fn, free_fn, cancel_fn, extra, req, ierr)
  call MPI_GREQUEST_COMPLETE(req, ierr)
  call MPI_WAIT(req, status, ierr)
  call check(ierr == MPI_ERR_OTHER, 'MPI 4.1 §13.2: MPI_WAIT returns the code QUERY_FN returned')
  call MPI_GREQUEST_START(query_fn, free_fn, cancel_fn, extra, reqs(1), ierr)
  call MPI_GREQUEST_START(query_fn, free_fn, cancel_fn, extra, reqs(2), ierr)
  call MPI_GREQUEST_COMPLETE(reqs(1), ierr)
  call MPI_GREQUEST_COMPLETE(reqs(2), ierr)
  call MPI_WAITALL(2, reqs, statuses, ierr)
  call check(ierr == MPI_ERR_IN_STATUS, 'MPI 4.1 §13.2: MPI_WAITALL returns MPI_ERR_IN_STATUS')
  call check(statuses(MPI_ERROR, 1) == MPI_ERR_OTHER .and. statuses(MPI_ERROR, 2) == MPI_ERR_OTHER, &
       'MPI 4.1 §13.2: the code of each QUERY_FN in its status')
  query_err = MPI_SUCCESS

  ! MPI_STATUS_F082F / MPI_STATUS_F2F08: the same INTEGERs (§19.3.5).
  call MPI_STATUS_F2F08(status, f08, ierr)
  call check(ierr == MPI_SUCCESS .and. f08(MPI_TAG) == 17, 'MPI 4.1 §19.3.5: MPI_STATUS_F2F08')
  call MPI_STATUS_F082F(f08, f, ierr)
  call check(ierr == MPI_SUCCESS .and. all(f == status), 'MPI 4.1 §19.3.5: MPI_STATUS_F082F round trip')
  call MPI_STATUS_F082F(MPI_STATUS_IGNORE, f, ierr)
  call check(ierr == MPI_ERR_ARG, 'MPI 4.1 §19.3.5: MPI_STATUS_IGNORE is not a status to convert')

  call MPI_FINALIZE(ierr)
  print '(A, I0, A)', 'grequest: ', nfail, ' failure(s)'
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
end program grequest
