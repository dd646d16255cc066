# Partial traces of runs that end without MPI_Finalize (integration/partial.sh).
check_PROGRAMS += programs/partial
programs_partial_SOURCES = programs/partial.c
programs_partial_CPPFLAGS = $(MPI_CFLAGS)
programs_partial_CFLAGS = $(PZ_CFLAGS)
programs_partial_LDADD = $(MPI_LIBS)
PZ_IT_TESTS += integration/partial.sh
EXTRA_DIST += integration/partial.sh
