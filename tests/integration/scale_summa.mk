# prognoz scale of a SUMMA-like product end to end: share/validation/summa.c recorded at
# 2, 3 and 4 processes, extrapolated to 8 and 16 (integration/scale_summa.sh).
check_PROGRAMS += programs/scale_summa
programs_scale_summa_SOURCES = programs/scale_summa.c
programs_scale_summa_CPPFLAGS = $(MPI_CFLAGS) -I$(top_srcdir)/include
programs_scale_summa_CFLAGS = $(PZ_CFLAGS)
programs_scale_summa_LDADD = $(MPI_LIBS)
PZ_IT_TESTS += integration/scale_summa.sh
EXTRA_DIST += integration/scale_summa.sh
