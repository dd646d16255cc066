# Neighborhood collectives on a Cartesian grid (integration/nbrcoll.sh).
check_PROGRAMS += programs/nbrcoll
programs_nbrcoll_SOURCES = programs/nbrcoll.c
programs_nbrcoll_CPPFLAGS = $(MPI_CFLAGS)
programs_nbrcoll_CFLAGS = $(PZ_CFLAGS)
programs_nbrcoll_LDADD = $(MPI_LIBS)
PZ_IT_TESTS += integration/nbrcoll.sh
EXTRA_DIST += integration/nbrcoll.sh
