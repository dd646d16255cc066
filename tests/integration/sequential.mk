# Sequential intervals on a real run: the marker, the trace's region, the insufficient
# parallelism of the report and of a prediction (integration/sequential.sh).
check_PROGRAMS += programs/sequential
programs_sequential_SOURCES = programs/sequential.c programs/sleep_ms.h
programs_sequential_CPPFLAGS = $(MPI_CFLAGS) -I$(top_srcdir)/include
programs_sequential_CFLAGS = $(PZ_CFLAGS) -g
programs_sequential_LDADD = $(MPI_LIBS)
PZ_IT_TESTS += integration/sequential.sh
EXTRA_DIST += integration/sequential.sh
