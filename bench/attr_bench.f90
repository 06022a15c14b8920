! The attribute (caching) benchmark, Fortran half. Standard MPI only (the `mpi` module): the
! same source builds with mpicache's mpifort and MPICH's / Open MPI's mpif90, plus the floor
! library (bench/floor.c, called here through BIND(C)):
!
!   mpifort -O2 bench/attr_bench.f90 -o attr_bench_f -Wl,--no-as-needed -LDIR -lfloor -Wl,-rpath,DIR
!   ./attr_bench_f [--impl NAME] [-r RUNS] [-n ITERS] [-t MS] [--warm MS]
!
! Cases: MPI_COMM_GET_ATTR (INTEGER(KIND=MPI_ADDRESS_KIND) value) and the deprecated
! MPI_ATTR_GET (INTEGER value) hits on a communicator holding 16 attributes, reading the
! first-set and the last-set keyval; and the floor (floor_get called from Fortran). Output lines
! as the C benchmark: case,impl,median,min,max,unit,floor_ratio. As there, the floor is timed
! first after --warm milliseconds of its loop run untimed (500 by default), and each get case's
! runs alternate with runs of the floor loop, whose median its ratio is to.
module bench_floor
  use, intrinsic :: iso_c_binding
  implicit none
  interface
    integer(c_int) function floor_get(obj, key, out, flag) bind(C, name='floor_get')
      import :: c_int, c_ptr
      integer(c_int), value :: obj, key
      type(c_ptr), value :: out
      integer(c_int) :: flag
    end function floor_get
  end interface
end module bench_floor

module bench_harness
  use mpi
  use bench_floor
  implicit none
  integer, parameter :: i8 = selected_int_kind(18)
  integer, parameter :: dp = kind(1.0d0)
  integer, parameter :: K_FLOOR = 0, K_COMM_GET = 1, K_ATTR_GET = 2
  integer :: runs = 7
  integer(i8) :: max_iters = 1000000_i8
  real(dp) :: budget_ns = 20.0e6_dp
  real(dp) :: warm_ns = 500.0e6_dp
  character(len=64) :: impl = 'unknown'
  integer(i8) :: sink = 0

contains

  real(dp) function now_ns()
    integer(i8) :: count, rate
    call system_clock(count, rate)
    now_ns = real(count, dp) * (1.0e9_dp / real(rate, dp))
  end function now_ns

  ! n iterations of one case; the loop's results accumulate into sink.
  subroutine body(kind, n, comm, key)
    integer, intent(in) :: kind, comm, key
    integer(i8), intent(in) :: n
    integer(i8) :: i, acc
    integer(kind=MPI_ADDRESS_KIND) :: aval
    integer(c_int), target :: fval(2)
    integer(c_int) :: cflag, rc
    integer :: ival, ierr
    logical :: flag
    acc = 0
    select case (kind)
    case (K_FLOOR)
      do i = 1, n
        rc = floor_get(1_c_int, int(key, c_int), c_loc(fval), cflag)
        if (cflag /= 0) acc = acc + fval(1)  ! as the get loops
      end do
    case (K_COMM_GET)
      do i = 1, n
        call MPI_COMM_GET_ATTR(comm, key, aval, flag, ierr)
        if (flag) acc = acc + aval
      end do
    case (K_ATTR_GET)
      do i = 1, n
        call MPI_ATTR_GET(comm, key, ival, flag, ierr)
        if (flag) acc = acc + ival
      end do
    end select
    sink = sink + acc
  end subroutine body

  ! Iterations for one run: grow until a run lasts a quarter of the budget, then scale.
  integer(i8) function calibrate(kind, comm, key)
    integer, intent(in) :: kind, comm, key
    integer(i8) :: it
    real(dp) :: t0, t
    it = 1
    do
      t0 = now_ns()
      call body(kind, it, comm, key)
      t = now_ns() - t0
      if (it >= max_iters) then
        calibrate = max_iters
        return
      end if
      if (t >= budget_ns / 4) then
        calibrate = max(1_i8, min(max_iters, int(real(it, dp) * budget_ns / t, i8)))
        return
      end if
      it = min(it * 4, max_iters)
    end do
  end function calibrate

  subroutine sort(v)
    real(dp), intent(inout) :: v(:)
    integer :: i, j
    real(dp) :: x
    do i = 2, size(v)
      x = v(i)
      j = i - 1
      do while (j >= 1)
        if (v(j) <= x) exit
        v(j + 1) = v(j)
        j = j - 1
      end do
      v(j + 1) = x
    end do
  end subroutine sort

  real(dp) function median_of(v)
    real(dp), intent(inout) :: v(:)
    integer :: n
    call sort(v)
    n = size(v)
    if (mod(n, 2) == 1) then
      median_of = v(n / 2 + 1)
    else
      median_of = (v(n / 2) + v(n / 2 + 1)) / 2
    end if
  end function median_of

  real(dp) function time_case(name, kind, comm, key, is_get)
    character(len=*), intent(in) :: name
    integer, intent(in) :: kind, comm, key
    logical, intent(in) :: is_get
    real(dp), allocatable :: v(:), f(:)
    integer(i8) :: it, fit
    integer :: r
    real(dp) :: t0, med
    character(len=32) :: ratio
    allocate (v(runs), f(runs))
    it = calibrate(kind, comm, key)
    fit = 0
    if (is_get) fit = calibrate(K_FLOOR, 0, 3)
    do r = 1, runs
      if (is_get) then
        t0 = now_ns()
        call body(K_FLOOR, fit, 0, 3)
        f(r) = (now_ns() - t0) / real(fit, dp)
      end if
      t0 = now_ns()
      call body(kind, it, comm, key)
      v(r) = (now_ns() - t0) / real(it, dp)
    end do
    med = median_of(v)
    ratio = ''
    if (is_get) write (ratio, '(F0.3)') med / median_of(f)
    write (*, '(A,",",A,",",F0.3,",",F0.3,",",F0.3,",ns/op,",A)') trim(name), trim(impl), &
      med, v(1), v(runs), trim(ratio)
    flush (6)
    time_case = med
  end function time_case

end module bench_harness

program attr_bench_f
  use mpi
  use bench_harness
  implicit none
  integer, parameter :: NA = 16
  integer :: ierr, comm_new, comm_old, k, i, nargs
  integer :: keys_new(NA), keys_old(NA)
  integer(kind=MPI_ADDRESS_KIND) :: extra, val
  character(len=256) :: arg, arg2
  character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: version
  real(dp) :: dummy, t_end
  logical :: impl_given

  impl_given = .false.
  nargs = command_argument_count()
  i = 1
  do while (i <= nargs)
    call get_command_argument(i, arg)
    if (i + 1 > nargs) call usage()
    call get_command_argument(i + 1, arg2)
    select case (trim(arg))
    case ('--impl')
      impl = arg2
      impl_given = .true.
    case ('-r')
      read (arg2, *) runs
    case ('-n')
      read (arg2, *) max_iters
    case ('-t')
      read (arg2, *) budget_ns
      budget_ns = budget_ns * 1.0e6_dp
    case ('--warm')
      read (arg2, *) warm_ns
      warm_ns = warm_ns * 1.0e6_dp
    case ('--mem-comms', '--mem-attrs')
      ! accepted (and ignored) so both benchmarks take the same command line
    case default
      call usage()
    end select
    i = i + 2
  end do
  if (runs < 1 .or. max_iters < 1 .or. budget_ns <= 0 .or. warm_ns < 0) call usage()

  call MPI_INIT(ierr)
  if (.not. impl_given) then
    call MPI_GET_LIBRARY_VERSION(version, k, ierr)
    if (index(version, 'Open MPI') > 0) then
      impl = 'openmpi'
    else if (index(version, 'MPICH') > 0) then
      impl = 'mpich'
    else if (index(version, 'mpicache') > 0) then
      impl = 'mpicache'
    end if
  end if
  write (*, '(A)') '# case,impl,median,min,max,unit,floor_ratio'

  ! The floor, after a warm-up (see the C benchmark).
  t_end = now_ns() + warm_ns
  do while (now_ns() < t_end)
    call body(K_FLOOR, 1000_i8, 0, 3)
  end do
  dummy = time_case('f_floor', K_FLOOR, 0, 3, .false.)

  ! 16 attributes through MPI_COMM_SET_ATTR (ADDRESS_KIND values) on one dup ...
  call MPI_COMM_DUP(MPI_COMM_WORLD, comm_new, ierr)
  extra = 0
  do k = 1, NA
    call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, keys_new(k), &
                                extra, ierr)
    val = k
    call MPI_COMM_SET_ATTR(comm_new, keys_new(k), val, ierr)
  end do
  ! ... and 16 through the deprecated MPI_ATTR_PUT (INTEGER values) on another.
  call MPI_COMM_DUP(MPI_COMM_WORLD, comm_old, ierr)
  do k = 1, NA
    call MPI_KEYVAL_CREATE(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, keys_old(k), 0, ierr)
    call MPI_ATTR_PUT(comm_old, keys_old(k), k, ierr)
  end do
  if (ierr /= MPI_SUCCESS) then
    write (0, *) 'attr_bench_f: setting the attributes failed'
    call MPI_ABORT(MPI_COMM_WORLD, 1, ierr)
  end if

  dummy = time_case('f_comm_get_16_first', K_COMM_GET, comm_new, keys_new(1), .true.)
  dummy = time_case('f_comm_get_16_last', K_COMM_GET, comm_new, keys_new(NA), .true.)
  dummy = time_case('f_attr_get_16_first', K_ATTR_GET, comm_old, keys_old(1), .true.)
  dummy = time_case('f_attr_get_16_last', K_ATTR_GET, comm_old, keys_old(NA), .true.)

  call MPI_COMM_FREE(comm_new, ierr)
  call MPI_COMM_FREE(comm_old, ierr)
  do k = 1, NA
    call MPI_COMM_FREE_KEYVAL(keys_new(k), ierr)
    call MPI_KEYVAL_FREE(keys_old(k), ierr)
  end do
  write (*, '(A,I0)') '# sink ', sink
  call MPI_FINALIZE(ierr)

contains

  subroutine usage()
    write (0, '(A)') 'usage: attr_bench_f [--impl NAME] [-r RUNS] [-n ITERS] [-t MS] [--warm MS]'
    stop 2
  end subroutine usage

end program attr_bench_f
