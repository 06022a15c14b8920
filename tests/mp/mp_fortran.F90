! Multi-process C x Fortran caching checks (issue 17 item 4), standard MPI only, built twice:
! with `use mpi` and with -DUSE_MPIF_H (`include 'mpif.h'`), linked with mp_fortran_c.c, and
! run on 1, 2 and 4 processes by tests/layer_programs.rs. On every rank, with values that differ
! by rank: the writer x reader matrix of MPI 4.1 §20.3.7 (C set / Fortran get, Fortran
! MPI_COMM_SET_ATTR / C get gives MPI_Aint*, MPI_ATTR_PUT / C get gives int*, sign extension
! of -1), a Fortran-set value copied by MPI_COMM_DUP_FN and read from C after the original is
! freed, Fortran callbacks driven by Fortran and by C dup/free (each once, with the right
! handle and the keyval's extra_state), collectives over the dups, windows with the engine's
! MPI_WIN_BASE / MPI_WIN_SIZE / MPI_WIN_DISP_UNIT, datatypes, and MPI_COMM_SELF's finalize
! order. Each rank prints "mp_fortran rank R: N failure(s)" and stops with 1 on a failure.
module mpstate
#ifdef USE_MPIF_H
  implicit none
  include 'mpif.h'
#else
  use mpi
  implicit none
#endif
  integer :: ncopy = 0, ndelete = 0, ncopy1 = 0, nwdel = 0, ntdel = 0
  integer :: del_comm = -12345, del_win = -12345
  integer(kind=MPI_ADDRESS_KIND) :: seen_extra = -7, del_val = -7
  integer(kind=MPI_ADDRESS_KIND) :: order(8)
  integer :: norder = 0
  logical :: finalized_inside = .false.
end module mpstate

subroutine f_copy(oldcomm, keyval, extra_state, val_in, val_out, flag, ierr)
  use mpstate
  implicit none
  integer :: oldcomm, keyval, ierr
  integer(kind=MPI_ADDRESS_KIND) :: extra_state, val_in, val_out
  logical :: flag
  ncopy = ncopy + 1
  seen_extra = extra_state
  val_out = val_in + 1000
  flag = .true.
  ierr = MPI_SUCCESS
end subroutine f_copy

subroutine f_delete(comm, keyval, val, extra_state, ierr)
  use mpstate
  implicit none
  integer :: comm, keyval, ierr
  integer(kind=MPI_ADDRESS_KIND) :: val, extra_state
  ndelete = ndelete + 1
  del_comm = comm
  del_val = val
  seen_extra = extra_state
  ierr = MPI_SUCCESS
end subroutine f_delete

! An MPI-1 (INTEGER) copy callback whose new value is -1.
subroutine f_copy1(oldcomm, keyval, extra_state, val_in, val_out, flag, ierr)
  use mpstate
  implicit none
  integer :: oldcomm, keyval, extra_state, val_in, val_out, ierr
  logical :: flag
  ncopy1 = ncopy1 + 1
  val_out = -1
  flag = .true.
  ierr = MPI_SUCCESS
end subroutine f_copy1

subroutine w_delete(win, keyval, val, extra_state, ierr)
  use mpstate
  implicit none
  integer :: win, keyval, ierr
  integer(kind=MPI_ADDRESS_KIND) :: val, extra_state
  nwdel = nwdel + 1
  del_win = win
  ierr = MPI_SUCCESS
end subroutine w_delete

subroutine t_delete(dtype, keyval, val, extra_state, ierr)
  use mpstate
  implicit none
  integer :: dtype, keyval, ierr
  integer(kind=MPI_ADDRESS_KIND) :: val, extra_state
  ntdel = ntdel + 1
  ierr = MPI_SUCCESS
end subroutine t_delete

subroutine self_delete(comm, keyval, val, extra_state, ierr)
  use mpstate
  implicit none
  integer :: comm, keyval, ierr, ierr2
  integer(kind=MPI_ADDRESS_KIND) :: val, extra_state
  logical :: fin
  call MPI_FINALIZED(fin, ierr2)
  if (fin) finalized_inside = .true.
  norder = norder + 1
  if (norder <= 8) order(norder) = val
  ierr = MPI_SUCCESS
end subroutine self_delete

program mp_fortran
  use mpstate
  implicit none
  external :: f_copy, f_delete, f_copy1, w_delete, t_delete, self_delete
  integer :: ierr, rank, nproc, nfail, i, rc, flagi, ival
  integer :: kc, kf, kp, kd, kcb, k1, kw, kt, ks(3), kr, r1
  integer :: d0, d1, d2, e1, e2, e3, e4, e5, s, win, t, t2, req, saved
  integer(kind=MPI_ADDRESS_KIND) :: aval, big, got, extra, v, want, sumv, base, wsize
  integer :: buf(16), putval
  logical :: flag

  nfail = 0
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nproc, ierr)

  ! --- the writer x reader matrix (MPI 4.1 §20.3.7), values differing by rank -------------
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, kc, 0_MPI_ADDRESS_KIND, ierr)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, kf, 0_MPI_ADDRESS_KIND, ierr)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, kp, 0_MPI_ADDRESS_KIND, ierr)
  aval = -5 * (rank + 1)
  call c_set(MPI_COMM_WORLD, kc, aval, rc)
  call check(rc == MPI_SUCCESS, 'MPI 4.1 §7.7.2: MPI_Comm_set_attr from C on a Fortran keyval')
  got = 0
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, kc, got, flag, ierr)
  call check(ierr == MPI_SUCCESS .and. flag .and. got == aval, &
       'MPI 4.1 §20.3.7: C set / Fortran MPI_COMM_GET_ATTR gives the C value as an integer')
  ival = 0
  call MPI_ATTR_GET(MPI_COMM_WORLD, kc, ival, flag, ierr)
  call check(ierr == MPI_SUCCESS .and. flag .and. ival == -5 * (rank + 1), &
       'MPI 4.1 §20.3.7: C set / Fortran MPI_ATTR_GET gives the low part of the value')

  big = -(int(rank + 1, MPI_ADDRESS_KIND) * 2_MPI_ADDRESS_KIND**40) - 3
  call MPI_COMM_SET_ATTR(MPI_COMM_WORLD, kf, big, ierr)
  call c_get_aint(MPI_COMM_WORLD, kf, got, flagi)
  call check(flagi == 1 .and. got == big, &
       'MPI 4.1 §20.3.7: Fortran MPI_COMM_SET_ATTR / C get gives an MPI_Aint* to the value')
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, kf, got, flag, ierr)
  call check(flag .and. got == big, 'MPI 4.1 §20.3.7: Fortran reads its own value back')

  call MPI_ATTR_PUT(MPI_COMM_WORLD, kp, -1 - rank, ierr)
  call c_get_int(MPI_COMM_WORLD, kp, ival, flagi)
  call check(flagi == 1 .and. ival == -1 - rank, &
       'MPI 4.1 §20.3.7: Fortran MPI_ATTR_PUT / C get gives an int* to the value')
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, kp, got, flag, ierr)
  call check(flag .and. got == int(-1 - rank, MPI_ADDRESS_KIND), &
       'MPI 4.1 §20.3.7: an MPI_ATTR_PUT value is sign-extended for MPI_COMM_GET_ATTR')
  call c_delete(MPI_COMM_WORLD, kp, rc)
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, kp, got, flag, ierr)
  call check(rc == MPI_SUCCESS .and. .not. flag, 'MPI 4.1 §7.7.2: C deletes a Fortran-set attribute')

  ! --- MPI_COMM_DUP_FN on a Fortran-set value, read from C after the original is freed -----
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, kd, 0_MPI_ADDRESS_KIND, ierr)
  call MPI_COMM_DUP(MPI_COMM_WORLD, d0, ierr)
  call set_local(d0, kd, 424242 + rank)
  call MPI_COMM_DUP(d0, d1, ierr)
  call MPI_COMM_FREE(d0, ierr)
  call c_get_aint(d1, kd, got, flagi)
  call check(flagi == 1 .and. got == 424242 + rank, &
       'MPI 4.1 §7.7.2, §20.3.7: MPI_COMM_DUP_FN copies a Fortran value; C reads it after the original is freed')
  call c_dup(d1, d2, rc)
  call c_free(d1, rc)
  call MPI_COMM_GET_ATTR(d2, kd, got, flag, ierr)
  call check(flag .and. got == 424242 + rank, &
       'MPI 4.1 §7.7.2: MPI_Comm_dup from C copies the Fortran value with MPI_COMM_DUP_FN')
  call c_get_aint(d2, kd, got, flagi)
  call check(flagi == 1 .and. got == 424242 + rank, 'MPI 4.1 §20.3.7: C reads the copy as MPI_Aint*')
  call MPI_COMM_FREE(d2, ierr)

  ! --- Fortran callbacks, driven from Fortran and from C --------------------------------
  extra = 77 + rank
  call MPI_COMM_CREATE_KEYVAL(f_copy, f_delete, kcb, extra, ierr)
  extra = -1 ! the keyval keeps its own copy
  call MPI_COMM_SET_ATTR(MPI_COMM_WORLD, kcb, int(10 * rank, MPI_ADDRESS_KIND), ierr)
  call MPI_COMM_DUP(MPI_COMM_WORLD, e1, ierr)
  call check(ncopy == 1, 'MPI 4.1 §7.7.2: Fortran MPI_COMM_DUP runs the Fortran copy callback once')
  call check(seen_extra == 77 + rank, 'MPI 4.1 §7.7.2: the callback gets the keyval''s extra_state')
  call MPI_COMM_GET_ATTR(e1, kcb, got, flag, ierr)
  call check(flag .and. got == 10 * rank + 1000, 'MPI 4.1 §7.7.2: the dup holds this rank''s copied value')
  call MPI_ALLREDUCE(got, sumv, 1, MPI_INTEGER8, MPI_SUM, e1, ierr)
  want = 0
  do i = 0, nproc - 1
     want = want + 10 * i + 1000
  end do
  call check(ierr == MPI_SUCCESS .and. sumv == want, &
       'MPI 4.1 §6.9.6: MPI_ALLREDUCE over the dup sums every rank''s own copied value')
  saved = e1
  call MPI_COMM_FREE(e1, ierr)
  call check(ndelete == 1 .and. del_comm == saved .and. del_val == 10 * rank + 1000, &
       'MPI 4.1 §7.7.2: Fortran MPI_COMM_FREE runs the Fortran delete callback once with the freed handle')
  call check(e1 == MPI_COMM_NULL, 'MPI 4.1 §7.4.3: MPI_COMM_FREE sets the handle to MPI_COMM_NULL')

  call c_dup(MPI_COMM_WORLD, e2, rc)
  call check(rc == MPI_SUCCESS .and. ncopy == 2, 'MPI 4.1 §7.7.2: MPI_Comm_dup from C runs the Fortran copy callback')
  call c_free(e2, rc)
  call check(rc == MPI_SUCCESS .and. ndelete == 2 .and. del_comm == e2, &
       'MPI 4.1 §7.7.2: MPI_Comm_free from C runs the Fortran delete callback with the freed handle')
  call check(seen_extra == 77 + rank, 'MPI 4.1 §7.7.2: extra_state from C-driven callbacks too')

  call MPI_COMM_IDUP(MPI_COMM_WORLD, e3, req, ierr)
  call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
  call check(ncopy == 3, 'MPI 4.1 §7.4.2: Fortran MPI_COMM_IDUP runs the copy callback')
  call MPI_COMM_DUP_WITH_INFO(MPI_COMM_WORLD, MPI_INFO_NULL, e4, ierr)
  call check(ncopy == 4, 'MPI 4.1 §7.4.2: Fortran MPI_COMM_DUP_WITH_INFO runs the copy callback')
  call MPI_COMM_GET_ATTR(e4, kcb, got, flag, ierr)
  call check(flag .and. got == 10 * rank + 1000, 'MPI 4.1 §7.4.2: the dup_with_info holds the copy')
  saved = e3
  call MPI_COMM_FREE(e3, ierr)
  call check(ndelete == 3 .and. del_comm == saved, 'MPI 4.1 §7.7.2: delete callback on the idup')
  saved = e4
  call MPI_COMM_DISCONNECT(e4, ierr)
  call check(ierr == MPI_SUCCESS .and. ndelete == 4 .and. del_comm == saved, &
       'MPI 4.1 §11.10.4: Fortran MPI_COMM_DISCONNECT runs the delete callback')

  ! --- an MPI-1 INTEGER copy callback returning -1 (MPI 4.1 §20.3.7: sign extension) -----
  call MPI_KEYVAL_CREATE(f_copy1, MPI_NULL_DELETE_FN, k1, 0, ierr)
  call MPI_ATTR_PUT(MPI_COMM_WORLD, k1, 5 + rank, ierr)
  call MPI_COMM_DUP(MPI_COMM_WORLD, e5, ierr)
  call check(ncopy1 == 1, 'MPI 4.1 §7.7.2: MPI_COMM_DUP runs the MPI-1 copy callback once')
  call MPI_COMM_GET_ATTR(e5, k1, got, flag, ierr)
  call check(flag .and. got == -1_MPI_ADDRESS_KIND, &
       'MPI 4.1 §20.3.7: the INTEGER -1 of an MPI-1 copy callback reads as -1 (sign-extended)')
  call c_get_int(e5, k1, ival, flagi)
  call check(flagi == 1 .and. ival == -1, 'MPI 4.1 §20.3.7: C reads it through an int*')

  ! --- deleting an attribute that is not set ---------------------------------------------
  call MPI_COMM_DELETE_ATTR(e5, kcb, ierr)
  call MPI_COMM_DELETE_ATTR(e5, kcb, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI 4.1 §7.7.2: deleting an attribute that is not set is not an error')
  call check(ndelete == 5, 'MPI 4.1 §7.7.2: the delete callback ran once for the one that was set')
  call MPI_COMM_FREE(e5, ierr)

  ! --- split: no attributes are carried --------------------------------------------------
  call MPI_COMM_SPLIT(MPI_COMM_WORLD, mod(rank, 2), rank, s, ierr)
  call MPI_COMM_GET_ATTR(s, kcb, got, flag, ierr)
  call check(.not. flag .and. ncopy == 5, 'MPI 4.1 §7.7: MPI_COMM_SPLIT carries no attributes')
  call MPI_COMM_FREE(s, ierr)

  ! --- a window across ranks --------------------------------------------------------------
  buf = 0
  wsize = 4 * (rank + 1)
  call MPI_WIN_CREATE(buf, wsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call MPI_GET_ADDRESS(buf(1), base, ierr)
  call MPI_WIN_GET_ATTR(win, MPI_WIN_BASE, v, flag, ierr)
  call check(flag .and. v == base, 'MPI 4.1 §12.2.6: Fortran MPI_WIN_BASE is the address of this rank''s buffer')
  call MPI_WIN_GET_ATTR(win, MPI_WIN_SIZE, v, flag, ierr)
  call check(flag .and. v == wsize, 'MPI 4.1 §12.2.6: Fortran MPI_WIN_SIZE is this rank''s size')
  call MPI_WIN_GET_ATTR(win, MPI_WIN_DISP_UNIT, v, flag, ierr)
  call check(flag .and. v == 4, 'MPI 4.1 §12.2.6: Fortran MPI_WIN_DISP_UNIT')
  call MPI_WIN_CREATE_KEYVAL(MPI_WIN_NULL_COPY_FN, w_delete, kw, 0_MPI_ADDRESS_KIND, ierr)
  call MPI_WIN_SET_ATTR(win, kw, int(rank, MPI_ADDRESS_KIND), ierr)
  call MPI_WIN_FENCE(0, win, ierr)
  putval = rank + 1
  call MPI_PUT(putval, 1, MPI_INTEGER, mod(rank + 1, nproc), 0_MPI_ADDRESS_KIND, 1, MPI_INTEGER, win, ierr)
  call MPI_WIN_FENCE(0, win, ierr)
  call check(buf(1) == mod(rank + nproc - 1, nproc) + 1, 'MPI 4.1 §12.3.1: MPI_PUT across ranks')
  saved = win
  call MPI_WIN_FREE(win, ierr)
  call check(ierr == MPI_SUCCESS .and. nwdel == 1 .and. del_win == saved, &
       'MPI 4.1 §7.7.3: Fortran MPI_WIN_FREE runs the delete callback once with the window')
  call MPI_WIN_FREE_KEYVAL(kw, ierr)

  ! --- datatypes ---------------------------------------------------------------------------
  call MPI_TYPE_CONTIGUOUS(rank + 1, MPI_INTEGER, t, ierr)
  call MPI_TYPE_CREATE_KEYVAL(MPI_TYPE_DUP_FN, t_delete, kt, 0_MPI_ADDRESS_KIND, ierr)
  call MPI_TYPE_SET_ATTR(t, kt, int(-3 * rank - 1, MPI_ADDRESS_KIND), ierr)
  call MPI_TYPE_DUP(t, t2, ierr)
  call MPI_TYPE_GET_ATTR(t2, kt, got, flag, ierr)
  call check(flag .and. got == -3 * rank - 1, 'MPI 4.1 §5.1.10, §7.7.4: MPI_TYPE_DUP copies with MPI_TYPE_DUP_FN')
  call MPI_TYPE_FREE(t2, ierr)
  call MPI_TYPE_FREE(t, ierr)
  call check(ntdel == 2, 'MPI 4.1 §7.7.4: MPI_TYPE_FREE runs the delete callback once per type')
  call MPI_TYPE_FREE_KEYVAL(kt, ierr)

  ! --- handles handed out again (issue 17) -----------------------------------------------
  ! A communicator from MPI_COMM_SPLIT (which the layer does not intercept) often gets the
  ! freed one's Fortran handle back: it has no attribute all the same, whether the old one
  ! was freed from Fortran or from C.
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, kr, 0_MPI_ADDRESS_KIND, ierr)
  do i = 1, 20
     call MPI_COMM_SPLIT(MPI_COMM_WORLD, 0, rank, r1, ierr)
     flag = .true.
     call MPI_COMM_GET_ATTR(r1, kr, got, flag, ierr)
     call check(ierr == MPI_SUCCESS .and. .not. flag, &
          'MPI 4.1 §7.7.2: a new communicator has no attribute, whatever its handle named before')
     call MPI_COMM_SET_ATTR(r1, kr, int(i + 100 * rank, MPI_ADDRESS_KIND), ierr)
     call MPI_COMM_GET_ATTR(r1, kr, got, flag, ierr)
     call check(flag .and. got == i + 100 * rank, 'MPI 4.1 §7.7.2: the value set reads back')
     if (mod(i, 2) == 0) then
        call MPI_COMM_FREE(r1, ierr)
     else
        call c_free(r1, rc)
     end if
  end do
  call MPI_COMM_FREE_KEYVAL(kr, ierr)

  ! --- MPI_COMM_SELF at finalize ---------------------------------------------------------
  do i = 1, 3
     call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, self_delete, ks(i), 0_MPI_ADDRESS_KIND, ierr)
     call MPI_COMM_SET_ATTR(MPI_COMM_SELF, ks(i), int(i + 10 * rank, MPI_ADDRESS_KIND), ierr)
  end do
  call MPI_COMM_DELETE_ATTR(MPI_COMM_WORLD, kcb, ierr)
  call check(ndelete == 6, 'MPI 4.1 §7.7.2: MPI_COMM_DELETE_ATTR runs the delete callback')
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  call MPI_FINALIZE(ierr)
  call check(norder == 3, 'MPI 4.1 §11.2.4: MPI_FINALIZE deletes MPI_COMM_SELF''s attributes')
  call check(order(1) == 3 + 10 * rank .and. order(2) == 2 + 10 * rank .and. order(3) == 1 + 10 * rank, &
       'MPI 4.1 §11.2.4: in reverse order of setting')
  call check(.not. finalized_inside, 'MPI 4.1 §11.2.4: MPI_FINALIZED is false inside them')

  print '(A,I0,A,I0,A)', 'mp_fortran rank ', rank, ': ', nfail, ' failure(s)'
  if (nfail /= 0) stop 1

contains

  subroutine check(cond, what)
    logical, intent(in) :: cond
    character(len=*), intent(in) :: what
    if (.not. cond) then
       print '(A,I0,A,A)', 'FAILED rank ', rank, ': ', what
       nfail = nfail + 1
    end if
  end subroutine check

  ! Sets the attribute from a local variable that goes away on return.
  subroutine set_local(comm, keyval, value)
    integer, intent(in) :: comm, keyval, value
    integer(kind=MPI_ADDRESS_KIND) :: local
    integer :: ierr2
    local = value
    call MPI_COMM_SET_ATTR(comm, keyval, local, ierr2)
  end subroutine set_local

end program mp_fortran
