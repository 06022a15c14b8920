! Smoke test of the layer's mpi_f08 routines over an engine MPI (tests/layer_smoke.rs, 1 and 2
! processes): f08 callbacks with TYPE(MPI_Comm), the f08 MPI_COMM_DUP_FN module procedure, the
! optional ierror left out, and MPI_COMM_SELF's attributes at MPI_Finalize.
module f08_smoke_cb
  use mpi_f08
  implicit none
  integer :: copies = 0, deletes = 0, self_order(3) = 0, self_deleted = 0
contains
  subroutine copy_twice(oldcomm, keyval, extra_state, val_in, val_out, flag, ierror)
    type(MPI_Comm) :: oldcomm
    integer :: keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, val_in, val_out
    logical :: flag
    val_out = 2 * val_in
    flag = .true.
    copies = copies + 1
    ierror = MPI_SUCCESS
  end subroutine
  subroutine count_delete(comm, keyval, val, extra_state, ierror)
    type(MPI_Comm) :: comm
    integer :: keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: val, extra_state
    deletes = deletes + 1
    ierror = MPI_SUCCESS
  end subroutine
  subroutine self_delete(comm, keyval, val, extra_state, ierror)
    type(MPI_Comm) :: comm
    integer :: keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: val, extra_state
    logical :: finalized
    call MPI_Finalized(finalized)
    if (finalized) then
      print '(a)', 'FAILED MPI_Finalized is false in MPI_COMM_SELF''s delete callbacks'
      stop 1
    end if
    self_deleted = self_deleted + 1
    if (self_deleted <= 3) self_order(self_deleted) = int(val)
    if (self_deleted == 3) then
      ! MPI 4.1 §11.2.4: MPI_COMM_SELF's attributes go first, last set first.
      if (any(self_order /= [3, 2, 1])) then
        print '(a,3i3)', 'FAILED MPI_COMM_SELF delete order ', self_order
        stop 1
      end if
      print '(a)', 'f08 finalize order ok'
    end if
    ierror = MPI_SUCCESS
  end subroutine
end module

program f08_smoke
  use mpi_f08
  use f08_smoke_cb
  implicit none
  integer :: rank, key, dupkey, k1, k2, k3, ierr, c_read
  integer(kind=MPI_ADDRESS_KIND) :: val, extra
  logical :: flag
  type(MPI_Comm) :: dup, t
  external :: c_read

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)

  ! MPI 4.1 §7.7.2: f08 callbacks on dup and free; ierror left out.
  extra = 0
  call MPI_Comm_create_keyval(copy_twice, count_delete, key, extra)
  val = 21 + rank
  call MPI_Comm_set_attr(MPI_COMM_WORLD, key, val)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  call MPI_Comm_get_attr(dup, key, val, flag)
  call check(flag .and. val == 2 * (21 + rank) .and. copies == 1, 'f08 copy callback on MPI_Comm_dup')
  call MPI_Comm_free(dup, ierr)
  call check(ierr == MPI_SUCCESS .and. deletes == 1, 'f08 delete callback on MPI_Comm_free')
  call check(dup == MPI_COMM_NULL, 'the freed communicator is MPI_COMM_NULL')

  ! The f08 MPI_COMM_DUP_FN: a Fortran value copied and read from C after the original goes.
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, dupkey, extra)
  call MPI_Comm_dup(MPI_COMM_WORLD, t)
  val = 777 + rank
  call MPI_Comm_set_attr(t, dupkey, val)
  call MPI_Comm_dup(t, dup)
  call MPI_Comm_free(t)
  call check(c_read(dup%MPI_VAL, dupkey) == 777 + rank, 'f08 MPI_COMM_DUP_FN value read from C')
  call MPI_Comm_delete_attr(dup, dupkey)
  call MPI_Comm_get_attr(dup, dupkey, val, flag)
  call check(.not. flag, 'MPI_Comm_delete_attr removes the attribute')
  call MPI_Comm_free(dup)

  ! The engine's predefined attribute through mpi_f08.
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, val, flag)
  call check(flag .and. val >= 32767, 'MPI_TAG_UB through mpi_f08')

  call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_delete, k1, extra)
  call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_delete, k2, extra)
  call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_delete, k3, extra)
  val = 1
  call MPI_Comm_set_attr(MPI_COMM_SELF, k2, val)
  val = 2
  call MPI_Comm_set_attr(MPI_COMM_SELF, k1, val)
  val = 3
  call MPI_Comm_set_attr(MPI_COMM_SELF, k3, val)
  if (rank == 0) print '(a)', 'f08 smoke ok'
  call MPI_Finalize()
  call check(self_deleted == 3, 'MPI_COMM_SELF''s delete callbacks ran at MPI_Finalize')
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
