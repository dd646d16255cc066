# prognoz scale end to end: programs/scale_grid.c recorded at 2, 3 and 4 processes,
# extrapolated and predicted (integration/scale.sh).
check_PROGRAMS += programs/scale_grid
programs_scale_grid_SOURCES = programs/scale_grid.c
programs_scale_grid_CPPFLAGS = $(MPI_CFLAGS) -I$(top_srcdir)/include
programs_scale_grid_CFLAGS = $(PZ_CFLAGS)
programs_scale_grid_LDADD = $(MPI_LIBS)
PZ_IT_TESTS += integration/scale.sh
EXTRA_DIST += integration/scale.sh
