! Freeing keyvals that attributes still use, with mpi_f08 (typed handles, OPTIONAL ierror).
! MPI 4.1 §7.7.2 MPI_Comm_free_keyval: "the actual free does not transpire until after all
! references ... to the key have been freed", by MPI_Comm_delete_attr or MPI_Comm_free; §7.7.3
! and §7.7.4 the same for windows and datatypes. Until then a saved copy of the number finds
! the attributes it has (flag = .false. elsewhere), deletes and overwrites them, and
! MPI_Comm_dup / MPI_Type_dup copy them; a set creating one under it and a second free are
! MPI_ERR_KEYVAL and change nothing; once the last attribute is gone the number is invalid.
module f08kf
  use mpi_f08
  implicit none
  integer :: ncopy = 0, ndelete = 0
  integer(kind=MPI_ADDRESS_KIND) :: last_deleted = -1
contains
  subroutine comm_copy(oldcomm, comm_keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror)
    type(MPI_Comm) :: oldcomm
    integer :: comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    ncopy = ncopy + 1
    attribute_val_out = attribute_val_in + 1
    flag = .true.
    ierror = MPI_SUCCESS
    if (oldcomm == MPI_COMM_NULL .or. comm_keyval == MPI_KEYVAL_INVALID .or. extra_state /= 5) ierror = MPI_ERR_OTHER
  end subroutine comm_copy
  subroutine comm_delete(comm, comm_keyval, attribute_val, extra_state, ierror)
    type(MPI_Comm) :: comm
    integer :: comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    ndelete = ndelete + 1
    last_deleted = attribute_val
    ierror = MPI_SUCCESS
    if (comm == MPI_COMM_NULL .or. comm_keyval == MPI_KEYVAL_INVALID .or. extra_state /= 5) ierror = MPI_ERR_OTHER
  end subroutine comm_delete
  subroutine type_copy(oldtype, type_keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror)
    type(MPI_Datatype) :: oldtype
    integer :: type_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    ncopy = ncopy + 1
    attribute_val_out = -attribute_val_in
    flag = .true.
    ierror = MPI_SUCCESS
    if (oldtype == MPI_DATATYPE_NULL .or. type_keyval == MPI_KEYVAL_INVALID .or. extra_state /= 5) ierror = MPI_ERR_OTHER
  end subroutine type_copy
  subroutine type_delete(datatype, type_keyval, attribute_val, extra_state, ierror)
    type(MPI_Datatype) :: datatype
    integer :: type_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    ndelete = ndelete + 1
    last_deleted = attribute_val
    ierror = MPI_SUCCESS
    if (datatype == MPI_DATATYPE_NULL .or. type_keyval == MPI_KEYVAL_INVALID .or. extra_state /= 5) ierror = MPI_ERR_OTHER
  end subroutine type_delete
  subroutine win_delete(win, win_keyval, attribute_val, extra_state, ierror)
    type(MPI_Win) :: win
    integer :: win_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    ndelete = ndelete + 1
    last_deleted = attribute_val
    ierror = MPI_SUCCESS
    if (win == MPI_WIN_NULL .or. win_keyval == MPI_KEYVAL_INVALID .or. extra_state /= 5) ierror = MPI_ERR_OTHER
  end subroutine win_delete
end module f08kf

program f08_keyval_free
  use f08kf
  implicit none
  type(MPI_Comm) :: comm, other, dupc
  type(MPI_Datatype) :: dtype, otype, tdup
  type(MPI_Win) :: win, owin
  integer :: ierr, nfail, k, saved, cls, i, kept
  integer(kind=MPI_ADDRESS_KIND) :: es, val, big
  logical :: flag
  integer :: buf(16), buf2(16)

  nfail = 0
  call MPI_Init(ierr)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, comm, ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, other, ierr)
  big = 2_MPI_ADDRESS_KIND**40
  es = 5

  ! Communicators.
  call MPI_Comm_create_keyval(comm_copy, comm_delete, k, es, ierr)
  saved = k
  val = big + 1
  call MPI_Comm_set_attr(comm, k, val, ierr)
  call MPI_Comm_free_keyval(k, ierr)
  call check(ierr == MPI_SUCCESS .and. k == MPI_KEYVAL_INVALID, '7.7.2: MPI_Comm_free_keyval of a keyval in use', nfail)
  val = 0
  call MPI_Comm_get_attr(comm, saved, val, flag, ierr)
  call check(ierr == MPI_SUCCESS .and. flag .and. val == big + 1, &
             '7.7.2: MPI_Comm_get_attr with the freed keyval finds its attribute', nfail)
  ! mpi_f08 declares attribute_val INTENT(OUT) (the MPI 4.1 §7.7.2 binding): it is undefined on entry and,
  ! with flag = .false., on return, so only the flag is checked (gfortran drops a store to val
  ! before the call, as it may: over MPICH val then still holds the value read above).
  call MPI_Comm_get_attr(other, saved, val, flag)   ! ierror absent
  call check(.not. flag, '7.7.2: ... flag = .false. on a communicator without it', nfail)
  call MPI_Comm_set_attr(other, saved, val, ierr)
  call MPI_Error_class(ierr, cls)
  call check(cls == MPI_ERR_KEYVAL, '7.7.2: MPI_Comm_set_attr cannot create an attribute under a freed keyval', nfail)
  k = saved
  call MPI_Comm_free_keyval(k, ierr)
  call MPI_Error_class(ierr, cls)
  call check(cls == MPI_ERR_KEYVAL .and. k == saved, '7.7.2: freeing it again is MPI_ERR_KEYVAL, variable untouched', nfail)
  call check(ndelete == 0, '7.7.2: the failed calls ran no delete routine', nfail)
  val = big + 2
  call MPI_Comm_set_attr(comm, saved, val, ierr)
  call check(ierr == MPI_SUCCESS .and. ndelete == 1 .and. last_deleted == big + 1, &
             '7.7.2: an overwrite runs the delete routine on the old value', nfail)
  call MPI_Comm_dup(comm, dupc, ierr)
  call check(ierr == MPI_SUCCESS .and. ncopy == 1, '7.7.2: MPI_Comm_dup runs the freed keyval''s copy routine', nfail)
  call MPI_Comm_get_attr(dupc, saved, val, flag, ierr)
  call check(flag .and. val == big + 3, '7.7.2: the copy is found with the freed keyval', nfail)
  call MPI_Comm_delete_attr(comm, saved, ierr)
  call check(ierr == MPI_SUCCESS .and. ndelete == 2 .and. last_deleted == big + 2, &
             '7.7.2: MPI_Comm_delete_attr with the freed keyval', nfail)
  call MPI_Comm_free(dupc, ierr)
  call check(ierr == MPI_SUCCESS .and. ndelete == 3 .and. last_deleted == big + 3, &
             '7.7.2: MPI_Comm_free deletes the last attribute', nfail)
  call MPI_Comm_get_attr(comm, saved, val, flag, ierr)
  call MPI_Error_class(ierr, cls)
  call check(cls == MPI_ERR_KEYVAL, '7.7.2: with its last attribute gone the number is invalid', nfail)

  ! Datatypes.
  ndelete = 0
  ncopy = 0
  call MPI_Type_contiguous(2, MPI_INTEGER, dtype, ierr)
  call MPI_Type_contiguous(3, MPI_INTEGER, otype, ierr)
  call MPI_Type_create_keyval(type_copy, type_delete, k, es, ierr)
  saved = k
  val = big + 10
  call MPI_Type_set_attr(dtype, k, val, ierr)
  call MPI_Type_free_keyval(k, ierr)
  call check(ierr == MPI_SUCCESS .and. k == MPI_KEYVAL_INVALID, '7.7.4: MPI_Type_free_keyval of a keyval in use', nfail)
  call MPI_Type_get_attr(dtype, saved, val, flag, ierr)
  call check(ierr == MPI_SUCCESS .and. flag .and. val == big + 10, '7.7.4: MPI_Type_get_attr finds its attribute', nfail)
  call MPI_Type_get_attr(otype, saved, val, flag, ierr)
  call check(ierr == MPI_SUCCESS .and. .not. flag, '7.7.4: ... flag = .false. elsewhere', nfail)
  call MPI_Type_set_attr(otype, saved, val, ierr)
  call MPI_Error_class(ierr, cls)
  call check(cls == MPI_ERR_KEYVAL, '7.7.4: MPI_Type_set_attr cannot create one under a freed keyval', nfail)
  call MPI_Type_dup(dtype, tdup, ierr)
  call check(ierr == MPI_SUCCESS .and. ncopy == 1, '7.7.4: MPI_Type_dup runs the freed keyval''s copy routine', nfail)
  call MPI_Type_get_attr(tdup, saved, val, flag, ierr)
  call check(flag .and. val == -(big + 10), '7.7.4: the copy is found with the freed keyval', nfail)
  call MPI_Type_free(dtype, ierr)
  call check(ierr == MPI_SUCCESS .and. ndelete == 1 .and. last_deleted == big + 10, &
             '7.7.4: MPI_Type_free deletes one attribute', nfail)
  call MPI_Type_delete_attr(tdup, saved, ierr)
  call check(ierr == MPI_SUCCESS .and. ndelete == 2 .and. last_deleted == -(big + 10), &
             '7.7.4: MPI_Type_delete_attr releases the last attribute', nfail)
  call MPI_Type_delete_attr(otype, saved, ierr)
  call MPI_Error_class(ierr, cls)
  call check(cls == MPI_ERR_KEYVAL, '7.7.4: with its last attribute gone the number is invalid', nfail)
  call MPI_Type_free(tdup, ierr)
  call MPI_Type_free(otype, ierr)

  ! Windows.
  ndelete = 0
  call MPI_Win_create(buf, 64_MPI_ADDRESS_KIND, 1, MPI_INFO_NULL, MPI_COMM_SELF, win, ierr)
  call MPI_Win_create(buf2, 64_MPI_ADDRESS_KIND, 1, MPI_INFO_NULL, MPI_COMM_SELF, owin, ierr)
  call MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN, ierr)
  call MPI_Win_set_errhandler(owin, MPI_ERRORS_RETURN, ierr)
  call MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, win_delete, k, es, ierr)
  saved = k
  val = big + 20
  call MPI_Win_set_attr(win, k, val, ierr)
  call MPI_Win_free_keyval(k, ierr)
  call check(ierr == MPI_SUCCESS .and. k == MPI_KEYVAL_INVALID, '7.7.3: MPI_Win_free_keyval of a keyval in use', nfail)
  call MPI_Win_get_attr(win, saved, val, flag, ierr)
  call check(ierr == MPI_SUCCESS .and. flag .and. val == big + 20, '7.7.3: MPI_Win_get_attr finds its attribute', nfail)
  call MPI_Win_get_attr(owin, saved, val, flag, ierr)
  call check(ierr == MPI_SUCCESS .and. .not. flag, '7.7.3: ... flag = .false. elsewhere', nfail)
  call MPI_Win_set_attr(owin, saved, val, ierr)
  call MPI_Error_class(ierr, cls)
  call check(cls == MPI_ERR_KEYVAL, '7.7.3: MPI_Win_set_attr cannot create one under a freed keyval', nfail)
  call MPI_Win_delete_attr(win, saved, ierr)
  call check(ierr == MPI_SUCCESS .and. ndelete == 1 .and. last_deleted == big + 20, &
             '7.7.3: MPI_Win_delete_attr releases the last attribute', nfail)
  call MPI_Win_get_attr(win, saved, val, flag, ierr)
  call MPI_Error_class(ierr, cls)
  call check(cls == MPI_ERR_KEYVAL, '7.7.3: with its last attribute gone the number is invalid', nfail)
  call MPI_Win_free(win, ierr)
  call MPI_Win_free(owin, ierr)

  ! Free early, delete later, many times over.
  kept = 0
  do i = 1, 3000
    call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, k, es, ierr)
    if (ierr /= MPI_SUCCESS) exit
    saved = k
    val = i
    call MPI_Comm_set_attr(MPI_COMM_WORLD, k, val, ierr)
    call MPI_Comm_free_keyval(k, ierr)
    call MPI_Comm_get_attr(MPI_COMM_WORLD, saved, val, flag, ierr)
    if (.not. flag .or. val /= i) exit
    call MPI_Comm_delete_attr(MPI_COMM_WORLD, saved, ierr)
    if (ierr /= MPI_SUCCESS) exit
    kept = kept + 1
  end do
  call check(kept == 3000, '7.7.2: create, set, free, get and delete with the saved number, 3000 times', nfail)

  call MPI_Comm_free(comm, ierr)
  call MPI_Comm_free(other, ierr)
  call MPI_Finalize(ierr)
  print '(A,I0,A)', 'f08_keyval_free: ', nfail, ' failure(s)'
  if (nfail > 0) stop 1
contains
  include 'check.inc'
end program f08_keyval_free
