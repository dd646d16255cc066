# Score-P's traces: archives written as Score-P writes them (its definitions, mapping
# tables, clock offsets and event sequences, from its sources), analyzed and checked
# against values worked out by hand.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scorep
TESTS += unit/test_scorep
unit_test_scorep_SOURCES = unit/test_scorep.c unit/trace_builder.c unit/trace_builder.h
unit_test_scorep_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/analyzer
unit_test_scorep_LDADD = $(top_builddir)/analyzer/libpzanalyzer.la $(CRITERION_LIBS) \
	$(OTF2_LIBS) -lm
endif
