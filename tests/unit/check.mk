# What every reader checks of a trace (trace/open.h, trace/check.h) on hand-built traces.
if HAVE_CRITERION
check_PROGRAMS += unit/test_check
TESTS += unit/test_check
unit_test_check_SOURCES = unit/test_check.c unit/trace_builder.c unit/trace_builder.h
unit_test_check_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/analyzer
unit_test_check_LDADD = $(top_builddir)/analyzer/libpzanalyzer.la $(CRITERION_LIBS) \
	$(OTF2_LIBS) -lm
endif
