! Keyvals created and freed many times from Fortran: every rule holds for a keyval whatever
! keyvals came before it (mpicache reuses freed keyvals' storage and serves predefined routines
! and unused frees on fast paths; this drives more cycles than its reuse delay).
! MPI 4.1 §7.7.2: MPI_COMM_FREE_KEYVAL sets the keyval to MPI_KEYVAL_INVALID; MPI_COMM_DUP_FN
! copies the attribute (the same integer, §20.3.7), MPI_COMM_NULL_COPY_FN does not; a user copy
! routine gets the keyval's EXTRA_STATE; a delete routine runs once per attribute, and a keyval
! made with MPI_COMM_NULL_DELETE_FN runs none. §7.7.3, §7.7.4: datatypes and windows alike.
! §19.3 (deprecated MPI-1 forms): MPI_KEYVAL_CREATE / MPI_KEYVAL_FREE, MPI_ATTR_PUT / GET.
module kvstate
#ifdef USE_MPIF_H
  implicit none
  include 'mpif.h'
#else
  use mpi
  implicit none
#endif
  integer :: ncopy = 0, ndelete = 0
  integer(kind=MPI_ADDRESS_KIND) :: seen_extra = -1
end module kvstate

subroutine user_copy(oldcomm, keyval, extra_state, val_in, val_out, flag, ierr)
  use kvstate
  implicit none
  integer :: oldcomm, keyval, ierr
  integer(kind=MPI_ADDRESS_KIND) :: extra_state, val_in, val_out
  logical :: flag
  ncopy = ncopy + 1
  seen_extra = extra_state
  val_out = val_in
  flag = .true.
  ierr = MPI_SUCCESS
  if (oldcomm == MPI_COMM_NULL .or. keyval == MPI_KEYVAL_INVALID) ierr = MPI_ERR_OTHER
end subroutine user_copy

subroutine user_delete(comm, keyval, val, extra_state, ierr)
  use kvstate
  implicit none
  integer :: comm, keyval, ierr
  integer(kind=MPI_ADDRESS_KIND) :: val, extra_state
  ndelete = ndelete + 1
  seen_extra = extra_state
  ierr = MPI_SUCCESS
  if (comm == MPI_COMM_NULL .or. keyval == MPI_KEYVAL_INVALID .or. val < 0) ierr = MPI_ERR_OTHER
end subroutine user_delete

program keyval_reuse
  use kvstate
  implicit none
  external :: user_copy, user_delete
  integer, parameter :: cycles = 700
  integer :: i, ierr, nfail, k_dup, k_null, k_user, kt, kw, k1, base, dupc, dtype, win, flagi
  integer(kind=MPI_ADDRESS_KIND) :: es, val, big, wsize
  logical :: flag
  integer :: buf(16)

  nfail = 0
  call MPI_INIT(ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  big = 2_MPI_ADDRESS_KIND**40

  do i = 1, cycles
    es = i
    call MPI_COMM_CREATE_KEYVAL(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, k_dup, es, ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_COMM_CREATE_KEYVAL with MPI_COMM_DUP_FN', nfail)
    call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, k_null, es, ierr)
    es = 5000 + i
    call MPI_COMM_CREATE_KEYVAL(user_copy, user_delete, k_user, es, ierr)
    call check(k_dup /= k_null .and. k_dup /= k_user .and. k_null /= k_user, &
               'keyvals live at once are distinct', nfail)

    ! MPI_COMM_SELF: the cycles belong to one process, so on many processes (tests/
    ! layer_programs.rs) the dups stay local instead of collectives over MPI_COMM_WORLD.
    call MPI_COMM_DUP(MPI_COMM_SELF, base, ierr)
    val = big + i
    call MPI_COMM_SET_ATTR(base, k_dup, val, ierr)
    call MPI_COMM_SET_ATTR(base, k_null, val, ierr)
    call MPI_COMM_SET_ATTR(base, k_user, val, ierr)
    ncopy = 0
    ndelete = 0
    call MPI_COMM_DUP(base, dupc, ierr)
    call check(ncopy == 1 .and. seen_extra == 5000 + i, &
               'the user copy routine runs once, with its EXTRA_STATE', nfail)
    val = 0
    call MPI_COMM_GET_ATTR(dupc, k_dup, val, flag, ierr)
    call check(flag .and. val == big + i, 'MPI_COMM_DUP_FN copies the same integer', nfail)
    call MPI_COMM_GET_ATTR(dupc, k_null, val, flag, ierr)
    call check(.not. flag, 'MPI_COMM_NULL_COPY_FN does not copy', nfail)

    call MPI_COMM_FREE_KEYVAL(k_user, ierr)
    call check(ierr == MPI_SUCCESS .and. k_user == MPI_KEYVAL_INVALID, &
               'freeing a keyval in use: MPI_SUCCESS, MPI_KEYVAL_INVALID', nfail)
    call MPI_COMM_FREE_KEYVAL(k_dup, ierr)
    call MPI_COMM_FREE_KEYVAL(k_null, ierr)
    call check(k_dup == MPI_KEYVAL_INVALID .and. k_null == MPI_KEYVAL_INVALID, &
               'MPI_COMM_FREE_KEYVAL sets MPI_KEYVAL_INVALID', nfail)
    call MPI_COMM_FREE(dupc, ierr)
    call MPI_COMM_FREE(base, ierr)
    call check(ndelete == 2, 'the delete routine of a freed keyval runs once per attribute', nfail)
  end do

  ! Keyvals made with the null delete routine, in storage that held user routines: no call.
  do i = 1, cycles
    es = 0
    call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, k1, es, ierr)
    val = i
    call MPI_COMM_SET_ATTR(MPI_COMM_SELF, k1, val, ierr)
    ncopy = 0
    ndelete = 0
    call MPI_COMM_DELETE_ATTR(MPI_COMM_SELF, k1, ierr)
    call MPI_COMM_FREE_KEYVAL(k1, ierr)
    if (ndelete /= 0 .or. k1 /= MPI_KEYVAL_INVALID) then
      call check(.false., 'MPI_COMM_NULL_DELETE_FN: no delete routine runs', nfail)
      exit
    end if
  end do

  ! Datatype and window keyvals.
  call MPI_TYPE_CONTIGUOUS(4, MPI_INTEGER, dtype, ierr)
  wsize = 64
  call MPI_WIN_CREATE(buf, wsize, 1, MPI_INFO_NULL, MPI_COMM_SELF, win, ierr)
  do i = 1, cycles
    es = i
    call MPI_TYPE_CREATE_KEYVAL(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, kt, es, ierr)
    call MPI_WIN_CREATE_KEYVAL(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, kw, es, ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_WIN_CREATE_KEYVAL', nfail)
    if (mod(i, 7) == 0) then
      val = big + i
      call MPI_TYPE_SET_ATTR(dtype, kt, val, ierr)
      call MPI_WIN_SET_ATTR(win, kw, val, ierr)
      call MPI_TYPE_GET_ATTR(dtype, kt, val, flag, ierr)
      call check(flag .and. val == big + i, 'MPI_TYPE_GET_ATTR', nfail)
      call MPI_WIN_GET_ATTR(win, kw, val, flag, ierr)
      call check(flag .and. val == big + i, 'MPI_WIN_GET_ATTR', nfail)
      call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, kt, val, flag, ierr)
      call check(ierr == MPI_ERR_KEYVAL, 'a datatype keyval on a communicator: MPI_ERR_KEYVAL', nfail)
      call MPI_TYPE_DELETE_ATTR(dtype, kt, ierr)
      call MPI_WIN_DELETE_ATTR(win, kw, ierr)
    end if
    call MPI_TYPE_FREE_KEYVAL(kt, ierr)
    call MPI_WIN_FREE_KEYVAL(kw, ierr)
    call check(kt == MPI_KEYVAL_INVALID .and. kw == MPI_KEYVAL_INVALID, &
               'MPI_TYPE_FREE_KEYVAL / MPI_WIN_FREE_KEYVAL set MPI_KEYVAL_INVALID', nfail)
  end do
  call MPI_WIN_FREE(win, ierr)
  call MPI_TYPE_FREE(dtype, ierr)

  ! The deprecated MPI-1 forms.
  do i = 1, cycles
    flagi = 0
    call MPI_KEYVAL_CREATE(MPI_DUP_FN, MPI_NULL_DELETE_FN, k1, flagi, ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_KEYVAL_CREATE', nfail)
    call MPI_ATTR_PUT(MPI_COMM_WORLD, k1, -i, ierr)
    flagi = 0
    call MPI_ATTR_GET(MPI_COMM_WORLD, k1, flagi, flag, ierr)
    call check(flag .and. flagi == -i, 'MPI_ATTR_GET returns the value MPI_ATTR_PUT stored', nfail)
    call MPI_ATTR_DELETE(MPI_COMM_WORLD, k1, ierr)
    call MPI_KEYVAL_FREE(k1, ierr)
    call check(ierr == MPI_SUCCESS .and. k1 == MPI_KEYVAL_INVALID, &
               'MPI_KEYVAL_FREE sets MPI_KEYVAL_INVALID', nfail)
  end do

  call MPI_FINALIZE(ierr)
  print '(A,I0,A)', 'keyval_reuse: ', nfail, ' failure(s)'
  if (nfail > 0) stop 1
contains
  include 'check.inc'
end program keyval_reuse
