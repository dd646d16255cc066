# prognoz scale of a broadcast and a sum to rank 0 written by hand as MPICH's binomial
# tree, end to end: recorded at 2 and 4 processes, extrapolated to 8 and 16
# (integration/scale_bintree.sh).
check_PROGRAMS += programs/scale_bintree
programs_scale_bintree_SOURCES = programs/scale_bintree.c
programs_scale_bintree_CPPFLAGS = $(MPI_CFLAGS) -I$(top_srcdir)/include
programs_scale_bintree_CFLAGS = $(PZ_CFLAGS)
programs_scale_bintree_LDADD = $(MPI_LIBS)
PZ_IT_TESTS += integration/scale_bintree.sh
EXTRA_DIST += integration/scale_bintree.sh
