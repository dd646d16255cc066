# MPI 4.0's constructors from groups, recorded and predicted (integration/fromgroups.sh).
check_PROGRAMS += programs/fromgroups
programs_fromgroups_SOURCES = programs/fromgroups.c
programs_fromgroups_CPPFLAGS = $(MPI_CFLAGS)
programs_fromgroups_CFLAGS = $(PZ_CFLAGS)
programs_fromgroups_LDADD = $(MPI_LIBS)
PZ_IT_TESTS += integration/fromgroups.sh
EXTRA_DIST += integration/fromgroups.sh
