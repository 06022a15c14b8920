! Pattern 5b: a C library caches a reference-counted struct on communicators (f_mixed_c.c, a C
! keyval with C callbacks), while this Fortran program dups and frees them. MPI 4.1 §20.3.7:
! the C callbacks run from Fortran's MPI_COMM_DUP / MPI_COMM_IDUP / MPI_COMM_FREE / MPI_FINALIZE,
! see the C handle of the Fortran communicator (§20.3.4), and Fortran's MPI_COMM_GET_ATTR of
! the C attribute returns the C address as an integer; the C library reading a Fortran-set
! attribute (MPI_COMM_DUP_FN-copied) gets a pointer to an MPI_Aint holding the value.
! Standard MPI only (use mpi); the C half is reached through BIND(C) interfaces.
module clib
  use iso_c_binding, only: c_int, c_intptr_t
  use mpi
  implicit none
  interface
    subroutine clib_attach(comm, ierr) bind(C, name='clib_attach')
      import :: c_int
      integer(c_int) :: comm, ierr
    end subroutine
    subroutine clib_refcount(comm, count) bind(C, name='clib_refcount')
      import :: c_int
      integer(c_int) :: comm, count
    end subroutine
    subroutine clib_same_state(comm1, comm2, same) bind(C, name='clib_same_state')
      import :: c_int
      integer(c_int) :: comm1, comm2, same
    end subroutine
    subroutine clib_keyval(key) bind(C, name='clib_keyval')
      import :: c_int
      integer(c_int) :: key
    end subroutine
    subroutine clib_is_state_address(comm, addr, ok) bind(C, name='clib_is_state_address')
      import :: c_int, c_intptr_t
      integer(c_int) :: comm, ok
      integer(c_intptr_t) :: addr   ! MPI_Aint
    end subroutine
    subroutine clib_read_fortran_attr(comm, key, value, flag, ierr) bind(C, name='clib_read_fortran_attr')
      import :: c_int, c_intptr_t
      integer(c_int) :: comm, key, flag, ierr
      integer(c_intptr_t) :: value   ! MPI_Aint
    end subroutine
    subroutine clib_free_keyval(ierr) bind(C, name='clib_free_keyval')
      import :: c_int
      integer(c_int) :: ierr
    end subroutine
    subroutine clib_counts(copies, deletes, live, bad, finalized_inside) bind(C, name='clib_counts')
      import :: c_int
      integer(c_int) :: copies, deletes, live, bad, finalized_inside
    end subroutine
    subroutine clib_last_comms(copy_comm, delete_comm) bind(C, name='clib_last_comms')
      import :: c_int
      integer(c_int) :: copy_comm, delete_comm
    end subroutine
  end interface
end module clib

program f_mixed
  use clib
  implicit none
  integer :: ierr, npass, nfail, user, d1, d2, d3, req, ckey, fkey, cnt, same, ok
  integer :: copies, deletes, live, bad, fin_inside, last_copy, last_delete, iflag, orig
  integer :: status(MPI_STATUS_SIZE)
  integer(kind=MPI_ADDRESS_KIND) :: addr, v, es
  logical :: flag

  npass = 0
  nfail = 0
  call MPI_INIT(ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)

  ! ---- the C library caches on a Fortran-made communicator ----
  call MPI_COMM_DUP(MPI_COMM_WORLD, user, ierr)
  call clib_attach(user, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI 4.1 §7.7.3: the C library sets its attribute on a Fortran handle')
  call clib_keyval(ckey)
  call MPI_COMM_GET_ATTR(user, ckey, addr, flag, ierr)
  call check(ierr == MPI_SUCCESS .and. flag, 'MPI 4.1 §20.3.7: Fortran reads the C library''s attribute')
  call clib_is_state_address(user, addr, ok)
  call check(ok == 1, 'MPI 4.1 §20.3.7: a C-set attribute reads in Fortran as the address, as an integer')

  ! ---- a Fortran attribute copied by MPI_COMM_DUP_FN, read from C ----
  es = 0
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, fkey, es, ierr)
  v = 2_MPI_ADDRESS_KIND**33 + 9
  call MPI_COMM_SET_ATTR(user, fkey, v, ierr)

  ! ---- Fortran dups: the C copy callback runs, with the C handle of the Fortran communicator ----
  call MPI_COMM_DUP(user, d1, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI 4.1 §7.4.2: MPI_COMM_DUP from Fortran with a C copy callback')
  call clib_last_comms(last_copy, last_delete)
  call check(last_copy == user, 'MPI 4.1 §20.3.4, §7.7.2: the C copy callback got the communicator Fortran dup''ed')
  call clib_refcount(d1, cnt)
  call check(cnt == 2, 'MPI 4.1 §7.7.6: the C copy callback incremented the count')
  call clib_same_state(user, d1, same)
  call check(same == 1, 'MPI 4.1 §7.7.2: the dup shares the C state')
  call MPI_COMM_IDUP(d1, d2, req, ierr)
  call MPI_WAIT(req, status, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI 4.1 §7.4.2: MPI_COMM_IDUP + MPI_WAIT from Fortran')
  call clib_last_comms(last_copy, last_delete)
  call check(last_copy == d1, 'MPI 4.1 §20.3.4: the copy callback got d1''s C handle')
  call MPI_COMM_DUP_WITH_INFO(d2, MPI_INFO_NULL, d3, ierr)
  call clib_refcount(d3, cnt)
  call check(cnt == 4, 'MPI 4.1 §7.7.6: count 4 after dup, idup, dup_with_info')
  call clib_read_fortran_attr(d3, fkey, v, iflag, ierr)
  call check(ierr == MPI_SUCCESS .and. iflag /= 0 .and. v == 2_MPI_ADDRESS_KIND**33 + 9, &
             'MPI 4.1 §20.3.7: C reads the MPI_COMM_DUP_FN-copied Fortran value through an MPI_Aint*')
  call MPI_COMM_GET_ATTR(d3, ckey, addr, flag, ierr)
  call clib_is_state_address(user, addr, ok)
  call check(flag .and. ok == 1, 'MPI 4.1 §20.3.7: the dup''s C attribute is the same address')

  ! ---- Fortran frees, not in creation order: the C delete callback runs ----
  orig = user
  call MPI_COMM_FREE(user, ierr)
  call check(ierr == MPI_SUCCESS .and. user == MPI_COMM_NULL, 'MPI 4.1 §7.4.3: MPI_COMM_FREE from Fortran')
  call clib_last_comms(last_copy, last_delete)
  call check(last_delete == orig, 'MPI 4.1 §20.3.4, §7.7.2: the C delete callback got the C handle of the communicator Fortran freed')
  call clib_refcount(d2, cnt)
  call check(cnt == 3, 'MPI 4.1 §7.7.2: the C delete callback decremented the count')
  call MPI_COMM_FREE(d3, ierr)
  call MPI_COMM_FREE(d1, ierr)
  call clib_refcount(d2, cnt)
  call check(cnt == 1, 'MPI 4.1 §7.7.2: two more frees, two more decrements')
  call MPI_COMM_FREE(d2, ierr)
  call clib_counts(copies, deletes, live, bad, fin_inside)
  call check(copies == 3 .and. deletes == 4 .and. live == 0, &
             'MPI 4.1 §7.7.6: 3 copies, 4 deletes, the struct freed with the last communicator')

  ! ---- on MPI_COMM_WORLD and a dup Fortran leaves: the C library frees its keyval, then
  ! MPI_FINALIZE deletes both (README "Documented outcomes") ----
  call clib_attach(MPI_COMM_WORLD, ierr)
  call MPI_COMM_DUP(MPI_COMM_WORLD, d1, ierr)
  call clib_refcount(d1, cnt)
  call check(cnt == 2, 'MPI 4.1 §7.7.2: a Fortran dup of MPI_COMM_WORLD shares the C state')
  call clib_free_keyval(ierr)
  call check(ierr == MPI_SUCCESS, 'MPI 4.1 §7.7.2: the C library frees its keyval while in use')
  call MPI_COMM_FREE_KEYVAL(fkey, ierr)

  call MPI_FINALIZE(ierr)
  call check(ierr == MPI_SUCCESS, 'MPI 4.1 §11.2.2: MPI_FINALIZE')
  call clib_counts(copies, deletes, live, bad, fin_inside)
  call check(copies == 4 .and. deletes == 6, 'README Documented outcomes: MPI_FINALIZE ran the C delete callback once for WORLD and the dup')
  call check(live == 0, 'README Documented outcomes: the C state is freed by MPI_FINALIZE')
  call check(bad == 0, 'MPI 4.1 §7.7.2: the C callbacks always got their keyval, extra_state and a live struct')
  call check(fin_inside == 0, 'MPI 4.1 §11.2.4 / README: MPI_Finalized is false inside the callbacks')

  print '(A,I0,A,I0,A)', 'f_mixed: ', npass, ' passed, ', nfail, ' failed'
  if (nfail > 0) stop 1

contains

  subroutine check(cond, what)
    logical, intent(in) :: cond
    character(len=*), intent(in) :: what
    if (cond) then
      npass = npass + 1
    else
      nfail = nfail + 1
      print '(A,A)', 'FAILED: ', what
    end if
  end subroutine check
end program f_mixed
