C     Smoke test of the layer's mpif.h routines (fixed form) over an engine MPI
C     (tests/layer_smoke.rs): MPI 4.1 section 20.3.7, an MPI_ATTR_PUT value read by
C     MPI_COMM_GET_ATTR is sign-extended; MPI_COMM_DUP_FN copies it; the dup's free runs the
C     delete callback of an MPI_KEYVAL_CREATE keyval.
      SUBROUTINE DELCB(COMM, KEYVAL, VAL, EXTRA, IERROR)
      INTEGER COMM, KEYVAL, VAL, EXTRA, IERROR
      INTEGER NDEL
      COMMON /CNT/ NDEL
      NDEL = NDEL + 1
      IERROR = 0
      END

      PROGRAM MPIFSM
      INCLUDE 'mpif.h'
      EXTERNAL DELCB
      INTEGER IERR, RANK, KEY, DUP, IVAL, NDEL
      INTEGER(KIND=MPI_ADDRESS_KIND) AVAL
      LOGICAL FLAG
      COMMON /CNT/ NDEL
      NDEL = 0
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_KEYVAL_CREATE(MPI_DUP_FN, DELCB, KEY, 0, IERR)
      CALL MPI_ATTR_PUT(MPI_COMM_WORLD, KEY, -3 - RANK, IERR)
      CALL MPI_COMM_GET_ATTR(MPI_COMM_WORLD, KEY, AVAL, FLAG, IERR)
      IF (.NOT. FLAG .OR. AVAL .NE. -3 - RANK) THEN
         PRINT *, 'FAILED MPI_ATTR_PUT value sign-extended', AVAL
         STOP 1
      END IF
      CALL MPI_COMM_DUP(MPI_COMM_WORLD, DUP, IERR)
      CALL MPI_ATTR_GET(DUP, KEY, IVAL, FLAG, IERR)
      IF (.NOT. FLAG .OR. IVAL .NE. -3 - RANK) THEN
         PRINT *, 'FAILED MPI_DUP_FN copy on MPI_COMM_DUP', IVAL
         STOP 1
      END IF
      CALL MPI_COMM_FREE(DUP, IERR)
      IF (NDEL .NE. 1) THEN
         PRINT *, 'FAILED delete callback on MPI_COMM_FREE', NDEL
         STOP 1
      END IF
      CALL MPI_ATTR_DELETE(MPI_COMM_WORLD, KEY, IERR)
      IF (NDEL .NE. 2) THEN
         PRINT *, 'FAILED delete callback on MPI_ATTR_DELETE', NDEL
         STOP 1
      END IF
      IF (RANK .EQ. 0) PRINT '(A)', 'mpif.h smoke ok'
      CALL MPI_FINALIZE(IERR)
      END
