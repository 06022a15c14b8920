! Pattern 5a: the Fortran form of the MPI standard's reference-counted cache (MPI 4.1 §7.7.6)
! as Fortran libraries write it: the attribute is an INTEGER(KIND=MPI_ADDRESS_KIND) index into a
! module array of records (a tag sequence and a reference count). The copy routine
! (MPI_COMM_CREATE_KEYVAL, §7.7.2, §20.3.7) increments the count and returns the same index;
! the delete routine decrements it and releases the slot at zero. Through MPI_COMM_DUP,
! MPI_COMM_DUP_WITH_INFO, MPI_COMM_IDUP + MPI_WAIT and frees in several orders, plus a record
! on MPI_COMM_WORLD and one on MPI_COMM_SELF deleted by MPI_FINALIZE.
! Standard MPI only (use mpi).
module seqstate
  use mpi
  implicit none
  integer, parameter :: nslots = 8
  integer :: refcount(nslots) = 0
  integer :: next_tag(nslots) = 0
  logical :: used(nslots) = .false.
  integer :: ncopy = 0, ndelete = 0, nbad = 0, nfinalized_inside = 0
  integer :: seq_key = MPI_KEYVAL_INVALID
  integer :: seq_key_number = -1
  integer(kind=MPI_ADDRESS_KIND), parameter :: extra_magic = 2_MPI_ADDRESS_KIND**36 + 77
  integer :: self_deletes = 0
end module seqstate

subroutine seq_copy(oldcomm, keyval, extra_state, val_in, val_out, flag, ierr)
  use seqstate
  implicit none
  integer :: oldcomm, keyval, ierr
  integer(kind=MPI_ADDRESS_KIND) :: extra_state, val_in, val_out
  logical :: flag
  ncopy = ncopy + 1
  if (keyval /= seq_key_number .or. extra_state /= extra_magic .or. oldcomm == MPI_COMM_NULL) nbad = nbad + 1
  if (val_in < 1 .or. val_in > nslots) then
    nbad = nbad + 1
    flag = .false.
    ierr = MPI_SUCCESS
    return
  end if
  if (.not. used(val_in)) nbad = nbad + 1
  refcount(val_in) = refcount(val_in) + 1
  val_out = val_in
  flag = .true.
  ierr = MPI_SUCCESS
end subroutine seq_copy

subroutine seq_delete(comm, keyval, val, extra_state, ierr)
  use seqstate
  implicit none
  integer :: comm, keyval, ierr, ierr2
  integer(kind=MPI_ADDRESS_KIND) :: val, extra_state
  logical :: fin
  ndelete = ndelete + 1
  if (keyval /= seq_key_number .or. extra_state /= extra_magic .or. comm == MPI_COMM_NULL) nbad = nbad + 1
  call MPI_FINALIZED(fin, ierr2)
  if (fin) nfinalized_inside = nfinalized_inside + 1
  ierr = MPI_SUCCESS
  if (val < 1 .or. val > nslots) then
    nbad = nbad + 1
    return
  end if
  if (.not. used(val) .or. refcount(val) <= 0) then
    nbad = nbad + 1
    return
  end if
  refcount(val) = refcount(val) - 1
  if (refcount(val) == 0) used(val) = .false.
end subroutine seq_delete

subroutine self_delete(comm, keyval, val, extra_state, ierr)
  use seqstate
  implicit none
  integer :: comm, keyval, ierr, ierr2
  integer(kind=MPI_ADDRESS_KIND) :: val, extra_state
  logical :: fin
  self_deletes = self_deletes + 1
  call MPI_FINALIZED(fin, ierr2)
  if (fin) nfinalized_inside = nfinalized_inside + 1
  if (comm /= MPI_COMM_SELF .or. val /= 5 .or. extra_state /= 0 .or. keyval == MPI_KEYVAL_INVALID) nbad = nbad + 1
  ierr = MPI_SUCCESS
end subroutine self_delete

program f_seq_counter
  use seqstate
  implicit none
  external :: seq_copy, seq_delete, self_delete
  integer :: ierr, npass, nfail, i, j, p, req, slot, skey
  integer :: c(4), orders(4, 3)
  integer :: status(MPI_STATUS_SIZE)
  integer(kind=MPI_ADDRESS_KIND) :: v, es
  logical :: flag, ok

  npass = 0
  nfail = 0
  call MPI_INIT(ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)

  es = extra_magic
  call MPI_COMM_CREATE_KEYVAL(seq_copy, seq_delete, seq_key, es, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI 4.1 §7.7.2: MPI_COMM_CREATE_KEYVAL with Fortran routines')
  seq_key_number = seq_key
  es = 0   ! the keyval captured extra_state at creation (§7.7.2: IN argument)

  orders(:, 1) = (/ 1, 2, 3, 4 /)
  orders(:, 2) = (/ 4, 3, 2, 1 /)
  orders(:, 3) = (/ 3, 1, 4, 2 /)
  do p = 1, 3
    ! ---- a family: c(1) carries a record, c(2..4) are its dups by three calls ----
    call MPI_COMM_DUP(MPI_COMM_WORLD, c(1), ierr)
    slot = tag_slot(c(1))
    call check(slot >= 1, 'first use allocates a slot')
    call MPI_COMM_DUP(c(1), c(2), ierr)
    call check(ierr == MPI_SUCCESS, 'MPI 4.1 §7.4.2: MPI_COMM_DUP')
    call MPI_COMM_DUP_WITH_INFO(c(2), MPI_INFO_NULL, c(3), ierr)
    call check(ierr == MPI_SUCCESS, 'MPI 4.1 §7.4.2: MPI_COMM_DUP_WITH_INFO')
    call MPI_COMM_IDUP(c(1), c(4), req, ierr)
    call check(ierr == MPI_SUCCESS, 'MPI 4.1 §7.4.2: MPI_COMM_IDUP')
    call MPI_WAIT(req, status, ierr)
    call check(ierr == MPI_SUCCESS .and. req == MPI_REQUEST_NULL, 'MPI 4.1 §3.7.3: MPI_WAIT completes the idup')
    call check(refcount(slot) == 4, 'MPI 4.1 §7.7.6: refcount is 1 + one per dup')
    do i = 1, 4
      call MPI_COMM_GET_ATTR(c(i), seq_key, v, flag, ierr)
      call check(ierr == MPI_SUCCESS .and. flag .and. v == slot, &
                 'MPI 4.1 §7.7.2, §20.3.7: every dup reads the same index (ADDRESS_KIND value)')
    end do
    ! the sequence is shared by the dups
    i = tag_next(c(3))
    j = tag_next(c(4))
    call check(j == i + 1, 'the tag sequence is shared by every dup')
    ! free in this family's order
    do i = 1, 4
      call MPI_COMM_FREE(c(orders(i, p)), ierr)
      call check(ierr == MPI_SUCCESS .and. c(orders(i, p)) == MPI_COMM_NULL, &
                 'MPI 4.1 §7.4.3: MPI_COMM_FREE sets the handle to MPI_COMM_NULL')
      if (i < 4) then
        call check(used(slot) .and. refcount(slot) == 4 - i, &
                   'MPI 4.1 §7.7.2: each free runs the delete routine once (count drops by one)')
        do j = i + 1, 4
          call MPI_COMM_GET_ATTR(c(orders(j, p)), seq_key, v, flag, ierr)
          call check(flag .and. v == slot, 'MPI 4.1 §7.7: the survivors still read the index')
        end do
      else
        call check(.not. used(slot) .and. refcount(slot) == 0, 'MPI 4.1 §7.7.6: the last free releases the slot')
      end if
    end do
  end do
  call check(ncopy == 9, 'MPI 4.1 §7.7.2: three copies per family')
  call check(ndelete == 12, 'MPI 4.1 §7.7.2: one delete per attribute instance')

  ! ---- MPI_COMM_SPLIT copies nothing ----
  call MPI_COMM_DUP(MPI_COMM_WORLD, c(1), ierr)
  slot = tag_slot(c(1))
  call MPI_COMM_SPLIT(c(1), 0, 0, c(2), ierr)
  call MPI_COMM_GET_ATTR(c(2), seq_key, v, flag, ierr)
  call check(ierr == MPI_SUCCESS .and. .not. flag, 'MPI 4.1 §7.7.2: no copy routine on MPI_COMM_SPLIT')
  call MPI_COMM_FREE(c(2), ierr)
  call MPI_COMM_FREE(c(1), ierr)
  call check(.not. used(slot), 'the split test released its slot')

  ! ---- left for MPI_FINALIZE: a record on MPI_COMM_WORLD shared with a dup not freed, and an
  ! attribute on MPI_COMM_SELF ----
  slot = tag_slot(MPI_COMM_WORLD)
  call MPI_COMM_DUP(MPI_COMM_WORLD, c(1), ierr)
  call check(refcount(slot) == 2, 'MPI 4.1 §7.7.2: a dup of MPI_COMM_WORLD shares its record')
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, self_delete, skey, es, ierr)
  v = 5
  call MPI_COMM_SET_ATTR(MPI_COMM_SELF, skey, v, ierr)
  call MPI_COMM_FREE_KEYVAL(skey, ierr)
  call check(skey == MPI_KEYVAL_INVALID, 'MPI 4.1 §7.7.2: MPI_COMM_FREE_KEYVAL sets MPI_KEYVAL_INVALID')
  call MPI_COMM_FREE_KEYVAL(seq_key, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI 4.1 §7.7.2: free a keyval still in use')

  call MPI_FINALIZE(ierr)
  call check(ierr == MPI_SUCCESS, 'MPI 4.1 §11.2.2: MPI_FINALIZE')
  call check(self_deletes == 1, 'MPI 4.1 §11.2.4: the MPI_COMM_SELF delete routine ran once at MPI_FINALIZE')
  ok = .true.
  do i = 1, nslots
    if (used(i) .or. refcount(i) /= 0) ok = .false.
  end do
  call check(ok, 'README Documented outcomes: MPI_FINALIZE deleted the records of MPI_COMM_WORLD and the dup not freed')
  call check(ndelete == ncopy + 5, 'MPI 4.1 §7.7.2: one delete per attribute instance (5 records made)')
  call check(nbad == 0, 'MPI 4.1 §7.7.2, §20.3.7: the routines got their keyval, extra_state and a live index')
  call check(nfinalized_inside == 0, 'MPI 4.1 §11.2.4: MPI_FINALIZED is false inside the routines')

  print '(A,I0,A,I0,A)', 'f_seq_counter: ', npass, ' passed, ', nfail, ' failed'
  if (nfail > 0) stop 1

contains

  ! The library: the record index on comm, allocated on first use.
  integer function tag_slot(comm)
    integer, intent(in) :: comm
    integer(kind=MPI_ADDRESS_KIND) :: idx
    integer :: k, ierr
    logical :: found
    call MPI_COMM_GET_ATTR(comm, seq_key, idx, found, ierr)
    if (found) then
      tag_slot = int(idx)
      return
    end if
    tag_slot = -1
    do k = 1, nslots
      if (.not. used(k)) then
        used(k) = .true.
        refcount(k) = 1
        next_tag(k) = 100
        idx = k
        call MPI_COMM_SET_ATTR(comm, seq_key, idx, ierr)
        tag_slot = k
        return
      end if
    end do
  end function tag_slot

  integer function tag_next(comm)
    integer, intent(in) :: comm
    integer :: k
    k = tag_slot(comm)
    tag_next = next_tag(k)
    next_tag(k) = next_tag(k) + 1
  end function tag_next

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
end program f_seq_counter
