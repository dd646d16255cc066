# Receives from MPI_ANY_SOURCE marked by the recorder and scaled from 2, 3 and 4 ranks:
# programs/anycollect.c, recorded and scaled by integration/anycollect.sh.
check_PROGRAMS += programs/anycollect
programs_anycollect_SOURCES = programs/anycollect.c
programs_anycollect_CPPFLAGS = $(MPI_CFLAGS)
programs_anycollect_CFLAGS = $(PZ_CFLAGS)
programs_anycollect_LDADD = $(MPI_LIBS)
PZ_IT_TESTS += integration/anycollect.sh
EXTRA_DIST += integration/anycollect.sh
