# prognoz scale of a halo exchange ordered by the parity of the rank end to end:
# share/validation/redblack.c recorded at 2 and 4 processes, extrapolated to 8 and 16
# (integration/scale_redblack.sh).
check_PROGRAMS += programs/scale_redblack
programs_scale_redblack_SOURCES = programs/scale_redblack.c
programs_scale_redblack_CPPFLAGS = $(MPI_CFLAGS) -I$(top_srcdir)/include
programs_scale_redblack_CFLAGS = $(PZ_CFLAGS)
programs_scale_redblack_LDADD = $(MPI_LIBS)
PZ_IT_TESTS += integration/scale_redblack.sh
EXTRA_DIST += integration/scale_redblack.sh
