! Callbacks on datatypes and windows across languages (MPI 4.1 §7.7.4, §7.7.3, §20.3.7;
! docs/DESIGN.md "Keyvals and callbacks"): MPI_TYPE_DUP from Fortran and MPI_Type_dup from C both
! run a Fortran copy routine and a C copy function, each result stored as if set in the
! routine's own language; MPI_TYPE_FREE / MPI_Type_free run the Fortran delete routine and the C
! delete function; MPI_WIN_FREE runs a Fortran delete routine and a C delete function. Every
! callback gets the object's handle, the keyval and the keyval's extra_state.
module twcbstate
#ifdef USE_MPIF_H
  implicit none
  include 'mpif.h'
#else
  use mpi
  implicit none
#endif
  integer :: ncopy = 0, ndelete = 0
  integer :: seen_obj = -1, seen_keyval = -1
  integer(kind=MPI_ADDRESS_KIND) :: seen_extra = -1, seen_val = -1
end module twcbstate

! Fortran ADDRESS_KIND copy routine: the new value is the old one plus 1000.
subroutine tcopy(oldtype, keyval, extra_state, val_in, val_out, flag, ierr)
  use twcbstate
  implicit none
  integer :: oldtype, keyval, ierr
  integer(kind=MPI_ADDRESS_KIND) :: extra_state, val_in, val_out
  logical :: flag
  ncopy = ncopy + 1
  seen_obj = oldtype
  seen_keyval = keyval
  seen_extra = extra_state
  seen_val = val_in
  val_out = val_in + 1000
  flag = .true.
  ierr = MPI_SUCCESS
end subroutine tcopy

! Fortran ADDRESS_KIND delete routine, for datatypes and windows alike.
subroutine odelete(obj, keyval, val, extra_state, ierr)
  use twcbstate
  implicit none
  integer :: obj, keyval, ierr
  integer(kind=MPI_ADDRESS_KIND) :: val, extra_state
  ndelete = ndelete + 1
  seen_obj = obj
  seen_keyval = keyval
  seen_extra = extra_state
  seen_val = val
  ierr = MPI_SUCCESS
end subroutine odelete

program type_win_callbacks
  use twcbstate
  implicit none
  external :: tcopy, odelete
  integer :: ierr, nfail, kf, kc, kw, kwc, t, t2, t3, tc, tc2, win, savedwin, savedt
  integer :: cn_copy, cn_delete, c_type, c_win, extra_ok, buf(4)
  integer(kind=MPI_ADDRESS_KIND) :: es, v, cval
  logical :: flag

  nfail = 0
  call MPI_INIT(ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)

  es = 99
  call MPI_TYPE_CREATE_KEYVAL(tcopy, odelete, kf, es, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_TYPE_CREATE_KEYVAL with Fortran routines', nfail)
  es = -1   ! extra_state is IN: the keyval keeps the value it was created with (§20.3.8)
  call c_type_keyval(kc, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Type_create_keyval with C functions', nfail)

  call MPI_TYPE_CONTIGUOUS(3, MPI_INTEGER, t, ierr)
  v = 5
  call MPI_TYPE_SET_ATTR(t, kf, v, ierr)
  cval = 1000
  call c_set_type_ptr(t, kc, cval, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Type_set_attr from C', nfail)

  ! -- MPI_TYPE_DUP from Fortran (MPI 4.1 §7.7.4: copy callbacks run on MPI_TYPE_DUP). --
  call MPI_TYPE_DUP(t, t2, ierr)
  call check(ierr == MPI_SUCCESS .and. t2 /= MPI_DATATYPE_NULL, 'MPI_TYPE_DUP succeeds', nfail)
  call check(ncopy == 1 .and. seen_obj == t .and. seen_keyval == kf .and. seen_val == 5 &
             .and. seen_extra == 99, &
             'MPI_TYPE_DUP ran the Fortran copy routine with OLDTYPE, KEYVAL, EXTRA_STATE, 5', nfail)
  call c_seen(cn_copy, cn_delete, c_type, c_win, cval, extra_ok)
  call check(cn_copy == 1 .and. c_type == t .and. cval == 1000 .and. extra_ok == 1, &
             'MPI_TYPE_DUP from Fortran ran the C copy function with the handle and the pointer', nfail)
  ! The Fortran routine's result is stored as if set by MPI_TYPE_SET_ATTR (§20.3.7): Fortran
  ! reads 1005, C an MPI_Aint* to 1005; the C function's as a C pointer: both read 1001.
  call get(t2, kf, 1005_MPI_ADDRESS_KIND, 'Fortran reads the Fortran copy result 1005')
  call c_get_type_aint(t2, kf, v, flag, ierr)
  call check(flag .and. v == 1005, 'C reads the Fortran copy result through an MPI_Aint*', nfail)
  call get(t2, kc, 1001_MPI_ADDRESS_KIND, 'Fortran reads the C copy result (pointer 1001) as 1001')
  call c_get_type_ptr(t2, kc, v, flag, ierr)
  call check(flag .and. v == 1001, 'C reads the C copy result as the pointer 1001', nfail)

  ! -- MPI_Type_dup from C runs the same Fortran routine and C function. --
  call c_type_dup(t, t3, ierr)
  call check(ierr == MPI_SUCCESS .and. ncopy == 2 .and. seen_obj == t .and. seen_val == 5, &
             'MPI_Type_dup from C ran the Fortran copy routine with the Fortran handle', nfail)
  call c_seen(cn_copy, cn_delete, c_type, c_win, cval, extra_ok)
  call check(cn_copy == 2 .and. c_type == t, 'MPI_Type_dup from C ran the C copy function', nfail)
  call get(t3, kf, 1005_MPI_ADDRESS_KIND, 'after MPI_Type_dup from C, Fortran reads 1005')

  ! -- A datatype created in C: the Fortran routine gets its handle (docs/DESIGN.md: callbacks
  ! receive the object's real handle in their own language). --
  call c_make_type(tc, ierr)
  v = 8
  call MPI_TYPE_SET_ATTR(tc, kf, v, ierr)
  call MPI_TYPE_DUP(tc, tc2, ierr)
  call check(ierr == MPI_SUCCESS .and. ncopy == 3 .and. seen_obj == tc .and. seen_val == 8, &
             'the Fortran copy routine gets the handle of a C-created datatype', nfail)
  call get(tc2, kf, 1008_MPI_ADDRESS_KIND, 'dup of a C-created datatype reads 1008')

  ! -- MPI_TYPE_FREE from Fortran runs the delete routines (MPI 4.1 §7.7.4). --
  savedt = t2
  call MPI_TYPE_FREE(t2, ierr)
  call check(ierr == MPI_SUCCESS .and. t2 == MPI_DATATYPE_NULL, 'MPI_TYPE_FREE succeeds', nfail)
  call check(ndelete == 1 .and. seen_obj == savedt .and. seen_keyval == kf .and. seen_val == 1005 &
             .and. seen_extra == 99, 'MPI_TYPE_FREE ran the Fortran delete routine on 1005', nfail)
  call c_seen(cn_copy, cn_delete, c_type, c_win, cval, extra_ok)
  call check(cn_delete == 1 .and. c_type == savedt .and. cval == 1001 .and. extra_ok == 1, &
             'MPI_TYPE_FREE from Fortran ran the C delete function on pointer 1001', nfail)
  ! -- MPI_Type_free from C runs the Fortran delete routine. --
  savedt = t3
  call c_type_free(t3, ierr)
  call check(ierr == MPI_SUCCESS .and. t3 == MPI_DATATYPE_NULL .and. ndelete == 2 .and. &
             seen_obj == savedt .and. seen_val == 1005, &
             'MPI_Type_free from C ran the Fortran delete routine', nfail)
  call c_seen(cn_copy, cn_delete, c_type, c_win, cval, extra_ok)
  call check(cn_delete == 2, 'MPI_Type_free from C ran the C delete function', nfail)
  call MPI_TYPE_FREE(tc2, ierr)
  call MPI_TYPE_FREE(tc, ierr)
  call check(ierr == MPI_SUCCESS .and. ndelete == 4 .and. seen_val == 8, &
             'freeing the C-created datatype ran the Fortran delete routine on 8', nfail)
  ! The original: Fortran value 5, C pointer 1000.
  call MPI_TYPE_FREE(t, ierr)
  call check(ierr == MPI_SUCCESS .and. ndelete == 5 .and. seen_val == 5, &
             'MPI_TYPE_FREE of the original ran the Fortran delete routine on 5', nfail)
  call c_seen(cn_copy, cn_delete, c_type, c_win, cval, extra_ok)
  call check(cn_delete == 3 .and. cval == 1000, 'and the C delete function on pointer 1000', nfail)
  call check(ncopy == 3, 'no copy routine ran on free', nfail)

  ! -- Windows: MPI_WIN_FREE runs the Fortran delete routine and the C delete function
  ! (MPI 4.1 §7.7.3); windows are never duplicated, so no copy callback runs. --
  es = 77
  call MPI_WIN_CREATE_KEYVAL(MPI_WIN_NULL_COPY_FN, odelete, kw, es, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_WIN_CREATE_KEYVAL with a Fortran delete routine', nfail)
  call c_win_keyval(kwc, ierr)
  buf = 0
  call MPI_WIN_CREATE(buf, 16_MPI_ADDRESS_KIND, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  v = 11
  call MPI_WIN_SET_ATTR(win, kw, v, ierr)
  cval = 2000
  call c_set_win_ptr(win, kwc, cval, ierr)
  ! Overwriting runs the delete routine on the old value (MPI 4.1 §7.7.3).
  v = 12
  call MPI_WIN_SET_ATTR(win, kw, v, ierr)
  call check(ierr == MPI_SUCCESS .and. ndelete == 6 .and. seen_val == 11 .and. seen_obj == win, &
             'MPI_WIN_SET_ATTR over 11 ran the Fortran delete routine on 11', nfail)
  savedwin = win
  call MPI_WIN_FREE(win, ierr)
  call check(ierr == MPI_SUCCESS .and. win == MPI_WIN_NULL, 'MPI_WIN_FREE succeeds', nfail)
  call check(ndelete == 7 .and. seen_obj == savedwin .and. seen_keyval == kw .and. &
             seen_val == 12 .and. seen_extra == 77, &
             'MPI_WIN_FREE ran the Fortran delete routine with WIN, KEYVAL, 12, EXTRA_STATE', nfail)
  call c_seen(cn_copy, cn_delete, c_type, c_win, cval, extra_ok)
  call check(cn_delete == 4 .and. c_win == savedwin .and. cval == 2000 .and. extra_ok == 1, &
             'MPI_WIN_FREE from Fortran ran the C delete function on pointer 2000', nfail)

  call MPI_TYPE_FREE_KEYVAL(kf, ierr)
  call MPI_TYPE_FREE_KEYVAL(kc, ierr)
  call MPI_WIN_FREE_KEYVAL(kw, ierr)
  call MPI_WIN_FREE_KEYVAL(kwc, ierr)
  call check(ierr == MPI_SUCCESS .and. kwc == MPI_KEYVAL_INVALID, 'freeing the keyvals', nfail)
  call MPI_FINALIZE(ierr)
  call check(ndelete == 7, 'no delete routine ran at MPI_FINALIZE for freed objects', nfail)
  print '(A,I0,A)', 'type_win_callbacks: ', nfail, ' failure(s)'
  if (nfail > 0) stop 1

contains

  subroutine get(t, keyval, expect, what)
    integer, intent(in) :: t, keyval
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: expect
    character(len=*), intent(in) :: what
    integer(kind=MPI_ADDRESS_KIND) :: v
    logical :: f
    integer :: ierr
    character(len=200) :: msg
    v = -999
    f = .false.
    call MPI_TYPE_GET_ATTR(t, keyval, v, f, ierr)
    write (msg, '(A,A,I0,A,L1)') what, ': got ', v, ' flag ', f
    call check(ierr == MPI_SUCCESS .and. f .and. v == expect, 'MPI_TYPE_GET_ATTR: '//trim(msg), nfail)
  end subroutine get

  include 'check.inc'
end program type_win_callbacks
