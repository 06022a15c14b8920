! Freeing keyvals that attributes still use, from Fortran (`use mpi` and mpif.h).
! MPI 4.1 §7.7.2 MPI_COMM_FREE_KEYVAL: "the actual free does not transpire until after all
! references ... to the key have been freed. These references need to be explicitly freed by the
! program, either via calls to MPI_COMM_DELETE_ATTR that free one attribute instance, or by calls
! to MPI_COMM_FREE"; §7.7.3 and §7.7.4 the same for windows and datatypes; MPI-1 §5.7.1 the same
! for MPI_KEYVAL_FREE and MPI_ATTR_DELETE.
! Until its last attribute goes, a saved copy of the freed number names the attributes it has:
! *_GET_ATTR / MPI_ATTR_GET find them (FLAG = .FALSE. on an object without one), *_DELETE_ATTR /
! MPI_ATTR_DELETE release one, an overwrite replaces one (delete routine first), MPI_COMM_DUP
! still copies. A set creating an attribute under it and a second free are MPI_ERR_KEYVAL and
! change nothing; with the last attribute gone every call with the number is MPI_ERR_KEYVAL.
module kfstate
#ifdef USE_MPIF_H
  implicit none
  include 'mpif.h'
#else
  use mpi
  implicit none
#endif
  integer :: ncopy = 0, ndelete = 0
  integer(kind=MPI_ADDRESS_KIND) :: last_deleted = -1
end module kfstate

subroutine kf_copy(oldcomm, keyval, extra_state, val_in, val_out, flag, ierr)
  use kfstate
  implicit none
  integer :: oldcomm, keyval, ierr
  integer(kind=MPI_ADDRESS_KIND) :: extra_state, val_in, val_out
  logical :: flag
  ncopy = ncopy + 1
  val_out = val_in + 1
  flag = .true.
  ierr = MPI_SUCCESS
  if (oldcomm == MPI_COMM_NULL .or. keyval == MPI_KEYVAL_INVALID .or. extra_state /= 7) ierr = MPI_ERR_OTHER
end subroutine kf_copy

subroutine kf_delete(obj, keyval, val, extra_state, ierr)
  use kfstate
  implicit none
  integer :: obj, keyval, ierr  ! a communicator, datatype or window
  integer(kind=MPI_ADDRESS_KIND) :: val, extra_state
  ndelete = ndelete + 1
  last_deleted = val
  ierr = MPI_SUCCESS
  if (keyval == MPI_KEYVAL_INVALID .or. extra_state /= 7) ierr = MPI_ERR_OTHER
end subroutine kf_delete

subroutine kf_delete_int(comm, keyval, val, extra_state, ierr)
  use kfstate
  implicit none
  integer :: comm, keyval, val, extra_state, ierr
  ndelete = ndelete + 1
  last_deleted = val
  ierr = MPI_SUCCESS
  if (comm == MPI_COMM_NULL .or. keyval == MPI_KEYVAL_INVALID .or. extra_state /= 0) ierr = MPI_ERR_OTHER
end subroutine kf_delete_int

program keyval_free_in_use
  use kfstate
  implicit none
  external :: kf_copy, kf_delete, kf_delete_int
  integer :: ierr, nfail, k, saved, comm, other, dupc, dtype, otype, win, owin, cls, i, ival, kept
  integer(kind=MPI_ADDRESS_KIND) :: es, val, big, wsize
  logical :: flag
  integer :: buf(16), buf2(16)

  nfail = 0
  call MPI_INIT(ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_DUP(MPI_COMM_WORLD, comm, ierr)
  call MPI_COMM_DUP(MPI_COMM_WORLD, other, ierr)
  big = 2_MPI_ADDRESS_KIND**40
  es = 7

  ! Communicators.
  call MPI_COMM_CREATE_KEYVAL(kf_copy, kf_delete, k, es, ierr)
  saved = k
  val = big + 1
  call MPI_COMM_SET_ATTR(comm, k, val, ierr)
  call MPI_COMM_FREE_KEYVAL(k, ierr)
  call check(ierr == MPI_SUCCESS .and. k == MPI_KEYVAL_INVALID, &
             '7.7.2: MPI_COMM_FREE_KEYVAL of a keyval in use: MPI_SUCCESS, MPI_KEYVAL_INVALID', nfail)
  val = 0
  call MPI_COMM_GET_ATTR(comm, saved, val, flag, ierr)
  call check(ierr == MPI_SUCCESS .and. flag .and. val == big + 1, &
             '7.7.2: MPI_COMM_GET_ATTR with the freed keyval finds its attribute', nfail)
  val = -5
  call MPI_COMM_GET_ATTR(other, saved, val, flag, ierr)
  call check(ierr == MPI_SUCCESS .and. .not. flag .and. val == -5, &
             '7.7.2: ... on a communicator without it: FLAG = .FALSE., value untouched', nfail)
  val = 3
  call MPI_COMM_SET_ATTR(other, saved, val, ierr)
  call MPI_ERROR_CLASS(ierr, cls, i)
  call check(cls == MPI_ERR_KEYVAL, '7.7.2: MPI_COMM_SET_ATTR cannot create an attribute under a freed keyval', nfail)
  call MPI_COMM_GET_ATTR(other, saved, val, flag, ierr)
  call check(ierr == MPI_SUCCESS .and. .not. flag, '7.7.2: ... and created none', nfail)
  k = saved
  call MPI_COMM_FREE_KEYVAL(k, ierr)
  call MPI_ERROR_CLASS(ierr, cls, i)
  call check(cls == MPI_ERR_KEYVAL .and. k == saved, &
             '7.7.2: freeing it again is MPI_ERR_KEYVAL and leaves the variable alone', nfail)
  call check(ndelete == 0, '7.7.2: the failed calls ran no delete routine', nfail)
  val = big + 2
  call MPI_COMM_SET_ATTR(comm, saved, val, ierr)
  call check(ierr == MPI_SUCCESS .and. ndelete == 1 .and. last_deleted == big + 1, &
             '7.7.2: an overwrite under the freed keyval runs the delete routine on the old value', nfail)
  call MPI_COMM_DUP(comm, dupc, ierr)
  call check(ierr == MPI_SUCCESS .and. ncopy == 1, '7.7.2: MPI_COMM_DUP runs the freed keyval''s copy routine', nfail)
  call MPI_COMM_GET_ATTR(dupc, saved, val, flag, ierr)
  call check(flag .and. val == big + 3, '7.7.2: the copy is found with the freed keyval', nfail)
  call MPI_COMM_DELETE_ATTR(comm, saved, ierr)
  call check(ierr == MPI_SUCCESS .and. ndelete == 2 .and. last_deleted == big + 2, &
             '7.7.2: MPI_COMM_DELETE_ATTR with the freed keyval runs the delete routine', nfail)
  call MPI_COMM_DELETE_ATTR(other, saved, ierr)
  call check(ierr == MPI_SUCCESS .and. ndelete == 2, &
             '7.7.2: deleting where it is not set: MPI_SUCCESS, nothing called', nfail)
  call MPI_COMM_FREE(dupc, ierr)
  call check(ierr == MPI_SUCCESS .and. ndelete == 3 .and. last_deleted == big + 3, &
             '7.7.2: MPI_COMM_FREE deletes the last attribute', nfail)
  call MPI_COMM_GET_ATTR(comm, saved, val, flag, ierr)
  call MPI_ERROR_CLASS(ierr, cls, i)
  call check(cls == MPI_ERR_KEYVAL, '7.7.2: with its last attribute gone the number is invalid (get)', nfail)
  call MPI_COMM_DELETE_ATTR(comm, saved, ierr)
  call MPI_ERROR_CLASS(ierr, cls, i)
  call check(cls == MPI_ERR_KEYVAL, '7.7.2: ... (delete)', nfail)

  ! The deprecated MPI-1 forms.
  ndelete = 0
  call MPI_KEYVAL_CREATE(MPI_NULL_COPY_FN, kf_delete_int, k, 0, ierr)
  saved = k
  call MPI_ATTR_PUT(MPI_COMM_WORLD, k, -42, ierr)
  call MPI_KEYVAL_FREE(k, ierr)
  call check(ierr == MPI_SUCCESS .and. k == MPI_KEYVAL_INVALID, 'MPI-1 5.7.1: MPI_KEYVAL_FREE of a keyval in use', nfail)
  ival = 0
  call MPI_ATTR_GET(MPI_COMM_WORLD, saved, ival, flag, ierr)
  call check(ierr == MPI_SUCCESS .and. flag .and. ival == -42, &
             'MPI-1 5.7.1: MPI_ATTR_GET with the freed keyval finds its attribute', nfail)
  ival = 9
  call MPI_ATTR_GET(MPI_COMM_SELF, saved, ival, flag, ierr)
  call check(ierr == MPI_SUCCESS .and. .not. flag .and. ival == 9, 'MPI-1 5.7.1: ... FLAG = .FALSE. elsewhere', nfail)
  call MPI_ATTR_PUT(MPI_COMM_SELF, saved, 1, ierr)
  call MPI_ERROR_CLASS(ierr, cls, i)
  call check(cls == MPI_ERR_KEYVAL, '7.7.2: MPI_ATTR_PUT cannot create an attribute under a freed keyval', nfail)
  call MPI_ATTR_PUT(MPI_COMM_WORLD, saved, -43, ierr)
  call check(ierr == MPI_SUCCESS .and. ndelete == 1 .and. last_deleted == -42, &
             'MPI-1 5.7.1: MPI_ATTR_PUT overwrites it, the delete routine first', nfail)
  call MPI_ATTR_DELETE(MPI_COMM_WORLD, saved, ierr)
  call check(ierr == MPI_SUCCESS .and. ndelete == 2 .and. last_deleted == -43, &
             'MPI-1 5.7.1: MPI_ATTR_DELETE releases the last attribute', nfail)
  call MPI_ATTR_GET(MPI_COMM_WORLD, saved, ival, flag, ierr)
  call MPI_ERROR_CLASS(ierr, cls, i)
  call check(cls == MPI_ERR_KEYVAL, 'MPI-1 5.7.1: with its last attribute gone the number is invalid', nfail)

  ! Datatypes.
  ndelete = 0
  ncopy = 0
  call MPI_TYPE_CONTIGUOUS(2, MPI_INTEGER, dtype, ierr)
  call MPI_TYPE_CONTIGUOUS(3, MPI_INTEGER, otype, ierr)
  call MPI_TYPE_CREATE_KEYVAL(MPI_TYPE_DUP_FN, kf_delete, k, es, ierr)
  saved = k
  val = big + 10
  call MPI_TYPE_SET_ATTR(dtype, k, val, ierr)
  call MPI_TYPE_FREE_KEYVAL(k, ierr)
  call check(ierr == MPI_SUCCESS .and. k == MPI_KEYVAL_INVALID, '7.7.4: MPI_TYPE_FREE_KEYVAL of a keyval in use', nfail)
  call MPI_TYPE_GET_ATTR(dtype, saved, val, flag, ierr)
  call check(ierr == MPI_SUCCESS .and. flag .and. val == big + 10, &
             '7.7.4: MPI_TYPE_GET_ATTR with the freed keyval finds its attribute', nfail)
  call MPI_TYPE_GET_ATTR(otype, saved, val, flag, ierr)
  call check(ierr == MPI_SUCCESS .and. .not. flag, '7.7.4: ... FLAG = .FALSE. elsewhere', nfail)
  call MPI_TYPE_SET_ATTR(otype, saved, val, ierr)
  call MPI_ERROR_CLASS(ierr, cls, i)
  call check(cls == MPI_ERR_KEYVAL, '7.7.4: MPI_TYPE_SET_ATTR cannot create one under a freed keyval', nfail)
  k = saved
  call MPI_TYPE_FREE_KEYVAL(k, ierr)
  call MPI_ERROR_CLASS(ierr, cls, i)
  call check(cls == MPI_ERR_KEYVAL .and. k == saved, '7.7.4: freeing it again is MPI_ERR_KEYVAL', nfail)
  call MPI_TYPE_DELETE_ATTR(dtype, saved, ierr)
  call check(ierr == MPI_SUCCESS .and. ndelete == 1 .and. last_deleted == big + 10, &
             '7.7.4: MPI_TYPE_DELETE_ATTR releases the last attribute', nfail)
  call MPI_TYPE_GET_ATTR(dtype, saved, val, flag, ierr)
  call MPI_ERROR_CLASS(ierr, cls, i)
  call check(cls == MPI_ERR_KEYVAL, '7.7.4: with its last attribute gone the number is invalid', nfail)
  call MPI_TYPE_FREE(otype, ierr)
  call MPI_TYPE_FREE(dtype, ierr)

  ! Windows.
  ndelete = 0
  wsize = 64
  call MPI_WIN_CREATE(buf, wsize, 1, MPI_INFO_NULL, MPI_COMM_SELF, win, ierr)
  call MPI_WIN_CREATE(buf2, wsize, 1, MPI_INFO_NULL, MPI_COMM_SELF, owin, ierr)
  call MPI_WIN_SET_ERRHANDLER(win, MPI_ERRORS_RETURN, ierr)
  call MPI_WIN_SET_ERRHANDLER(owin, MPI_ERRORS_RETURN, ierr)
  call MPI_WIN_CREATE_KEYVAL(MPI_WIN_NULL_COPY_FN, kf_delete, k, es, ierr)
  saved = k
  val = big + 20
  call MPI_WIN_SET_ATTR(win, k, val, ierr)
  call MPI_WIN_FREE_KEYVAL(k, ierr)
  call check(ierr == MPI_SUCCESS .and. k == MPI_KEYVAL_INVALID, '7.7.3: MPI_WIN_FREE_KEYVAL of a keyval in use', nfail)
  call MPI_WIN_GET_ATTR(win, saved, val, flag, ierr)
  call check(ierr == MPI_SUCCESS .and. flag .and. val == big + 20, &
             '7.7.3: MPI_WIN_GET_ATTR with the freed keyval finds its attribute', nfail)
  call MPI_WIN_GET_ATTR(owin, saved, val, flag, ierr)
  call check(ierr == MPI_SUCCESS .and. .not. flag, '7.7.3: ... FLAG = .FALSE. elsewhere', nfail)
  call MPI_WIN_SET_ATTR(owin, saved, val, ierr)
  call MPI_ERROR_CLASS(ierr, cls, i)
  call check(cls == MPI_ERR_KEYVAL, '7.7.3: MPI_WIN_SET_ATTR cannot create one under a freed keyval', nfail)
  val = big + 21
  call MPI_WIN_SET_ATTR(win, saved, val, ierr)
  call check(ierr == MPI_SUCCESS .and. ndelete == 1 .and. last_deleted == big + 20, &
             '7.7.3: an overwrite runs the delete routine on the old value', nfail)
  call MPI_WIN_FREE(win, ierr)
  call check(ierr == MPI_SUCCESS .and. ndelete == 2 .and. last_deleted == big + 21, &
             '7.7.3: MPI_WIN_FREE deletes the last attribute', nfail)
  call MPI_WIN_DELETE_ATTR(owin, saved, ierr)
  call MPI_ERROR_CLASS(ierr, cls, i)
  call check(cls == MPI_ERR_KEYVAL, '7.7.3: with its last attribute gone the number is invalid', nfail)
  call MPI_WIN_FREE(owin, ierr)

  ! A library that frees its keyval at once and deletes its attribute later, over and over.
  kept = 0
  do i = 1, 3000
    call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, k, es, ierr)
    if (ierr /= MPI_SUCCESS) exit
    saved = k
    val = i
    call MPI_COMM_SET_ATTR(MPI_COMM_WORLD, k, val, ierr)
    call MPI_COMM_FREE_KEYVAL(k, ierr)
    call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, saved, val, flag, ierr)
    if (.not. flag .or. val /= i) exit
    call MPI_COMM_DELETE_ATTR(MPI_COMM_WORLD, saved, ierr)
    if (ierr /= MPI_SUCCESS) exit
    kept = kept + 1
  end do
  call check(kept == 3000, '7.7.2: create, set, free, get and delete with the saved number, 3000 times', nfail)

  call MPI_COMM_FREE(comm, ierr)
  call MPI_COMM_FREE(other, ierr)
  call MPI_FINALIZE(ierr)
  print '(A,I0,A)', 'keyval_free_in_use: ', nfail, ' failure(s)'
  if (nfail > 0) stop 1
contains
  include 'check.inc'
end program keyval_free_in_use
