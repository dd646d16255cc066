# prognoz scale of an all-to-all written by hand end to end: share/validation/alltoallp.c
# recorded at 2, 3 and 4 processes, extrapolated to 8 and 16 (integration/scale_allpairs.sh).
check_PROGRAMS += programs/scale_alltoallp
programs_scale_alltoallp_SOURCES = programs/scale_alltoallp.c
programs_scale_alltoallp_CPPFLAGS = $(MPI_CFLAGS) -I$(top_srcdir)/include
programs_scale_alltoallp_CFLAGS = $(PZ_CFLAGS)
programs_scale_alltoallp_LDADD = $(MPI_LIBS)
PZ_IT_TESTS += integration/scale_allpairs.sh
EXTRA_DIST += integration/scale_allpairs.sh
