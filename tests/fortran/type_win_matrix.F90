! The writer x reader matrix of MPI 4.1 §20.3.7 (docs/DESIGN.md "What each reader gets") for
! datatypes and windows, on objects created in Fortran and in C: C MPI_{Type,Win}_set_attr
! writes a pointer and (void*)17, Fortran MPI_{TYPE,WIN}_SET_ATTR writes 42, -7 and 2**40
! (MPI_ATTR_PUT is communicator-only); every value is read from C (type_win_matrix_c.c) and
! from Fortran ADDRESS_KIND. Then the predefined window attributes read from Fortran
! (MPI 4.1 §12.2.6) for MPI_WIN_CREATE, MPI_WIN_ALLOCATE and MPI_WIN_CREATE_DYNAMIC windows.
! Built with `use mpi` and, with -DUSE_MPIF_H, with include 'mpif.h'.
program type_win_matrix
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer, c_null_ptr
#ifdef USE_MPIF_H
  implicit none
  include 'mpif.h'
#else
  use mpi
  implicit none
#endif
  integer, parameter :: KTYPE = 1, KWIN = 2
  integer :: ierr, nfail, i, rlen
  integer :: ftype, ctype, fwin, cwin, awin, dwin, obj, kind, group, gsize, nprocs
  integer :: buf(10)
  integer(kind=MPI_ADDRESS_KIND) :: cbase, bufaddr, abase, big, sz, aval
  integer, pointer :: amem(:)
  logical :: flag
  character(len=MPI_MAX_OBJECT_NAME) :: name

  nfail = 0
  call MPI_INIT(ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  big = 2_MPI_ADDRESS_KIND**40

  ! Objects created in Fortran ...
  call MPI_TYPE_CONTIGUOUS(4, MPI_INTEGER, ftype, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_TYPE_CONTIGUOUS succeeds', nfail)
  call MPI_TYPE_COMMIT(ftype, ierr)
  buf = 0
  sz = 40
  call MPI_WIN_CREATE(buf(1), sz, 4, MPI_INFO_NULL, MPI_COMM_WORLD, fwin, ierr)
  call check(ierr == MPI_SUCCESS .and. fwin /= MPI_WIN_NULL, 'MPI_WIN_CREATE succeeds', nfail)
  ! MPI 4.1 §9.3.2: a new window's handler is MPI_ERRORS_ARE_FATAL, not the communicator's.
  call MPI_WIN_SET_ERRHANDLER(fwin, MPI_ERRORS_RETURN, ierr)
  ! ... and in C.
  call c_make_objects(ctype, cwin, cbase, nfail)

  ! The matrix, on every (kind, object) pair.
  do i = 1, 4
    select case (i)
    case (1)
      kind = KTYPE
      obj = ftype
    case (2)
      kind = KTYPE
      obj = ctype
    case (3)
      kind = KWIN
      obj = fwin
    case default
      kind = KWIN
      obj = cwin
    end select
    call matrix(kind, obj)
  end do

  ! MPI 4.1 §5.1.4, §7.8: datatype and window names set from Fortran are trimmed of trailing
  ! blanks and read back from Fortran blank-padded.
  call MPI_TYPE_SET_NAME(ftype, 'four integers   ', ierr)
  name = 'x'
  call MPI_TYPE_GET_NAME(ftype, name, rlen, ierr)
  call check(ierr == MPI_SUCCESS .and. name == 'four integers' .and. rlen == 13, &
             'MPI_TYPE_SET_NAME / MPI_TYPE_GET_NAME round trip', nfail)
  call MPI_WIN_SET_NAME(fwin, 'a window', ierr)
  call MPI_WIN_GET_NAME(fwin, name, rlen, ierr)
  call check(ierr == MPI_SUCCESS .and. name == 'a window' .and. rlen == 8, &
             'MPI_WIN_SET_NAME / MPI_WIN_GET_NAME round trip', nfail)
  ! MPI 4.1 §12.2.7: the group of a window is the communicator's group (MPI_COMM_WORLD's: one
  ! process alone, every process over an engine).
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nprocs, ierr)
  call MPI_WIN_GET_GROUP(fwin, group, ierr)
  call MPI_GROUP_SIZE(group, gsize, ierr)
  call check(ierr == MPI_SUCCESS .and. gsize == nprocs, &
             'MPI_WIN_GET_GROUP has the processes of MPI_COMM_WORLD', nfail)
  call MPI_GROUP_FREE(group, ierr)
  call MPI_WIN_FENCE(0, fwin, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_WIN_FENCE succeeds', nfail)

  ! -- Predefined window attributes from Fortran (MPI 4.1 §12.2.6, §20.3.7): MPI_WIN_BASE is
  ! the base address as an integer, MPI_WIN_SIZE the size in bytes, MPI_WIN_DISP_UNIT,
  ! MPI_WIN_CREATE_FLAVOR and MPI_WIN_MODEL their values. --
  call MPI_GET_ADDRESS(buf(1), bufaddr, ierr)
  call getw(fwin, MPI_WIN_BASE, bufaddr, 'MPI_WIN_CREATE: MPI_WIN_BASE is the address of BASE')
  call getw(fwin, MPI_WIN_SIZE, 40_MPI_ADDRESS_KIND, 'MPI_WIN_CREATE: MPI_WIN_SIZE is 40')
  call getw(fwin, MPI_WIN_DISP_UNIT, 4_MPI_ADDRESS_KIND, 'MPI_WIN_CREATE: MPI_WIN_DISP_UNIT is 4')
  call getw(fwin, MPI_WIN_CREATE_FLAVOR, int(MPI_WIN_FLAVOR_CREATE, MPI_ADDRESS_KIND), &
            'MPI_WIN_CREATE: MPI_WIN_CREATE_FLAVOR is MPI_WIN_FLAVOR_CREATE')
  call getw(fwin, MPI_WIN_MODEL, int(MPI_WIN_UNIFIED, MPI_ADDRESS_KIND), &
            'MPI_WIN_MODEL is MPI_WIN_UNIFIED')
  ! The same attributes as C reads them: int* for the integer-valued ones.
  call c_read_int(fwin, MPI_WIN_DISP_UNIT, 4, nfail)
  call c_read_int(fwin, MPI_WIN_CREATE_FLAVOR, MPI_WIN_FLAVOR_CREATE, nfail)
  call c_read_aint(KWIN, fwin, MPI_WIN_SIZE, 40_MPI_ADDRESS_KIND, nfail)
  call c_read_pointer(KWIN, fwin, MPI_WIN_BASE, bufaddr, nfail)
  ! A window created in C, read from Fortran.
  call getw(cwin, MPI_WIN_BASE, cbase, 'C MPI_Win_create: MPI_WIN_BASE from Fortran is the address')
  call getw(cwin, MPI_WIN_SIZE, 128_MPI_ADDRESS_KIND, 'C MPI_Win_create: MPI_WIN_SIZE is 128')
  call getw(cwin, MPI_WIN_DISP_UNIT, 8_MPI_ADDRESS_KIND, 'C MPI_Win_create: MPI_WIN_DISP_UNIT is 8')

  ! MPI_WIN_ALLOCATE: BASEPTR is the address of the new memory, which is MPI_WIN_BASE, and
  ! the memory is usable from Fortran through C_F_POINTER.
  sz = 24
  abase = 0
  call MPI_WIN_ALLOCATE(sz, 4, MPI_INFO_NULL, MPI_COMM_WORLD, abase, awin, ierr)
  call check(ierr == MPI_SUCCESS .and. abase /= 0, 'MPI_WIN_ALLOCATE returns a base address', nfail)
  call c_f_pointer(transfer(abase, c_null_ptr), amem, (/ 6 /))
  amem = (/ 1, 2, 3, 4, 5, 6 /)
  call check(sum(amem) == 21, 'MPI_WIN_ALLOCATE memory is writable from Fortran', nfail)
  call getw(awin, MPI_WIN_BASE, abase, 'MPI_WIN_ALLOCATE: MPI_WIN_BASE is BASEPTR')
  call getw(awin, MPI_WIN_SIZE, 24_MPI_ADDRESS_KIND, 'MPI_WIN_ALLOCATE: MPI_WIN_SIZE is 24')
  call getw(awin, MPI_WIN_CREATE_FLAVOR, int(MPI_WIN_FLAVOR_ALLOCATE, MPI_ADDRESS_KIND), &
            'MPI_WIN_ALLOCATE: MPI_WIN_CREATE_FLAVOR is MPI_WIN_FLAVOR_ALLOCATE')
  ! MPI_WIN_CREATE_DYNAMIC (MPI 4.1 §12.2.4): base MPI_BOTTOM (0), size 0.
  call MPI_WIN_CREATE_DYNAMIC(MPI_INFO_NULL, MPI_COMM_WORLD, dwin, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_WIN_CREATE_DYNAMIC succeeds', nfail)
  call getw(dwin, MPI_WIN_BASE, 0_MPI_ADDRESS_KIND, 'dynamic window: MPI_WIN_BASE is MPI_BOTTOM (0)')
  call getw(dwin, MPI_WIN_SIZE, 0_MPI_ADDRESS_KIND, 'dynamic window: MPI_WIN_SIZE is 0')
  call getw(dwin, MPI_WIN_CREATE_FLAVOR, int(MPI_WIN_FLAVOR_DYNAMIC, MPI_ADDRESS_KIND), &
            'dynamic window: MPI_WIN_CREATE_FLAVOR is MPI_WIN_FLAVOR_DYNAMIC')

  ! Predefined keyvals cannot be set by users (docs/DESIGN.md): MPI_ERR_KEYVAL in IERROR.
  aval = 1
  call MPI_WIN_SET_ATTR(fwin, MPI_WIN_BASE, aval, ierr)
  call check(ierr == MPI_ERR_KEYVAL, 'MPI_WIN_SET_ATTR(MPI_WIN_BASE) is MPI_ERR_KEYVAL', nfail)
  ! A datatype keyval used on a window is MPI_ERR_KEYVAL (docs/DESIGN.md "Keyvals and callbacks").
  call MPI_WIN_GET_ATTR(fwin, MPI_TAG_UB, aval, flag, ierr)
  call check(ierr == MPI_ERR_KEYVAL, 'a communicator keyval on a window is MPI_ERR_KEYVAL', nfail)

  call MPI_WIN_FREE(awin, ierr)
  call check(ierr == MPI_SUCCESS .and. awin == MPI_WIN_NULL, 'MPI_WIN_FREE sets MPI_WIN_NULL', nfail)
  call MPI_WIN_FREE(dwin, ierr)
  call MPI_WIN_FREE(fwin, ierr)
  call MPI_WIN_FREE(cwin, ierr)
  call check(ierr == MPI_SUCCESS .and. cwin == MPI_WIN_NULL, 'MPI_WIN_FREE of a C window', nfail)
  ! A freed window handle is MPI_ERR_WIN (docs/DESIGN.md "Errors and bad input").
  call MPI_WIN_FENCE(0, fwin, ierr)
  call check(ierr == MPI_ERR_WIN, 'MPI_WIN_FENCE on MPI_WIN_NULL is MPI_ERR_WIN', nfail)
  call MPI_TYPE_FREE(ftype, ierr)
  call check(ierr == MPI_SUCCESS .and. ftype == MPI_DATATYPE_NULL, &
             'MPI_TYPE_FREE sets MPI_DATATYPE_NULL', nfail)
  call MPI_TYPE_FREE(ctype, ierr)
  call MPI_FINALIZE(ierr)
  print '(A,I0,A)', 'type_win_matrix: ', nfail, ' failure(s)'
  if (nfail > 0) stop 1

contains

  subroutine matrix(kind, obj)
    integer, intent(in) :: kind, obj
    integer :: kc_int, kc_17, ks42, ksm7, ks40, k, ierr
    integer(kind=MPI_ADDRESS_KIND) :: addr_int, c17, v, es
    character(len=8) :: what
    es = 0
    c17 = 17
    if (kind == KTYPE) then
      what = 'datatype'
    else
      what = 'window'
    end if
    ! -- writer C --
    call c_set_matrix(kind, obj, kc_int, kc_17, addr_int, nfail)
    ! -- writer Fortran MPI_{TYPE,WIN}_SET_ATTR (INTEGER(KIND=MPI_ADDRESS_KIND)) --
    call create_keyval(kind, ks42)
    call create_keyval(kind, ksm7)
    call create_keyval(kind, ks40)
    v = 42
    call set_attr(kind, obj, ks42, v)
    v = -7
    call set_attr(kind, obj, ksm7, v)
    call set_attr(kind, obj, ks40, big)
    ! -- reader C (MPI 4.1 §20.3.7: the pointer set from C; a pointer to an internal MPI_Aint
    ! holding the value set from Fortran) --
    call c_read_pointer(kind, obj, kc_int, addr_int, nfail)
    call c_read_pointer(kind, obj, kc_17, c17, nfail)
    call c_read_aint(kind, obj, ks42, 42_MPI_ADDRESS_KIND, nfail)
    call c_read_aint(kind, obj, ksm7, -7_MPI_ADDRESS_KIND, nfail)
    call c_read_aint(kind, obj, ks40, big, nfail)
    ! -- reader Fortran ADDRESS_KIND (MPI 4.1 §20.3.7: the C pointer as an integer address;
    ! the Fortran value itself) --
    call get(kind, obj, kc_int, addr_int, trim(what)//': C pointer reads as its address')
    call get(kind, obj, kc_17, c17, trim(what)//': (void*)17 reads as 17')
    call get(kind, obj, ks42, 42_MPI_ADDRESS_KIND, trim(what)//': SET_ATTR 42 reads as 42')
    call get(kind, obj, ksm7, -7_MPI_ADDRESS_KIND, trim(what)//': SET_ATTR -7 reads as -7')
    call get(kind, obj, ks40, big, trim(what)//': SET_ATTR 2**40 reads as 2**40')
    ! MPI 4.1 §7.7.5/§7.7.6: after *_DELETE_ATTR the flag is false and the value untouched.
    if (kind == KTYPE) then
      call MPI_TYPE_DELETE_ATTR(obj, ks42, ierr)
      v = 12345
      flag = .true.
      call MPI_TYPE_GET_ATTR(obj, ks42, v, flag, ierr)
    else
      call MPI_WIN_DELETE_ATTR(obj, ks42, ierr)
      v = 12345
      flag = .true.
      call MPI_WIN_GET_ATTR(obj, ks42, v, flag, ierr)
    end if
    call check(ierr == MPI_SUCCESS .and. .not. flag .and. v == 12345, &
               trim(what)//': GET_ATTR after DELETE_ATTR: flag false, value untouched', nfail)
    ! MPI 4.1 §7.7.5/§7.7.6: FREE_KEYVAL sets MPI_KEYVAL_INVALID.
    do k = 1, 5
      select case (k)
      case (1)
        call free_keyval(kind, kc_int)
      case (2)
        call free_keyval(kind, kc_17)
      case (3)
        call free_keyval(kind, ks42)
      case (4)
        call free_keyval(kind, ksm7)
      case default
        call free_keyval(kind, ks40)
        call check(ks40 == MPI_KEYVAL_INVALID, trim(what)//': FREE_KEYVAL writes MPI_KEYVAL_INVALID', &
                   nfail)
      end select
    end do
  end subroutine matrix

  subroutine create_keyval(kind, k)
    integer, intent(in) :: kind
    integer, intent(out) :: k
    integer(kind=MPI_ADDRESS_KIND) :: es
    integer :: ierr
    es = 0
    if (kind == KTYPE) then
      call MPI_TYPE_CREATE_KEYVAL(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, k, es, ierr)
    else
      call MPI_WIN_CREATE_KEYVAL(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, k, es, ierr)
    end if
    call check(ierr == MPI_SUCCESS, 'MPI_{TYPE,WIN}_CREATE_KEYVAL succeeds', nfail)
  end subroutine create_keyval

  subroutine free_keyval(kind, k)
    integer, intent(in) :: kind
    integer, intent(inout) :: k
    integer :: ierr
    if (kind == KTYPE) then
      call MPI_TYPE_FREE_KEYVAL(k, ierr)
    else
      call MPI_WIN_FREE_KEYVAL(k, ierr)
    end if
    call check(ierr == MPI_SUCCESS, 'MPI_{TYPE,WIN}_FREE_KEYVAL succeeds', nfail)
  end subroutine free_keyval

  subroutine set_attr(kind, obj, k, v)
    integer, intent(in) :: kind, obj, k
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: v
    integer :: ierr
    if (kind == KTYPE) then
      call MPI_TYPE_SET_ATTR(obj, k, v, ierr)
    else
      call MPI_WIN_SET_ATTR(obj, k, v, ierr)
    end if
    call check(ierr == MPI_SUCCESS, 'MPI_{TYPE,WIN}_SET_ATTR succeeds', nfail)
  end subroutine set_attr

  subroutine get(kind, obj, keyval, expect, what)
    integer, intent(in) :: kind, obj, keyval
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: expect
    character(len=*), intent(in) :: what
    integer(kind=MPI_ADDRESS_KIND) :: v
    logical :: f
    integer :: ierr
    character(len=200) :: msg
    v = -999
    f = .false.
    if (kind == KTYPE) then
      call MPI_TYPE_GET_ATTR(obj, keyval, v, f, ierr)
    else
      call MPI_WIN_GET_ATTR(obj, keyval, v, f, ierr)
    end if
    write (msg, '(A,A,I0,A,L1,A,I0)') what, ': got ', v, ' flag ', f, ' ierr ', ierr
    call check(ierr == MPI_SUCCESS .and. f .and. v == expect, 'GET_ATTR: '//trim(msg), nfail)
  end subroutine get

  subroutine getw(win, keyval, expect, what)
    integer, intent(in) :: win, keyval
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: expect
    character(len=*), intent(in) :: what
    call get(KWIN, win, keyval, expect, what)
  end subroutine getw

  include 'check.inc'
end program type_win_matrix
