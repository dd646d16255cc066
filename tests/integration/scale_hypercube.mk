# prognoz scale of a sum by recursive doubling written by hand, its blocking sends and
# receives ordered by the partner's bit, end to end: recorded at 2 and 4 processes,
# extrapolated to 8 and 16 (integration/scale_hypercube.sh).
check_PROGRAMS += programs/scale_hypercube
programs_scale_hypercube_SOURCES = programs/scale_hypercube.c
programs_scale_hypercube_CPPFLAGS = $(MPI_CFLAGS) -I$(top_srcdir)/include
programs_scale_hypercube_CFLAGS = $(PZ_CFLAGS)
programs_scale_hypercube_LDADD = $(MPI_LIBS)
PZ_IT_TESTS += integration/scale_hypercube.sh
EXTRA_DIST += integration/scale_hypercube.sh
