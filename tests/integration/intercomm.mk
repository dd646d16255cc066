# Collectives on an intercommunicator, recorded and predicted (integration/intercomm.sh).
check_PROGRAMS += programs/intercomm
programs_intercomm_SOURCES = programs/intercomm.c
programs_intercomm_CPPFLAGS = $(MPI_CFLAGS)
programs_intercomm_CFLAGS = $(PZ_CFLAGS)
programs_intercomm_LDADD = $(MPI_LIBS)
PZ_IT_TESTS += integration/intercomm.sh
EXTRA_DIST += integration/intercomm.sh
