# MPI-4 point-to-point, MPI_Comm_idup, partitioned, one-sided and MPI-IO calls, and the
# large-count forms, recorded (integration/isendrecv.sh, idup.sh, partitioned.sh, rma.sh,
# io.sh, largecount.sh).
check_PROGRAMS += programs/isendrecv programs/idup programs/partitioned programs/rma \
	programs/io programs/largecount
programs_isendrecv_SOURCES = programs/isendrecv.c
programs_isendrecv_CPPFLAGS = $(MPI_CFLAGS)
programs_isendrecv_CFLAGS = $(PZ_CFLAGS)
programs_isendrecv_LDADD = $(MPI_LIBS)
programs_idup_SOURCES = programs/idup.c
programs_idup_CPPFLAGS = $(MPI_CFLAGS)
programs_idup_CFLAGS = $(PZ_CFLAGS)
programs_idup_LDADD = $(MPI_LIBS)
programs_partitioned_SOURCES = programs/partitioned.c
programs_partitioned_CPPFLAGS = $(MPI_CFLAGS)
programs_partitioned_CFLAGS = $(PZ_CFLAGS)
programs_partitioned_LDADD = $(MPI_LIBS)
programs_rma_SOURCES = programs/rma.c
programs_rma_CPPFLAGS = $(MPI_CFLAGS)
programs_rma_CFLAGS = $(PZ_CFLAGS)
programs_rma_LDADD = $(MPI_LIBS)
programs_io_SOURCES = programs/io.c
programs_io_CPPFLAGS = $(MPI_CFLAGS)
programs_io_CFLAGS = $(PZ_CFLAGS)
programs_io_LDADD = $(MPI_LIBS)
programs_largecount_SOURCES = programs/largecount.c
programs_largecount_CPPFLAGS = $(MPI_CFLAGS)
programs_largecount_CFLAGS = $(PZ_CFLAGS)
programs_largecount_LDADD = $(MPI_LIBS)
PZ_IT_TESTS += integration/isendrecv.sh integration/idup.sh integration/partitioned.sh \
	integration/rma.sh integration/io.sh integration/largecount.sh
EXTRA_DIST += integration/isendrecv.sh integration/idup.sh integration/partitioned.sh \
	integration/rma.sh integration/io.sh integration/largecount.sh
