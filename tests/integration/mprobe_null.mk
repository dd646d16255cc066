# Matched probes and receives on MPI_PROC_NULL on a real 2-rank run:
# programs/mprobe_null.c, recorded and predicted by integration/mprobe_null.sh.
check_PROGRAMS += programs/mprobe_null
programs_mprobe_null_SOURCES = programs/mprobe_null.c
programs_mprobe_null_CPPFLAGS = $(MPI_CFLAGS)
programs_mprobe_null_CFLAGS = $(PZ_CFLAGS)
programs_mprobe_null_LDADD = $(MPI_LIBS)
PZ_IT_TESTS += integration/mprobe_null.sh
EXTRA_DIST += integration/mprobe_null.sh
