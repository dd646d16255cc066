# The one reader of a trace's definitions (trace/defs.h) on hand-built traces.
if HAVE_CRITERION
check_PROGRAMS += unit/test_defs
TESTS += unit/test_defs
unit_test_defs_SOURCES = unit/test_defs.c unit/trace_builder.c unit/trace_builder.h
unit_test_defs_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/analyzer
unit_test_defs_LDADD = $(top_builddir)/analyzer/libpzanalyzer.la $(CRITERION_LIBS) \
	$(OTF2_LIBS) -lm
endif

# The int-count sibling of a large-count form (trace/large_count.h).
if HAVE_CRITERION
check_PROGRAMS += unit/test_large_count
TESTS += unit/test_large_count
unit_test_large_count_SOURCES = unit/test_large_count.c
unit_test_large_count_LDADD = $(top_builddir)/trace/libpztrace.la $(CRITERION_LIBS)
endif
