! Smoke test of the layer's Fortran routines (use mpi / mpif.h spellings) over an engine MPI,
! run on 1 and 2 processes by tests/layer_smoke.rs. Each check names the rule it checks; any
! failure prints one line and stops with status 1.
module f_smoke_cb
  implicit none
  integer :: copies = 0, deletes = 0
contains
  subroutine copy_plus_one(oldcomm, keyval, extra_state, val_in, val_out, flag, ierror)
    use mpi
    integer :: oldcomm, keyval, ierror
    integer(kind=mpi_address_kind) :: extra_state, val_in, val_out
    logical :: flag
    val_out = val_in + 1 + extra_state
    flag = .true.
    copies = copies + 1
    ierror = mpi_success
  end subroutine
  subroutine count_delete(comm, keyval, val, extra_state, ierror)
    use mpi
    integer :: comm, keyval, ierror
    integer(kind=mpi_address_kind) :: val, extra_state
    deletes = deletes + 1
    ierror = mpi_success
  end subroutine
  subroutine copy_minus_five(oldcomm, keyval, extra_state, val_in, val_out, flag, ierror)
    integer :: oldcomm, keyval, extra_state, val_in, val_out, ierror
    logical :: flag
    val_out = -5
    flag = .true.
    ierror = 0
  end subroutine
end module

program f_smoke
  use mpi
  use f_smoke_cb
  implicit none
  integer :: ierr, rank, key, dupkey, oldkey, dup, tkey, t, t2
  integer(kind=mpi_address_kind) :: val, extra
  integer :: ival, c_read, key2, req, win, wkey
  integer :: wbuf(4)
  logical :: flag
  external :: c_read

  call mpi_init(ierr)
  call mpi_comm_rank(mpi_comm_world, rank, ierr)

  ! MPI 4.1 §7.7.2: a Fortran copy callback runs on MPI_COMM_DUP, extra_state by reference.
  extra = 10
  call mpi_comm_create_keyval(copy_plus_one, count_delete, key, extra, ierr)
  call check(ierr == mpi_success, 'create keyval')
  val = 100 + rank
  call mpi_comm_set_attr(mpi_comm_world, key, val, ierr)
  call mpi_comm_dup(mpi_comm_world, dup, ierr)
  call check(copies == 1, 'one copy callback on MPI_COMM_DUP')
  call mpi_comm_get_attr(dup, key, val, flag, ierr)
  call check(flag .and. val == 111 + rank, 'the copy callback''s value on the dup')
  call mpi_comm_free(dup, ierr)
  call check(deletes == 1 .and. dup == mpi_comm_null, 'MPI_COMM_FREE runs the delete callback')
  call mpi_comm_delete_attr(mpi_comm_world, key, ierr)
  call check(deletes == 2, 'MPI_COMM_DELETE_ATTR runs the delete callback')

  ! MPI 4.1 §20.3.7: a Fortran-set value copied by MPI_COMM_DUP_FN, read from C after the
  ! original is freed, is the same integer (C gets a pointer to an MPI_Aint holding it).
  call mpi_comm_create_keyval(mpi_comm_dup_fn, mpi_comm_null_delete_fn, dupkey, extra, ierr)
  call mpi_comm_dup(mpi_comm_world, t, ierr)
  val = 4242 + rank
  call mpi_comm_set_attr(t, dupkey, val, ierr)
  call mpi_comm_dup(t, dup, ierr)
  call mpi_comm_free(t, ierr)
  call check(c_read(dup, dupkey) == 4242 + rank, 'MPI_COMM_DUP_FN copy of a Fortran value read from C')
  call mpi_comm_free(dup, ierr)

  ! The engine's predefined attribute, with the engine's own Fortran keyval number.
  call mpi_comm_get_attr(mpi_comm_world, mpi_tag_ub, val, flag, ierr)
  call check(ierr == mpi_success .and. flag .and. val >= 32767, 'MPI_TAG_UB from Fortran')

  ! MPI 4.1 §20.3.7: an MPI_KEYVAL_CREATE copy callback's result is sign-extended.
  call mpi_keyval_create(copy_minus_five, mpi_null_delete_fn, oldkey, 0, ierr)
  call mpi_attr_put(mpi_comm_world, oldkey, 7, ierr)
  call mpi_comm_dup(mpi_comm_world, dup, ierr)
  call mpi_attr_get(dup, oldkey, ival, flag, ierr)
  call check(flag .and. ival == -5, 'MPI_ATTR_GET of an INTEGER copy callback''s result')
  call mpi_comm_get_attr(dup, oldkey, val, flag, ierr)
  call check(flag .and. val == -5, 'the INTEGER copy result sign-extended for ADDRESS_KIND readers')
  call mpi_comm_free(dup, ierr)

  ! Datatypes: MPI_TYPE_DUP copies, MPI_TYPE_FREE deletes.
  copies = 0
  deletes = 0
  extra = 0
  call mpi_type_contiguous(2, mpi_integer, t, ierr)
  call mpi_type_create_keyval(copy_plus_one, count_delete, tkey, extra, ierr)
  val = 5
  call mpi_type_set_attr(t, tkey, val, ierr)
  call mpi_type_dup(t, t2, ierr)
  call mpi_type_get_attr(t2, tkey, val, flag, ierr)
  call check(flag .and. val == 6 .and. copies == 1, 'MPI_TYPE_DUP runs the copy callback')
  call mpi_type_free(t2, ierr)
  call mpi_type_free(t, ierr)
  call check(deletes == 2, 'MPI_TYPE_FREE runs the delete callbacks')

  ! MPI_COMM_IDUP / MPI_COMM_DUP_WITH_INFO run the copy callback, MPI_COMM_DISCONNECT and
  ! MPI_WIN_FREE the delete callbacks, from Fortran (the engines' bindings skip the C routines).
  copies = 0
  deletes = 0
  extra = 0
  call mpi_comm_create_keyval(copy_plus_one, count_delete, key2, extra, ierr)
  val = 50
  call mpi_comm_set_attr(mpi_comm_world, key2, val, ierr)
  call mpi_comm_idup(mpi_comm_world, dup, req, ierr)
  call mpi_wait(req, mpi_status_ignore, ierr)
  call mpi_comm_get_attr(dup, key2, val, flag, ierr)
  call check(flag .and. val == 51 .and. copies == 1, 'MPI_COMM_IDUP runs the copy callback')
  call mpi_comm_disconnect(dup, ierr)
  call check(deletes == 1 .and. dup == mpi_comm_null, 'MPI_COMM_DISCONNECT runs the delete callback')
  call mpi_comm_dup_with_info(mpi_comm_world, mpi_info_null, dup, ierr)
  call mpi_comm_get_attr(dup, key2, val, flag, ierr)
  call check(flag .and. val == 51 .and. copies == 2, 'MPI_COMM_DUP_WITH_INFO runs the copy callback')
  call mpi_comm_free(dup, ierr)
  call mpi_comm_delete_attr(mpi_comm_world, key2, ierr)
  call check(deletes == 3, 'MPI_COMM_DELETE_ATTR runs the delete callback')
  call mpi_comm_free_keyval(key2, ierr)
  deletes = 0
  call mpi_win_create(wbuf, 4_mpi_address_kind * 4, 4, mpi_info_null, mpi_comm_world, win, ierr)
  call mpi_win_create_keyval(mpi_win_null_copy_fn, count_delete, wkey, extra, ierr)
  val = 9
  call mpi_win_set_attr(win, wkey, val, ierr)
  call mpi_win_get_attr(win, wkey, val, flag, ierr)
  call check(flag .and. val == 9, 'a window attribute from Fortran')
  call mpi_win_get_attr(win, mpi_win_size, val, flag, ierr)
  call check(flag .and. val == 16, 'the engine''s MPI_WIN_SIZE from Fortran')
  call mpi_win_free(win, ierr)
  call check(deletes == 1 .and. win == mpi_win_null, 'MPI_WIN_FREE runs the delete callback')
  call mpi_win_free_keyval(wkey, ierr)

  ! MPI 4.1 §7.7.2: the freed keyval variable is MPI_KEYVAL_INVALID.
  call mpi_type_free_keyval(tkey, ierr)
  call check(tkey == mpi_keyval_invalid, 'a freed keyval is MPI_KEYVAL_INVALID')

  if (rank == 0) print '(a)', 'fortran smoke ok'
  call mpi_finalize(ierr)
  call check(ierr == mpi_success, 'finalize')
contains
  subroutine check(cond, what)
    logical, intent(in) :: cond
    character(*), intent(in) :: what
    if (.not. cond) then
      print '(a,i0,2a)', 'rank ', rank, ': FAILED ', what
      stop 1
    end if
  end subroutine
end program
