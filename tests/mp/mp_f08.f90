! Multi-process mpi_f08 x C caching checks (issue 17 item 4), standard MPI only, linked with
! mp_fortran_c.c and run on 1, 2 and 4 processes by tests/layer_programs.rs. On every rank, with
! values that differ by rank: C set / f08 get, f08 set / C get (MPI_Aint*), the f08
! MPI_COMM_DUP_FN on an f08-set value read from C after the original is freed, f08 callbacks
! driven by f08 and by C dup/free (each once, the right handle, the keyval's extra_state),
! collectives over the dups, windows with the engine's MPI_WIN_BASE / MPI_WIN_SIZE /
! MPI_WIN_DISP_UNIT, datatypes, and MPI_COMM_SELF's finalize order. The optional ierror is
! left out where the result does not matter. Each rank prints "mp_f08 rank R: N failure(s)".
module mp08state
  use mpi_f08
  implicit none
  integer :: ncopy = 0, ndelete = 0, nwdel = 0, ntdel = 0, norder = 0
  integer :: del_comm = -12345, del_win = -12345
  integer(kind=MPI_ADDRESS_KIND) :: seen_extra = -7, del_val = -7, order(8)
  logical :: finalized_inside = .false.
contains
  subroutine f_copy(oldcomm, keyval, extra_state, val_in, val_out, flag, ierror)
    type(MPI_Comm) :: oldcomm
    integer :: keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, val_in, val_out
    logical :: flag
    ncopy = ncopy + 1
    seen_extra = extra_state
    val_out = val_in + 1000
    flag = .true.
    ierror = MPI_SUCCESS
  end subroutine f_copy

  subroutine f_delete(comm, keyval, val, extra_state, ierror)
    type(MPI_Comm) :: comm
    integer :: keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: val, extra_state
    ndelete = ndelete + 1
    del_comm = comm%MPI_VAL
    del_val = val
    seen_extra = extra_state
    ierror = MPI_SUCCESS
  end subroutine f_delete

  subroutine w_delete(win, keyval, val, extra_state, ierror)
    type(MPI_Win) :: win
    integer :: keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: val, extra_state
    nwdel = nwdel + 1
    del_win = win%MPI_VAL
    ierror = MPI_SUCCESS
  end subroutine w_delete

  subroutine t_delete(dtype, keyval, val, extra_state, ierror)
    type(MPI_Datatype) :: dtype
    integer :: keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: val, extra_state
    ntdel = ntdel + 1
    ierror = MPI_SUCCESS
  end subroutine t_delete

  subroutine self_delete(comm, keyval, val, extra_state, ierror)
    type(MPI_Comm) :: comm
    integer :: keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: val, extra_state
    logical :: fin
    call MPI_Finalized(fin)
    if (fin) finalized_inside = .true.
    norder = norder + 1
    if (norder <= 8) order(norder) = val
    ierror = MPI_SUCCESS
  end subroutine self_delete
end module mp08state

program mp_f08
  use mpi_f08
  use mp08state
  implicit none
  integer :: ierr, rank, nproc, nfail, i, rc, flagi, kc, kf, kd, kcb, kw, kt, ks(3), saved, d2i, e2i
  type(MPI_Comm) :: d0, d1, d2, e1, e3, e4, e5, s
  type(MPI_Win) :: win
  type(MPI_Datatype) :: t, t2
  type(MPI_Request) :: req
  integer(kind=MPI_ADDRESS_KIND) :: aval, big, got, extra, v, want, sumv, base, wsize
  integer, target :: buf(16)
  integer :: putval
  logical :: flag

  nfail = 0
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nproc)

  ! --- C set / f08 get, f08 set / C get (MPI 4.1 §20.3.7) --------------------------------
  call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, kc, 0_MPI_ADDRESS_KIND)
  call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, kf, 0_MPI_ADDRESS_KIND)
  aval = -5 * (rank + 1)
  call c_set(MPI_COMM_WORLD%MPI_VAL, kc, aval, rc)
  call MPI_Comm_get_attr(MPI_COMM_WORLD, kc, got, flag, ierr)
  call check(ierr == MPI_SUCCESS .and. flag .and. got == aval, &
       'MPI 4.1 §20.3.7: C set / mpi_f08 MPI_Comm_get_attr gives the C value as an integer')
  big = -(int(rank + 1, MPI_ADDRESS_KIND) * 2_MPI_ADDRESS_KIND**40) - 3
  call MPI_Comm_set_attr(MPI_COMM_WORLD, kf, big)
  call c_get_aint(MPI_COMM_WORLD%MPI_VAL, kf, got, flagi)
  call check(flagi == 1 .and. got == big, &
       'MPI 4.1 §20.3.7: mpi_f08 MPI_Comm_set_attr / C get gives an MPI_Aint* to the value')

  ! --- the f08 MPI_COMM_DUP_FN on an f08-set value, read from C after the original is freed
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, kd, 0_MPI_ADDRESS_KIND)
  call MPI_Comm_dup(MPI_COMM_WORLD, d0)
  call set_local(d0, kd, 424242 + rank)
  call MPI_Comm_dup(d0, d1)
  call MPI_Comm_free(d0)
  call c_get_aint(d1%MPI_VAL, kd, got, flagi)
  call check(flagi == 1 .and. got == 424242 + rank, &
       'MPI 4.1 §7.7.2, §20.3.7: the f08 MPI_COMM_DUP_FN copies the value; C reads it after the original is freed')
  call c_dup(d1%MPI_VAL, d2i, rc)
  call c_free(d1%MPI_VAL, rc)
  d2%MPI_VAL = d2i
  call MPI_Comm_get_attr(d2, kd, got, flag)
  call check(flag .and. got == 424242 + rank, &
       'MPI 4.1 §7.7.2: MPI_Comm_dup from C copies the f08 value with MPI_COMM_DUP_FN')
  call MPI_Comm_free(d2)

  ! --- f08 callbacks, driven from f08 and from C ------------------------------------------
  extra = 77 + rank
  call MPI_Comm_create_keyval(f_copy, f_delete, kcb, extra)
  extra = -1
  call MPI_Comm_set_attr(MPI_COMM_WORLD, kcb, int(10 * rank, MPI_ADDRESS_KIND))
  call MPI_Comm_dup(MPI_COMM_WORLD, e1)
  call check(ncopy == 1, 'MPI 4.1 §7.7.2: mpi_f08 MPI_Comm_dup runs the f08 copy callback once')
  call check(seen_extra == 77 + rank, 'MPI 4.1 §7.7.2: the callback gets the keyval''s extra_state')
  call MPI_Comm_get_attr(e1, kcb, got, flag)
  call check(flag .and. got == 10 * rank + 1000, 'MPI 4.1 §7.7.2: the dup holds this rank''s copied value')
  call MPI_Allreduce(got, sumv, 1, MPI_INTEGER8, MPI_SUM, e1, ierr)
  want = 0
  do i = 0, nproc - 1
     want = want + 10 * i + 1000
  end do
  call check(ierr == MPI_SUCCESS .and. sumv == want, &
       'MPI 4.1 §6.9.6: MPI_Allreduce over the dup sums every rank''s own copied value')
  saved = e1%MPI_VAL
  call MPI_Comm_free(e1)
  call check(ndelete == 1 .and. del_comm == saved .and. del_val == 10 * rank + 1000, &
       'MPI 4.1 §7.7.2: mpi_f08 MPI_Comm_free runs the f08 delete callback once with the freed handle')
  call check(e1 == MPI_COMM_NULL, 'MPI 4.1 §7.4.3: MPI_Comm_free sets the handle to MPI_COMM_NULL')
  call c_dup(MPI_COMM_WORLD%MPI_VAL, e2i, rc)
  call check(rc == MPI_SUCCESS .and. ncopy == 2, 'MPI 4.1 §7.7.2: MPI_Comm_dup from C runs the f08 copy callback')
  call c_free(e2i, rc)
  call check(rc == MPI_SUCCESS .and. ndelete == 2 .and. del_comm == e2i, &
       'MPI 4.1 §7.7.2: MPI_Comm_free from C runs the f08 delete callback with the freed handle')
  call MPI_Comm_idup(MPI_COMM_WORLD, e3, req)
  call MPI_Wait(req, MPI_STATUS_IGNORE)
  call check(ncopy == 3, 'MPI 4.1 §7.4.2: mpi_f08 MPI_Comm_idup runs the copy callback')
  call MPI_Comm_dup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, e4)
  call check(ncopy == 4, 'MPI 4.1 §7.4.2: mpi_f08 MPI_Comm_dup_with_info runs the copy callback')
  saved = e3%MPI_VAL
  call MPI_Comm_free(e3)
  call check(ndelete == 3 .and. del_comm == saved, 'MPI 4.1 §7.7.2: delete callback on the idup')
  saved = e4%MPI_VAL
  call MPI_Comm_disconnect(e4, ierr)
  call check(ierr == MPI_SUCCESS .and. ndelete == 4 .and. del_comm == saved, &
       'MPI 4.1 §11.10.4: mpi_f08 MPI_Comm_disconnect runs the delete callback')

  ! --- deleting an attribute that is not set -------------------------------------------
  call MPI_Comm_dup(MPI_COMM_WORLD, e5)
  call MPI_Comm_delete_attr(e5, kcb, ierr)
  call MPI_Comm_delete_attr(e5, kcb, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI 4.1 §7.7.2: deleting an attribute that is not set is not an error')
  call check(ndelete == 5, 'MPI 4.1 §7.7.2: the delete callback ran once for the one that was set')
  call MPI_Comm_free(e5)
  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), rank, s)
  call MPI_Comm_get_attr(s, kcb, got, flag)
  call check(.not. flag .and. ncopy == 5, 'MPI 4.1 §7.7: MPI_Comm_split carries no attributes')
  call MPI_Comm_free(s)

  ! --- a window across ranks ------------------------------------------------------------
  buf = 0
  wsize = 4 * (rank + 1)
  call MPI_Win_create(buf, wsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win)
  call MPI_Get_address(buf(1), base)
  call MPI_Win_get_attr(win, MPI_WIN_BASE, v, flag)
  call check(flag .and. v == base, 'MPI 4.1 §12.2.6: mpi_f08 MPI_WIN_BASE is the address of this rank''s buffer')
  call MPI_Win_get_attr(win, MPI_WIN_SIZE, v, flag)
  call check(flag .and. v == wsize, 'MPI 4.1 §12.2.6: mpi_f08 MPI_WIN_SIZE is this rank''s size')
  call MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, v, flag)
  call check(flag .and. v == 4, 'MPI 4.1 §12.2.6: mpi_f08 MPI_WIN_DISP_UNIT')
  call MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, w_delete, kw, 0_MPI_ADDRESS_KIND)
  call MPI_Win_set_attr(win, kw, int(rank, MPI_ADDRESS_KIND))
  call MPI_Win_fence(0, win)
  putval = rank + 1
  call MPI_Put(putval, 1, MPI_INTEGER, mod(rank + 1, nproc), 0_MPI_ADDRESS_KIND, 1, MPI_INTEGER, win)
  call MPI_Win_fence(0, win)
  call check(buf(1) == mod(rank + nproc - 1, nproc) + 1, 'MPI 4.1 §12.3.1: MPI_Put across ranks')
  saved = win%MPI_VAL
  call MPI_Win_free(win, ierr)
  call check(ierr == MPI_SUCCESS .and. nwdel == 1 .and. del_win == saved, &
       'MPI 4.1 §7.7.3: mpi_f08 MPI_Win_free runs the delete callback once with the window')
  call MPI_Win_free_keyval(kw)

  ! --- datatypes ---------------------------------------------------------------------------
  call MPI_Type_contiguous(rank + 1, MPI_INTEGER, t)
  call MPI_Type_create_keyval(MPI_TYPE_DUP_FN, t_delete, kt, 0_MPI_ADDRESS_KIND)
  call MPI_Type_set_attr(t, kt, int(-3 * rank - 1, MPI_ADDRESS_KIND))
  call MPI_Type_dup(t, t2)
  call MPI_Type_get_attr(t2, kt, got, flag)
  call check(flag .and. got == -3 * rank - 1, 'MPI 4.1 §5.1.10, §7.7.4: MPI_Type_dup copies with MPI_TYPE_DUP_FN')
  call MPI_Type_free(t2)
  call MPI_Type_free(t)
  call check(ntdel == 2, 'MPI 4.1 §7.7.4: MPI_Type_free runs the delete callback once per type')
  call MPI_Type_free_keyval(kt)

  ! --- MPI_COMM_SELF at finalize --------------------------------------------------------
  do i = 1, 3
     call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_delete, ks(i), 0_MPI_ADDRESS_KIND)
     call MPI_Comm_set_attr(MPI_COMM_SELF, ks(i), int(i + 10 * rank, MPI_ADDRESS_KIND))
  end do
  call MPI_Comm_delete_attr(MPI_COMM_WORLD, kcb)
  call check(ndelete == 6, 'MPI 4.1 §7.7.2: MPI_Comm_delete_attr runs the delete callback')
  call MPI_Barrier(MPI_COMM_WORLD)
  call MPI_Finalize()
  call check(norder == 3, 'MPI 4.1 §11.2.4: MPI_Finalize deletes MPI_COMM_SELF''s attributes')
  call check(order(1) == 3 + 10 * rank .and. order(2) == 2 + 10 * rank .and. order(3) == 1 + 10 * rank, &
       'MPI 4.1 §11.2.4: in reverse order of setting')
  call check(.not. finalized_inside, 'MPI 4.1 §11.2.4: MPI_Finalized is false inside them')

  print '(A,I0,A,I0,A)', 'mp_f08 rank ', rank, ': ', nfail, ' failure(s)'
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

  subroutine set_local(comm, keyval, value)
    type(MPI_Comm), intent(in) :: comm
    integer, intent(in) :: keyval, value
    integer(kind=MPI_ADDRESS_KIND) :: local
    local = value
    call MPI_Comm_set_attr(comm, keyval, local)
  end subroutine set_local

end program mp_f08
