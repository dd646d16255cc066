# MPI-4 persistent collectives (integration/pcoll.sh).
check_PROGRAMS += programs/pcoll
programs_pcoll_SOURCES = programs/pcoll.c
programs_pcoll_CPPFLAGS = $(MPI_CFLAGS)
programs_pcoll_CFLAGS = $(PZ_CFLAGS)
programs_pcoll_LDADD = $(MPI_LIBS)
PZ_IT_TESTS += integration/pcoll.sh
EXTRA_DIST += integration/pcoll.sh integration/reads.sh
