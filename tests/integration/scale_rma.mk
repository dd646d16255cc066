# prognoz scale of one-sided communication end to end: share/validation/rmahalo.c
# recorded at 2, 3 and 4 processes, extrapolated to 8 and 16 (integration/scale_rma.sh).
check_PROGRAMS += programs/scale_rmahalo
programs_scale_rmahalo_SOURCES = programs/scale_rmahalo.c
programs_scale_rmahalo_CPPFLAGS = $(MPI_CFLAGS) -I$(top_srcdir)/include
programs_scale_rmahalo_CFLAGS = $(PZ_CFLAGS)
programs_scale_rmahalo_LDADD = $(MPI_LIBS)
PZ_IT_TESTS += integration/scale_rma.sh
EXTRA_DIST += integration/scale_rma.sh
