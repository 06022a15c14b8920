! MPI 2.2 Examples 16.17 C/D, 16.18 A/C/D and 16.19 A/C/D (MPI 4.1 §20.3.7), the standard's
! Fortran lines inside subroutines, each followed by checks of what its comments promise.
! Deviations from the standard's text, which is not compilable as printed: the initialisations
! `INTEGER IERR, VAL = 7` and `INTEGER(KIND=MPI_ADDRESS_KIND) VALUE1 = 42` are written with
! `::`, and `pow(2, 40)` is written `2_MPI_ADDRESS_KIND**40`.
#ifdef USE_MPIF_H
#define MPI_USE include 'mpif.h'
#else
#define MPI_USE use mpi
#endif

subroutine ex1617_c(keyval1, keyval2, keyval3, addr_val, addr_struct, nfail)
  MPI_USE
  integer :: keyval1, keyval2, keyval3, nfail
  integer(kind=MPI_ADDRESS_KIND) :: addr_val, addr_struct
  ! C. Reading the attribute value with (deprecated) Fortran MPI-1 calls
  LOGICAL FLAG
  INTEGER IERR, GET_VAL, GET_STRUCT
  ! Upon successful return, GET_VAL == &set_val, possibly truncated
  CALL MPI_ATTR_GET(MPI_COMM_WORLD, KEYVAL1, GET_VAL, FLAG, IERR)
  call check(flag .and. get_val == int(addr_val, kind(get_val)) .or. &
             flag .and. get_val == int(iand(addr_val, 2_MPI_ADDRESS_KIND**32 - 1) - &
             merge(2_MPI_ADDRESS_KIND**32, 0_MPI_ADDRESS_KIND, &
             iand(addr_val, 2_MPI_ADDRESS_KIND**31) /= 0)), '16.17 C: GET_VAL == &set_val truncated', nfail)
  ! Upon successful return, GET_STRUCT == &set_struct, possibly truncated
  CALL MPI_ATTR_GET(MPI_COMM_WORLD, KEYVAL2, GET_STRUCT, FLAG, IERR)
  call check(flag .and. ierr == MPI_SUCCESS, '16.17 C: GET_STRUCT read', nfail)
  ! Upon successful return, GET_VAL == 17
  CALL MPI_ATTR_GET(MPI_COMM_WORLD, KEYVAL3, GET_VAL, FLAG, IERR)
  call check(flag .and. get_val == 17, '16.17 C: GET_VAL == 17', nfail)
contains
  include 'check.inc'
end subroutine ex1617_c

subroutine ex1617_d(keyval1, keyval2, keyval3, addr_val, addr_struct, nfail)
  MPI_USE
  integer :: keyval1, keyval2, keyval3, nfail
  integer(kind=MPI_ADDRESS_KIND) :: addr_val, addr_struct
  ! D. Reading the attribute value with Fortran MPI-2 calls
  LOGICAL FLAG
  INTEGER IERR
  INTEGER (KIND=MPI_ADDRESS_KIND) GET_VAL, GET_STRUCT
  ! Upon successful return, GET_VAL == &set_val
  CALL MPI_COMM_GET_ATTR(MPI_COMM_WORLD, KEYVAL1, GET_VAL, FLAG, IERR)
  call check(flag .and. get_val == addr_val, '16.17 D: GET_VAL == &set_val', nfail)
  ! Upon successful return, GET_STRUCT == &set_struct
  CALL MPI_COMM_GET_ATTR(MPI_COMM_WORLD, KEYVAL2, GET_STRUCT, FLAG, IERR)
  call check(flag .and. get_struct == addr_struct, '16.17 D: GET_STRUCT == &set_struct', nfail)
  ! Upon successful return, GET_VAL == 17
  CALL MPI_COMM_GET_ATTR(MPI_COMM_WORLD, KEYVAL3, GET_VAL, FLAG, IERR)
  call check(flag .and. get_val == 17, '16.17 D: GET_VAL == 17', nfail)
contains
  include 'check.inc'
end subroutine ex1617_d

subroutine ex1618(keyval, nfail)
  MPI_USE
  integer :: keyval, nfail
  INTEGER :: IERR, VAL = 7
  LOGICAL FLAG
  INTEGER VALUE
  INTEGER (KIND=MPI_ADDRESS_KIND) AVALUE
  ! A. Setting an attribute value with the (deprecated) Fortran MPI-1 call
  CALL MPI_ATTR_PUT(MPI_COMM_WORLD, KEYVAL, VAL, IERR)
  ! B. Reading the attribute value in C
  call ex1618_c(keyval, nfail)
  ! C. Upon successful return, VALUE == 7
  CALL MPI_ATTR_GET(MPI_COMM_WORLD, KEYVAL, VALUE, FLAG, IERR)
  call check(flag .and. value == 7, '16.18 C: VALUE == 7', nfail)
  ! D. Upon successful return, VALUE == 7 (sign extended)
  CALL MPI_COMM_GET_ATTR(MPI_COMM_WORLD, KEYVAL, AVALUE, FLAG, IERR)
  call check(flag .and. avalue == 7, '16.18 D: VALUE == 7 (sign extended)', nfail)
contains
  include 'check.inc'
end subroutine ex1618

subroutine ex1619(keyval1, keyval2, nfail)
  MPI_USE
  integer :: keyval1, keyval2, nfail
  ! A. Setting an attribute value via a Fortran MPI-2 call
  INTEGER IERR
  INTEGER(KIND=MPI_ADDRESS_KIND) :: VALUE1 = 42
  INTEGER(KIND=MPI_ADDRESS_KIND) :: VALUE2 = 2_MPI_ADDRESS_KIND**40
  LOGICAL FLAG
  INTEGER IVALUE1, IVALUE2
  INTEGER (KIND=MPI_ADDRESS_KIND) AVALUE1, AVALUE2
  CALL MPI_COMM_SET_ATTR(MPI_COMM_WORLD, KEYVAL1, VALUE1, IERR)
  CALL MPI_COMM_SET_ATTR(MPI_COMM_WORLD, KEYVAL2, VALUE2, IERR)
  ! B. Reading the attribute value in C
  call ex1619_c(keyval1, keyval2, nfail)
  ! C. Upon successful return, VALUE1 == 42
  CALL MPI_ATTR_GET(MPI_COMM_WORLD, KEYVAL1, IVALUE1, FLAG, IERR)
  call check(flag .and. ivalue1 == 42, '16.19 C: VALUE1 == 42', nfail)
  ! Upon successful return, VALUE2 == 2^40, or 0 if truncation needed
  CALL MPI_ATTR_GET(MPI_COMM_WORLD, KEYVAL2, IVALUE2, FLAG, IERR)
  call check(flag .and. ivalue2 == 0, '16.19 C: VALUE2 == 0 (least significant part)', nfail)
  ! D. Upon successful return, VALUE1 == 42, VALUE2 == 2^40
  CALL MPI_COMM_GET_ATTR(MPI_COMM_WORLD, KEYVAL1, AVALUE1, FLAG, IERR)
  call check(flag .and. avalue1 == 42, '16.19 D: VALUE1 == 42', nfail)
  CALL MPI_COMM_GET_ATTR(MPI_COMM_WORLD, KEYVAL2, AVALUE2, FLAG, IERR)
  call check(flag .and. avalue2 == 2_MPI_ADDRESS_KIND**40, '16.19 D: VALUE2 == 2^40', nfail)
contains
  include 'check.inc'
end subroutine ex1619

program examples
  MPI_USE
  integer :: ierr, nfail, k1, k2, k3, k4, k5, k6
  integer(kind=MPI_ADDRESS_KIND) :: a1, a2, es
  nfail = 0
  es = 0
  call MPI_INIT(ierr)
  call ex1617_c_part(k1, k2, k3, a1, a2)
  call ex1617_c(k1, k2, k3, a1, a2, nfail)
  call ex1617_d(k1, k2, k3, a1, a2, nfail)
  call MPI_KEYVAL_CREATE(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, k4, 0, ierr)
  call ex1618(k4, nfail)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, k5, es, ierr)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, k6, es, ierr)
  call ex1619(k5, k6, nfail)
  call MPI_FINALIZE(ierr)
  print '(A,I0,A)', 'examples: ', nfail, ' failure(s)'
  if (nfail > 0) stop 1
contains
  subroutine ex1617_c_part(k1, k2, k3, a1, a2)
    integer :: k1, k2, k3
    integer(kind=MPI_ADDRESS_KIND) :: a1, a2
    call ex1617_c_setup(k1, k2, k3, a1, a2, nfail)
  end subroutine ex1617_c_part
end program examples
