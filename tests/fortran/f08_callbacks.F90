! Callbacks with mpi_f08 (MPI 4.1 §7.7.2-§7.7.4, §20.3.7; docs/DESIGN.md "Keyvals and callbacks"):
! user copy and delete routines written against the abstract interfaces
! MPI_{Comm,Type,Win}_{copy,delete}_attr_function, called by the library with the Fortran
! ADDRESS_KIND convention (typed handle = the INTEGER by reference) on MPI_Comm_dup /
! MPI_Type_dup / *_free from Fortran and from C; their results read from C; C callbacks
! driven from mpi_f08; the predefined MPI_COMM_DUP_FN & co. recognised by the library (a DUP
! keeps the value AND its provenance: a C pointer stays that pointer); extra_state captured
! at creation; a failing copy callback fails the dup with its code.
module f08cb
  use mpi_f08
  implicit none
  integer :: ncopy = 0, ndelete = 0, ret_ierr = 0
  integer :: seen_obj = -1, seen_keyval = -1
  integer(kind=MPI_ADDRESS_KIND) :: seen_extra = -1, seen_val = -1
contains
  subroutine comm_copy(oldcomm, comm_keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror)
    type(MPI_Comm) :: oldcomm
    integer :: comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    ncopy = ncopy + 1
    seen_obj = oldcomm%MPI_VAL
    seen_keyval = comm_keyval
    seen_extra = extra_state
    seen_val = attribute_val_in
    attribute_val_out = attribute_val_in + 1000
    flag = .true.
    ierror = ret_ierr
  end subroutine comm_copy
  subroutine comm_delete(comm, comm_keyval, attribute_val, extra_state, ierror)
    type(MPI_Comm) :: comm
    integer :: comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    ndelete = ndelete + 1
    seen_obj = comm%MPI_VAL
    seen_keyval = comm_keyval
    seen_val = attribute_val
    seen_extra = extra_state
    ierror = MPI_SUCCESS
  end subroutine comm_delete
  subroutine type_copy(oldtype, type_keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror)
    type(MPI_Datatype) :: oldtype
    integer :: type_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    ncopy = ncopy + 1
    seen_obj = oldtype%MPI_VAL
    seen_keyval = type_keyval
    seen_extra = extra_state
    seen_val = attribute_val_in
    attribute_val_out = -attribute_val_in
    flag = .true.
    ierror = MPI_SUCCESS
  end subroutine type_copy
  subroutine type_delete(datatype, type_keyval, attribute_val, extra_state, ierror)
    type(MPI_Datatype) :: datatype
    integer :: type_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    ndelete = ndelete + 1
    seen_obj = datatype%MPI_VAL
    seen_keyval = type_keyval
    seen_val = attribute_val
    seen_extra = extra_state
    ierror = MPI_SUCCESS
  end subroutine type_delete
  subroutine win_copy(oldwin, win_keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror)
    type(MPI_Win) :: oldwin
    integer :: win_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    ncopy = ncopy + 1
    attribute_val_out = attribute_val_in
    flag = .false.
    ierror = MPI_SUCCESS
    if (oldwin%MPI_VAL == win_keyval .and. extra_state == 0) ierror = MPI_SUCCESS
  end subroutine win_copy
  subroutine win_delete(win, win_keyval, attribute_val, extra_state, ierror)
    type(MPI_Win) :: win
    integer :: win_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    ndelete = ndelete + 1
    seen_obj = win%MPI_VAL
    seen_keyval = win_keyval
    seen_val = attribute_val
    seen_extra = extra_state
    ierror = MPI_SUCCESS
  end subroutine win_delete
end module f08cb

program f08_callbacks
  use mpi_f08
  use f08cb
  implicit none
  integer :: nfail = 0, ierr, k, kc, rc, h, cc, cd, cc0, cd0, flagi
  integer(kind=MPI_ADDRESS_KIND) :: extra, val, ptr, deref, addr
  logical :: flag
  type(MPI_Comm) :: comm, dup, dup2
  type(MPI_Datatype) :: dtype, tdup
  type(MPI_Win) :: win
  integer :: buf(4)

  call MPI_Init(ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, comm)

  ! --- communicators: Fortran callbacks, dup from Fortran and from C -------------------------
  extra = 99
  call MPI_Comm_create_keyval(comm_copy, comm_delete, k, extra, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Comm_create_keyval with mpi_f08 callbacks', nfail)
  extra = 12345   ! extra_state is IN: the keyval keeps the value it had (MPI 4.1 §20.3.8)
  call MPI_Comm_set_attr(comm, k, 7_MPI_ADDRESS_KIND)
  call MPI_Comm_dup(comm, dup, ierr)
  call check(ierr == MPI_SUCCESS .and. ncopy == 1, 'MPI_Comm_dup calls the copy routine once', nfail)
  call check(seen_obj == comm%MPI_VAL, 'copy routine gets TYPE(MPI_Comm) oldcomm', nfail)
  call check(seen_keyval == k, 'copy routine gets the keyval', nfail)
  call check(seen_extra == 99, 'copy routine gets extra_state as created', nfail)
  call check(seen_val == 7, 'copy routine gets attribute_val_in', nfail)
  call MPI_Comm_get_attr(dup, k, val, flag)
  call check(flag .and. val == 1007, 'the copy result is on the dup', nfail)
  call c_get(0, dup%MPI_VAL, k, ptr, deref, flagi)
  call check(flagi /= 0 .and. deref == 1007, 'C reads the copy result as a pointer to an MPI_Aint', nfail)
  ! Dup from C of an object with mpi_f08 callbacks.
  call c_comm_dup(dup%MPI_VAL, h, rc)
  dup2%MPI_VAL = h
  call check(rc == MPI_SUCCESS .and. ncopy == 2 .and. seen_obj == dup%MPI_VAL, 'C MPI_Comm_dup calls the mpi_f08 copy routine', nfail)
  call MPI_Comm_get_attr(dup2, k, val, flag)
  call check(flag .and. val == 2007, 'C dup: result stored as Fortran ADDRESS_KIND', nfail)
  ! Delete routines on free, from Fortran and from C.
  call MPI_Comm_free(dup2)
  call check(ndelete == 1 .and. seen_val == 2007 .and. seen_obj == h .and. seen_extra == 99, 'MPI_Comm_free calls the delete routine', nfail)
  h = dup%MPI_VAL
  call c_comm_free(h, rc)
  call check(rc == MPI_SUCCESS .and. ndelete == 2 .and. seen_val == 1007, 'C MPI_Comm_free calls the mpi_f08 delete routine', nfail)
  ! A failing copy routine fails the dup with its code.
  ret_ierr = MPI_ERR_OTHER
  call MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN)
  call MPI_Comm_dup(comm, dup, ierr)
  call check(ierr == MPI_ERR_OTHER, 'a failing copy routine fails MPI_Comm_dup with its code', nfail)
  ret_ierr = 0
  call MPI_Comm_delete_attr(comm, k, ierr)
  call check(ierr == MPI_SUCCESS .and. seen_val == 7, 'MPI_Comm_delete_attr calls the delete routine', nfail)
  call MPI_Comm_free_keyval(k)

  ! --- a C keyval with C callbacks, driven from mpi_f08 --------------------------------------
  call c_counts(cc0, cd0)
  call c_keyval_and_set(0, comm%MPI_VAL, kc)
  call MPI_Comm_get_attr(comm, kc, val, flag)
  call check(flag .and. val == 500, 'mpi_f08 reads the C-set (void*)500 as 500', nfail)
  call MPI_Comm_dup(comm, dup)
  call c_counts(cc, cd)
  call check(cc == cc0 + 1, 'mpi_f08 MPI_Comm_dup calls the C copy callback', nfail)
  call MPI_Comm_get_attr(dup, kc, val, flag)
  call check(flag .and. val == 501, 'the C copy result, read from mpi_f08', nfail)
  call MPI_Comm_free(dup)
  call c_counts(cc, cd)
  call check(cd == cd0 + 1, 'mpi_f08 MPI_Comm_free calls the C delete callback', nfail)
  call MPI_Comm_free_keyval(kc)

  ! --- predefined callbacks are recognised: a DUP keeps value and provenance -----------------
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, k, 0_MPI_ADDRESS_KIND)
  call c_set_target(0, comm%MPI_VAL, k, addr)
  call MPI_Comm_dup(comm, dup)
  call c_get(0, dup%MPI_VAL, k, ptr, deref, flagi)
  call check(flagi /= 0 .and. ptr == addr, 'MPI_COMM_DUP_FN (mpi_f08): C reads the same C pointer on the dup', nfail)
  call MPI_Comm_set_attr(comm, k, 2_MPI_ADDRESS_KIND**40)
  call MPI_Comm_free(dup)
  call MPI_Comm_dup(comm, dup)
  call MPI_Comm_get_attr(dup, k, val, flag)
  call check(flag .and. val == 2_MPI_ADDRESS_KIND**40, 'MPI_COMM_DUP_FN copies 2**40', nfail)
  call MPI_Comm_free(dup)
  call MPI_Comm_free_keyval(k)
  call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, k, 0_MPI_ADDRESS_KIND)
  call MPI_Comm_set_attr(comm, k, 5_MPI_ADDRESS_KIND)
  call MPI_Comm_dup(comm, dup)
  call MPI_Comm_get_attr(dup, k, val, flag)
  call check(.not. flag, 'MPI_COMM_NULL_COPY_FN: nothing on the dup', nfail)
  call MPI_Comm_free(dup)
  call MPI_Comm_free_keyval(k)
  ! The predefined routines can be called like any routine of their interface.
  flag = .false.
  call MPI_COMM_DUP_FN(comm, 1, extra, 5_MPI_ADDRESS_KIND, val, flag, ierr)
  call check(flag .and. val == 5 .and. ierr == MPI_SUCCESS, 'calling MPI_COMM_DUP_FN directly', nfail)

  ! --- datatypes --------------------------------------------------------------------------------
  ncopy = 0
  ndelete = 0
  call MPI_Type_contiguous(3, MPI_INTEGER, dtype)
  call MPI_Type_create_keyval(type_copy, type_delete, k, 5_MPI_ADDRESS_KIND, ierr)
  call MPI_Type_set_attr(dtype, k, 2_MPI_ADDRESS_KIND**40)
  call MPI_Type_dup(dtype, tdup, ierr)
  call check(ierr == MPI_SUCCESS .and. ncopy == 1 .and. seen_obj == dtype%MPI_VAL .and. seen_extra == 5 &
       .and. seen_val == 2_MPI_ADDRESS_KIND**40, 'MPI_Type_dup calls the mpi_f08 type copy routine', nfail)
  call MPI_Type_get_attr(tdup, k, val, flag)
  call check(flag .and. val == -(2_MPI_ADDRESS_KIND**40), 'type copy result on the dup', nfail)
  call c_get(1, tdup%MPI_VAL, k, ptr, deref, flagi)
  call check(flagi /= 0 .and. deref == -(2_MPI_ADDRESS_KIND**40), 'C reads the type copy result (MPI_Aint*)', nfail)
  call c_type_dup(tdup%MPI_VAL, h, rc)
  call check(rc == MPI_SUCCESS .and. ncopy == 2 .and. seen_obj == tdup%MPI_VAL, 'C MPI_Type_dup calls the mpi_f08 copy routine', nfail)
  call c_type_free(h, rc)
  call check(rc == MPI_SUCCESS .and. ndelete == 1 .and. seen_val == 2_MPI_ADDRESS_KIND**40, 'C MPI_Type_free calls the mpi_f08 delete routine', nfail)
  call MPI_Type_free(tdup)
  call check(ndelete == 2 .and. seen_val == -(2_MPI_ADDRESS_KIND**40), 'MPI_Type_free calls the delete routine', nfail)
  call MPI_Type_free_keyval(k)
  ! C keyval with C callbacks on a datatype, dup from mpi_f08.
  call c_keyval_and_set(1, dtype%MPI_VAL, kc)
  call MPI_Type_dup(dtype, tdup)
  call MPI_Type_get_attr(tdup, kc, val, flag)
  call check(flag .and. val == 502, 'C type copy callback driven by mpi_f08 MPI_Type_dup', nfail)
  call MPI_Type_free(tdup)
  call MPI_Type_free_keyval(kc)
  ! MPI_TYPE_DUP_FN keeps a C pointer a C pointer.
  call MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, k, 0_MPI_ADDRESS_KIND)
  call c_set_target(1, dtype%MPI_VAL, k, addr)
  call MPI_Type_dup(dtype, tdup)
  call c_get(1, tdup%MPI_VAL, k, ptr, deref, flagi)
  call check(flagi /= 0 .and. ptr == addr, 'MPI_TYPE_DUP_FN (mpi_f08): the same C pointer on the dup', nfail)
  call MPI_Type_free(tdup)
  call MPI_Type_free_keyval(k)
  call MPI_Type_free(dtype)

  ! --- windows: delete routines on MPI_Win_free; copy routines never run ---------------------
  ncopy = 0
  ndelete = 0
  call MPI_Win_create(buf, 16_MPI_ADDRESS_KIND, 4, MPI_INFO_NULL, MPI_COMM_SELF, win)
  call MPI_Win_create_keyval(win_copy, win_delete, k, 3_MPI_ADDRESS_KIND)
  call MPI_Win_set_attr(win, k, -9_MPI_ADDRESS_KIND)
  call c_keyval_and_set(2, win%MPI_VAL, kc)
  call c_counts(cc0, cd0)
  call MPI_Win_create_keyval(MPI_WIN_DUP_FN, MPI_WIN_NULL_DELETE_FN, kc, 0_MPI_ADDRESS_KIND)
  call MPI_Win_set_attr(win, kc, 1_MPI_ADDRESS_KIND)
  h = win%MPI_VAL
  call MPI_Win_free(win)
  call c_counts(cc, cd)
  call check(ndelete == 1 .and. seen_obj == h .and. seen_val == -9 .and. seen_extra == 3 .and. seen_keyval == k, &
       'MPI_Win_free calls the mpi_f08 win delete routine', nfail)
  call check(cd == cd0 + 1, 'MPI_Win_free (mpi_f08) calls the C win delete callback', nfail)
  call check(ncopy == 0, 'window copy routines never run', nfail)
  call MPI_Win_free_keyval(k)
  call MPI_Win_free_keyval(kc)

  call MPI_Comm_free(comm)
  call MPI_Finalize()
  print '(1X,I0,A)', nfail, ' failure(s)'
  if (nfail /= 0) stop 1
contains
#include "check.inc"
end program f08_callbacks
