# prognoz scale replaying a sample of a long loop's passes (integration/scale_passes.sh),
# on synthetic recordings of bench/gentrace (no MPI job: 600 iterations in a moment).
check_PROGRAMS += programs/gentrace
programs_gentrace_SOURCES = $(top_srcdir)/bench/gentrace.c
programs_gentrace_CPPFLAGS = -I$(top_srcdir)/trace -I$(top_builddir)/trace \
	-I$(top_srcdir)/model $(OTF2_CFLAGS)
programs_gentrace_CFLAGS = $(PZ_CFLAGS)
programs_gentrace_LDADD = $(top_builddir)/trace/libpzcalls.la $(OTF2_LIBS)
PZ_IT_TESTS += integration/scale_passes.sh
EXTRA_DIST += integration/scale_passes.sh integration/whole-message.conf
