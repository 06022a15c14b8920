! Callbacks across languages (MPI 4.1 §7.7.2, §20.3.7; docs/DESIGN.md "Keyvals and callbacks"):
! Fortran-created keyvals (both generations) driven from C, a C-created keyval driven from
! Fortran, MPI_COMM_DUP_FN / MPI_DUP_FN keeping value and provenance, and the Fortran delete
! callbacks of MPI_COMM_SELF inside MPI_FINALIZE in reverse order of setting.
module cbstate
#ifdef USE_MPIF_H
  implicit none
  include 'mpif.h'
#else
  use mpi
  implicit none
#endif
  integer :: ncopy = 0, ndelete = 0
  integer :: seen_obj, seen_keyval, seen_extra_i, seen_val_i
  integer(kind=MPI_ADDRESS_KIND) :: seen_extra, seen_val
  logical :: ret_flag = .true.
  integer :: ret_ierr = 0
  integer(kind=MPI_ADDRESS_KIND) :: order(10)
  integer :: norder = 0
  logical :: finalized_inside = .false.
end module cbstate

subroutine copy_addr(oldcomm, keyval, extra_state, val_in, val_out, flag, ierr)
  use cbstate
  implicit none
  integer :: oldcomm, keyval, ierr
  integer(kind=MPI_ADDRESS_KIND) :: extra_state, val_in, val_out
  logical :: flag
  ncopy = ncopy + 1
  seen_obj = oldcomm
  seen_keyval = keyval
  seen_extra = extra_state
  seen_val = val_in
  val_out = val_in + 1000
  flag = ret_flag
  ierr = ret_ierr
end subroutine copy_addr

subroutine delete_addr(comm, keyval, val, extra_state, ierr)
  use cbstate
  implicit none
  integer :: comm, keyval, ierr, ierr2
  integer(kind=MPI_ADDRESS_KIND) :: val, extra_state
  logical :: fin
  ndelete = ndelete + 1
  seen_obj = comm
  seen_keyval = keyval
  seen_extra = extra_state
  seen_val = val
  norder = norder + 1
  if (norder <= 10) order(norder) = val
  call MPI_FINALIZED(fin, ierr2)
  if (fin) finalized_inside = .true.
  ierr = MPI_SUCCESS
end subroutine delete_addr

subroutine copy_int(oldcomm, keyval, extra_state, val_in, val_out, flag, ierr)
  use cbstate
  implicit none
  integer :: oldcomm, keyval, extra_state, val_in, val_out, ierr
  logical :: flag
  ncopy = ncopy + 1
  seen_obj = oldcomm
  seen_keyval = keyval
  seen_extra_i = extra_state
  seen_val_i = val_in
  val_out = val_in - 10
  flag = ret_flag
  ierr = ret_ierr
end subroutine copy_int

subroutine delete_int(comm, keyval, val, extra_state, ierr)
  use cbstate
  implicit none
  integer :: comm, keyval, val, extra_state, ierr
  ndelete = ndelete + 1
  seen_obj = comm
  seen_keyval = keyval
  seen_extra_i = extra_state
  seen_val_i = val
  ierr = MPI_SUCCESS
end subroutine delete_int

program callbacks
  use cbstate
  implicit none
  external :: copy_addr, delete_addr, copy_int, delete_int
  integer :: ierr, nfail, ka, ki, kc, kd, kd2, kself(3), i
  integer :: newc, orig, new1, new2, ival, iflag, n1, n2, cobj, ckey, cextra
  integer(kind=MPI_ADDRESS_KIND) :: es, v, aval, cval, cptr, oldptr, big
  logical :: flag

  nfail = 0
  call MPI_INIT(ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  big = 2_MPI_ADDRESS_KIND**40

  ! ---- 1. Fortran ADDRESS_KIND keyval; C sets, dups and frees ----
  es = 77
  call MPI_COMM_CREATE_KEYVAL(copy_addr, delete_addr, ka, es, ierr)
  es = 99   ! MPI 4.1 §20.3.8: extra_state is IN, captured at creation
  v = 5
  call c_set_ptr(MPI_COMM_WORLD, ka, v, ierr)
  call c_dup(MPI_COMM_WORLD, newc, ierr)
  call check(ierr == MPI_SUCCESS .and. ncopy == 1, 'C MPI_Comm_dup runs the Fortran copy routine', nfail)
  call check(seen_obj == MPI_COMM_WORLD, 'copy routine gets the old communicator', nfail)
  call check(seen_keyval == ka, 'copy routine gets the keyval', nfail)
  call check(seen_extra == 77, 'copy routine gets extra_state as it was at creation (77)', nfail)
  call check(seen_val == 5, 'copy routine gets the C pointer (void*)5 as the integer 5', nfail)
  ! The returned value is stored as if set by MPI_COMM_SET_ATTR (FortranAddress).
  call c_get_aint(newc, ka, cval, iflag, ierr)
  call check(iflag /= 0 .and. cval == 1005, 'C reads the copy result through an MPI_Aint* (1005)', nfail)
  call MPI_COMM_GET_ATTR(newc, ka, aval, flag, ierr)
  call check(flag .and. aval == 1005, 'Fortran reads the copy result 1005', nfail)
  call c_free(newc, ierr)
  call check(ierr == MPI_SUCCESS .and. ndelete == 1, 'C MPI_Comm_free runs the Fortran delete routine', nfail)
  call check(seen_val == 1005 .and. seen_extra == 77, 'delete routine gets value 1005 and extra_state 77', nfail)
  ! flag = .FALSE.: not copied
  ret_flag = .false.
  call c_dup(MPI_COMM_WORLD, newc, ierr)
  call MPI_COMM_GET_ATTR(newc, ka, aval, flag, ierr)
  call check(.not. flag, 'copy routine returning FLAG=.FALSE. means no attribute on the dup', nfail)
  call c_free(newc, ierr)
  ! IERROR /= 0: the dup fails with that code (docs/DESIGN.md)
  ret_flag = .true.
  ret_ierr = MPI_ERR_OTHER
  call c_dup(MPI_COMM_WORLD, newc, ierr)
  call check(ierr == MPI_ERR_OTHER .and. newc == MPI_COMM_NULL, &
             'copy routine returning IERROR fails the C dup with its code, newcomm null', nfail)
  call MPI_COMM_DUP(MPI_COMM_WORLD, newc, ierr)
  call check(ierr == MPI_ERR_OTHER .and. newc == MPI_COMM_NULL, &
             'copy routine returning IERROR fails the Fortran dup with its code', nfail)
  ret_ierr = 0
  call MPI_COMM_DELETE_ATTR(MPI_COMM_WORLD, ka, ierr)
  call check(ierr == MPI_SUCCESS .and. seen_val == 5 .and. seen_obj == MPI_COMM_WORLD, &
             'MPI_COMM_DELETE_ATTR runs the delete routine on the C-set value 5', nfail)
  call c_free_keyval(ka, ierr)
  call check(ierr == MPI_SUCCESS, 'C frees a Fortran-created keyval', nfail)
  call MPI_COMM_DELETE_ATTR(MPI_COMM_WORLD, ka, ierr)
  call check(ierr == MPI_ERR_KEYVAL, 'a freed keyval is MPI_ERR_KEYVAL', nfail)

  ! ---- 2. Fortran INTEGER keyval (MPI_KEYVAL_CREATE); C sets, dups and frees ----
  ncopy = 0
  ndelete = 0
  call MPI_KEYVAL_CREATE(copy_int, delete_int, ki, -3, ierr)
  v = 2_MPI_ADDRESS_KIND**32 + 7   ! a C pointer whose low part is 7
  call c_set_ptr(MPI_COMM_WORLD, ki, v, ierr)
  call c_dup(MPI_COMM_WORLD, newc, ierr)
  call check(ncopy == 1 .and. seen_obj == MPI_COMM_WORLD .and. seen_keyval == ki, &
             'INTEGER copy routine gets the old communicator and keyval', nfail)
  call check(seen_extra_i == -3, 'INTEGER copy routine gets extra_state -3', nfail)
  call check(seen_val_i == 7, 'INTEGER copy routine gets the low part of the C pointer (7)', nfail)
  ! copy_int returned 7 - 10 = -3: stored as MPI_ATTR_PUT would, sign-extended (MPI 4.1
  ! §20.3.7 "implicitly, by attribute copying callback functions")
  call c_get_int(newc, ki, ival, iflag, ierr)
  call check(iflag /= 0 .and. ival == -3, 'C reads the INTEGER copy result through an int* (-3)', nfail)
  call MPI_COMM_GET_ATTR(newc, ki, aval, flag, ierr)
  call check(flag .and. aval == -3, 'ADDRESS_KIND read of the INTEGER copy result is -3 (sign-extended)', nfail)
  call c_free(newc, ierr)
  call check(ndelete == 1 .and. seen_val_i == -3 .and. seen_extra_i == -3, &
             'INTEGER delete routine gets -3 and extra_state -3', nfail)
  call MPI_ATTR_DELETE(MPI_COMM_WORLD, ki, ierr)
  call check(ndelete == 2 .and. seen_val_i == 7 .and. seen_obj == MPI_COMM_WORLD, &
             'MPI_ATTR_DELETE runs the INTEGER delete routine with the low part 7', nfail)
  call MPI_KEYVAL_FREE(ki, ierr)

  ! ---- 3. C-created keyval; Fortran sets, dups and frees (C convention throughout) ----
  call c_make_keyval(kc, ierr)
  aval = 42
  call MPI_COMM_SET_ATTR(MPI_COMM_WORLD, kc, aval, ierr)
  call c_get_pointer(MPI_COMM_WORLD, kc, oldptr, nfail)
  call MPI_COMM_DUP(MPI_COMM_WORLD, newc, ierr)
  call check(ierr == MPI_SUCCESS, 'Fortran MPI_COMM_DUP with a C copy callback', nfail)
  call c_seen(n1, n2, cobj, ckey, cextra, cval, cptr)
  call check(n1 == 1 .and. cobj == MPI_COMM_WORLD .and. ckey == kc .and. cextra /= 0, &
             'C copy callback gets the old comm, the keyval and its extra_state', nfail)
  call check(cval == 42 .and. cptr == oldptr, 'C copy callback gets a pointer to an MPI_Aint holding 42', nfail)
  call MPI_COMM_GET_ATTR(newc, kc, aval, flag, ierr)
  call check(flag .and. aval == 42, 'the dup reads 42 in Fortran (value and provenance copied)', nfail)
  call c_get_pointer(newc, kc, cptr, nfail)
  call check(cptr /= oldptr, 'the dup does not point into the old object''s storage', nfail)
  call MPI_COMM_FREE(newc, ierr)
  call c_seen(n1, n2, cobj, ckey, cextra, cval, cptr)
  call check(n2 == 1 .and. ckey == kc .and. cval == 42, 'Fortran MPI_COMM_FREE runs the C delete callback on 42', nfail)
  call MPI_COMM_FREE_KEYVAL(kc, ierr)
  call check(ierr == MPI_SUCCESS .and. kc == MPI_KEYVAL_INVALID, 'Fortran frees a C-created keyval', nfail)
  call MPI_COMM_DELETE_ATTR(MPI_COMM_WORLD, kc, ierr)

  ! ---- 4. MPI_COMM_DUP_FN / MPI_DUP_FN keep value and provenance ----
  call MPI_COMM_DUP(MPI_COMM_WORLD, orig, ierr)
  es = 0
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, kd, es, ierr)
  call MPI_KEYVAL_CREATE(MPI_DUP_FN, MPI_NULL_DELETE_FN, kd2, 0, ierr)
  call MPI_COMM_SET_ATTR(orig, kd, big, ierr)
  call MPI_ATTR_PUT(orig, kd2, -5, ierr)
  call c_dup(orig, new1, ierr)
  call MPI_COMM_DUP(orig, new2, ierr)
  call MPI_COMM_FREE(orig, ierr)
  do i = 1, 2
    if (i == 1) newc = new1
    if (i == 2) newc = new2
    call c_get_aint(newc, kd, cval, iflag, ierr)
    call check(iflag /= 0 .and. cval == big, 'MPI_COMM_DUP_FN: C reads 2**40 on the copy after the original is freed', nfail)
    call MPI_COMM_GET_ATTR(newc, kd, aval, flag, ierr)
    call check(flag .and. aval == big, 'MPI_COMM_DUP_FN: Fortran reads 2**40 on the copy', nfail)
    call c_get_int(newc, kd2, ival, iflag, ierr)
    call check(iflag /= 0 .and. ival == -5, 'MPI_DUP_FN: C reads int -5 on the copy', nfail)
    call MPI_ATTR_GET(newc, kd2, ival, flag, ierr)
    call check(flag .and. ival == -5, 'MPI_DUP_FN: MPI_ATTR_GET reads -5 on the copy', nfail)
    call MPI_COMM_GET_ATTR(newc, kd2, aval, flag, ierr)
    call check(flag .and. aval == -5, 'MPI_DUP_FN: ADDRESS_KIND reads -5 (sign-extended) on the copy', nfail)
  end do
  call MPI_COMM_FREE(new1, ierr)
  call MPI_COMM_FREE(new2, ierr)
  call MPI_COMM_FREE_KEYVAL(kd, ierr)
  call MPI_KEYVAL_FREE(kd2, ierr)

  ! ---- 5. MPI_COMM_SELF's attributes are deleted first in MPI_FINALIZE, last set first,
  ! with MPI_FINALIZED still false (MPI 4.1 §11.2.4) ----
  norder = 0
  finalized_inside = .false.
  es = 0
  do i = 1, 3
    call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, delete_addr, kself(i), es, ierr)
  end do
  ! set in the order keyval 2, 3, 1 so that order of setting differs from keyval order
  v = 2
  call MPI_COMM_SET_ATTR(MPI_COMM_SELF, kself(2), v, ierr)
  v = 3
  call MPI_COMM_SET_ATTR(MPI_COMM_SELF, kself(3), v, ierr)
  v = 1
  call MPI_COMM_SET_ATTR(MPI_COMM_SELF, kself(1), v, ierr)
  call MPI_FINALIZE(ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_FINALIZE succeeds', nfail)
  call check(norder == 3, 'MPI_FINALIZE runs the three delete routines', nfail)
  if (norder == 3) then
    call check(order(1) == 1 .and. order(2) == 3 .and. order(3) == 2, &
               'MPI_COMM_SELF attributes deleted in reverse order of setting (1, 3, 2)', nfail)
  end if
  call check(.not. finalized_inside, 'MPI_FINALIZED is false inside the delete routines', nfail)

  print '(A,I0,A)', 'callbacks: ', nfail, ' failure(s)'
  if (nfail > 0) stop 1
contains
  include 'check.inc'
end program callbacks
