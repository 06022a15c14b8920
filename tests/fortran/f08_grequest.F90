! Generalized requests with mpi_f08 (MPI 4.1 §13.2): callbacks written against the abstract
! interfaces MPI_Grequest_query_function (TYPE(MPI_Status)), MPI_Grequest_free_function and
! MPI_Grequest_cancel_function; and the f08 status conversions (§19.3.5): MPI_Status_f082f /
! MPI_Status_f2f08 in Fortran, MPI_Status_c2f08 / MPI_Status_f082c and MPI_F08_STATUS_IGNORE
! from C (f08_grequest_c.c).
module f08greq
  use mpi_f08
  implicit none
  integer :: nquery = 0, nfree = 0, ncancel = 0
  integer(kind=MPI_ADDRESS_KIND) :: seen_extra = -1
  logical :: seen_complete = .true.
contains
  subroutine query(extra_state, status, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    type(MPI_Status) :: status
    integer :: ierror
    nquery = nquery + 1
    seen_extra = extra_state
    call MPI_Status_set_elements(status, MPI_INTEGER, 2, ierror)
    status%MPI_SOURCE = 0
    status%MPI_TAG = 31
    ierror = MPI_SUCCESS
  end subroutine query
  subroutine free_cb(extra_state, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer :: ierror
    nfree = nfree + 1
    ierror = MPI_SUCCESS
  end subroutine free_cb
  subroutine cancel(extra_state, complete, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    logical :: complete
    integer :: ierror
    ncancel = ncancel + 1
    seen_complete = complete
    ierror = MPI_SUCCESS
  end subroutine cancel
end module f08greq

program f08_grequest
  use mpi_f08
  use f08greq
  use, intrinsic :: iso_c_binding
  implicit none
  interface
    integer(c_int) function f08_is_status_ignore(p) bind(c)
      import :: MPI_Status, c_int
      type(MPI_Status) :: p
    end function f08_is_status_ignore
    integer(c_int) function f08_is_statuses_ignore(p) bind(c)
      import :: MPI_Status, c_int
      type(MPI_Status) :: p(*)
    end function f08_is_statuses_ignore
    integer(c_int) function f08_fill_status(p) bind(c)
      import :: MPI_Status, c_int
      type(MPI_Status) :: p
    end function f08_fill_status
    integer(c_int) function f08_read_status(p) bind(c)
      import :: MPI_Status, c_int
      type(MPI_Status) :: p
    end function f08_read_status
  end interface
  type(MPI_Request) :: req
  type(MPI_Status) :: status, back
  integer :: ierr, nfail, n, f(MPI_STATUS_SIZE)
  integer(kind=MPI_ADDRESS_KIND) :: extra
  logical :: flag

  nfail = 0
  call MPI_Init()
  extra = 77
  call MPI_Grequest_start(query, free_cb, cancel, extra, req, ierr)
  call check(ierr == MPI_SUCCESS .and. req /= MPI_REQUEST_NULL, 'MPI 4.1 §13.2: MPI_Grequest_start (mpi_f08)')
  call MPI_Test(req, flag, status)
  call check(.not. flag, 'MPI 4.1 §13.2: incomplete until MPI_Grequest_complete')
  call MPI_Cancel(req)
  call check(ncancel == 1 .and. .not. seen_complete, 'MPI 4.1 §13.2: cancel_fn with complete = .false.')
  call MPI_Grequest_complete(req)
  call MPI_Wait(req, status, ierr)
  call check(ierr == MPI_SUCCESS .and. req == MPI_REQUEST_NULL, 'MPI 4.1 §13.2: MPI_Wait frees the request')
  call check(nquery == 1 .and. nfree == 1 .and. seen_extra == 77, 'MPI 4.1 §13.2: query_fn and free_fn once, with extra_state')
  call check(status%MPI_TAG == 31, 'MPI 4.1 §13.2: the TYPE(MPI_Status) query_fn filled')
  call MPI_Get_count(status, MPI_INTEGER, n)
  call check(n == 2, 'MPI 4.1 §13.2: the count query_fn set')

  ! §19.3.5 in Fortran: TYPE(MPI_Status) <-> INTEGER STATUS(MPI_STATUS_SIZE).
  call MPI_Status_f082f(status, f, ierr)
  call check(ierr == MPI_SUCCESS .and. f(MPI_TAG) == 31, 'MPI 4.1 §19.3.5: MPI_Status_f082f')
  call MPI_Status_f2f08(f, back, ierr)
  call check(ierr == MPI_SUCCESS .and. back%MPI_TAG == 31, 'MPI 4.1 §19.3.5: MPI_Status_f2f08')
  call MPI_Get_count(back, MPI_INTEGER, n)
  call check(n == 2, 'MPI 4.1 §19.3.5: the count survives f08 -> Fortran -> f08')

  ! §19.3.5 from C.
  call check(f08_is_status_ignore(MPI_STATUS_IGNORE) == 1, &
       'MPI 4.1 §19.3.5: MPI_F08_STATUS_IGNORE is the address of mpi_f08''s MPI_STATUS_IGNORE')
  call check(f08_is_statuses_ignore(MPI_STATUSES_IGNORE) == 1, &
       'MPI 4.1 §19.3.5: MPI_F08_STATUSES_IGNORE is the address of mpi_f08''s MPI_STATUSES_IGNORE')
  call check(f08_is_status_ignore(status) == 0, 'MPI 4.1 §19.3.5: a real status is not MPI_F08_STATUS_IGNORE')
  call check(f08_fill_status(back) == MPI_SUCCESS, 'MPI 4.1 §19.3.5: MPI_Status_c2f08')
  call MPI_Get_count(back, MPI_INTEGER, n)
  call MPI_Test_cancelled(back, flag)
  call check(back%MPI_TAG == 23 .and. n == 4 .and. flag, &
       'MPI 4.1 §19.3.5: a C status converted by MPI_Status_c2f08 reads the same in mpi_f08')
  call check(f08_read_status(status) == 31002, 'MPI 4.1 §19.3.5: MPI_Status_f082c of an f08 status')

  call MPI_Finalize()
  print '(A, I0, A)', 'f08_grequest: ', nfail, ' failure(s)'
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
end program f08_grequest
