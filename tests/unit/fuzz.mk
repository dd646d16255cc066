# The inputs of the fuzz targets (fuzz/corpus, and fuzz/regressions: each one crashed,
# hung or leaked once) read through the normal build: they must never crash.
if HAVE_CRITERION
check_PROGRAMS += unit/test_fuzz_regressions
TESTS += unit/test_fuzz_regressions
unit_test_fuzz_regressions_SOURCES = unit/test_fuzz_regressions.c unit/trace_builder.c \
	unit/trace_builder.h fuzz/seed_trace.c fuzz/seed_trace.h
unit_test_fuzz_regressions_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/analyzer \
	-I$(top_srcdir)/model -I$(top_srcdir)/trace -I$(srcdir)/fuzz -I$(srcdir)/unit \
	-DPZ_FUZZ_DIR='"$(abs_srcdir)/fuzz"'
unit_test_fuzz_regressions_LDADD = $(top_builddir)/analyzer/libpzanalyzer.la \
	$(top_builddir)/model/libpzmodel.la $(CRITERION_LIBS) $(OTF2_LIBS) -lm
endif
EXTRA_DIST += fuzz/build.sh fuzz/run.sh fuzz/lsan.supp fuzz/fuzz_machine.c fuzz/fuzz_defs.c \
	fuzz/corpus fuzz/regressions
