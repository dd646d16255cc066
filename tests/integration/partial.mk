# Partial traces of runs that end without MPI_Finalize (integration/partial.sh).
check_PROGRAMS += programs/partial
programs_partial_SOURCES = programs/partial.c
programs_partial_CPPFLAGS = $(MPI_CFLAGS)
programs_partial_CFLAGS = $(PZ_CFLAGS)
programs_partial_LDADD = $(MPI_LIBS)
PZ_IT_TESTS += integration/partial.sh
EXTRA_DIST += integration/partial.sh

# Checkpoints and a process killed without warning (integration/partial_kill.sh).
check_PROGRAMS += programs/partial_kill
programs_partial_kill_SOURCES = programs/partial_kill.c
programs_partial_kill_CPPFLAGS = $(MPI_CFLAGS)
programs_partial_kill_CFLAGS = $(PZ_CFLAGS)
programs_partial_kill_LDADD = $(MPI_LIBS)
PZ_IT_TESTS += integration/partial_kill.sh
EXTRA_DIST += integration/partial_kill.sh
