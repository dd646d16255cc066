# prognoz scale of a ring pipeline whose messages are tagged by its step end to end:
# programs/scale_tagring.c recorded at 3 and 4 processes, extrapolated to 8 and 16
# (integration/scale_tagring.sh).
check_PROGRAMS += programs/scale_tagring
programs_scale_tagring_SOURCES = programs/scale_tagring.c
programs_scale_tagring_CPPFLAGS = $(MPI_CFLAGS) -I$(top_srcdir)/include
programs_scale_tagring_CFLAGS = $(PZ_CFLAGS)
programs_scale_tagring_LDADD = $(MPI_LIBS)
PZ_IT_TESTS += integration/scale_tagring.sh
EXTRA_DIST += integration/scale_tagring.sh
