! The caching examples with mpi_f08. The text of the standard's examples is not in this
! repository, so these are the closest faithful mpi_f08 programs:
! - MPI 4.1 §7.7.6 (caching example): a library routine caches private state on the user's
!   communicator under a keyval created once; the copy callback is MPI_COMM_NULL_COPY_FN (the
!   state is not inherited), the delete callback frees the cached private communicator when
!   the user's communicator is freed;
! - MPI 4.1 §20.3.7 examples: Fortran sets with MPI_COMM_SET_ATTR and reads with
!   MPI_COMM_GET_ATTR the same value (INTEGER(KIND=MPI_ADDRESS_KIND)), flag .TRUE.; a value
!   larger than a default INTEGER survives.
module caching_lib
  use mpi_f08
  implicit none
  integer :: lib_keyval = MPI_KEYVAL_INVALID
  integer :: ndelete = 0
contains
  subroutine lib_delete(comm, comm_keyval, attribute_val, extra_state, ierror)
    type(MPI_Comm) :: comm
    integer :: comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    type(MPI_Comm) :: private
    private%MPI_VAL = int(attribute_val)
    call MPI_Comm_free(private, ierror)
    ndelete = ndelete + 1
  end subroutine lib_delete

  ! The library routine: the first call on a communicator makes and caches a private dup;
  ! later calls find it in the cache.
  subroutine lib_call(comm, cached, was_cached)
    type(MPI_Comm), intent(in) :: comm
    type(MPI_Comm), intent(out) :: cached
    logical, intent(out) :: was_cached
    integer(kind=MPI_ADDRESS_KIND) :: val
    if (lib_keyval == MPI_KEYVAL_INVALID) then
      call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, lib_delete, lib_keyval, 0_MPI_ADDRESS_KIND)
    end if
    call MPI_Comm_get_attr(comm, lib_keyval, val, was_cached)
    if (was_cached) then
      cached%MPI_VAL = int(val)
    else
      call MPI_Comm_dup(comm, cached)
      call MPI_Comm_set_attr(comm, lib_keyval, int(cached%MPI_VAL, MPI_ADDRESS_KIND))
    end if
  end subroutine lib_call
end module caching_lib

program f08_examples
  use mpi_f08
  use caching_lib
  implicit none
  integer :: nfail = 0, keyval, ierror, size
  integer(kind=MPI_ADDRESS_KIND) :: val, extra
  logical :: flag
  type(MPI_Comm) :: user, c1, c2, d

  call MPI_Init()
  ! §7.7.6.
  call MPI_Comm_dup(MPI_COMM_WORLD, user)
  call lib_call(user, c1, flag)
  call check(.not. flag, 'first call: nothing cached', nfail)
  call lib_call(user, c2, flag)
  call check(flag .and. c1 == c2, 'second call: the cached communicator', nfail)
  call MPI_Comm_size(c2, size)
  call check(size == 1, 'the cached communicator works', nfail)
  call MPI_Comm_dup(user, d)
  call lib_call(d, c2, flag)
  call check(.not. flag .and. c1 /= c2, 'MPI_COMM_NULL_COPY_FN: a dup caches its own', nfail)
  call MPI_Comm_free(d)
  call check(ndelete == 1, 'freeing the dup frees its cached communicator', nfail)
  call MPI_Comm_free(user)
  call check(ndelete == 2, 'freeing the user communicator frees the cached one', nfail)
  call MPI_Comm_free_keyval(lib_keyval)

  ! §20.3.7: set and get in Fortran.
  extra = 0
  call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, keyval, extra, ierror)
  val = 55555
  call MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, val, ierror)
  val = 0
  call MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, val, flag, ierror)
  call check(ierror == MPI_SUCCESS .and. flag .and. val == 55555, 'Fortran reads 55555 back', nfail)
  val = 2_MPI_ADDRESS_KIND**50 + 3
  call MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, val)
  call MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, val, flag)
  call check(flag .and. val == 2_MPI_ADDRESS_KIND**50 + 3, 'a value wider than INTEGER survives', nfail)
  call MPI_Comm_delete_attr(MPI_COMM_WORLD, keyval)
  call MPI_Comm_free_keyval(keyval)
  call MPI_Finalize()
  print '(1X,I0,A)', nfail, ' failure(s)'
  if (nfail /= 0) stop 1
contains
#include "check.inc"
end program f08_examples
