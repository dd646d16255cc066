# A recorded trace analyzed through the trace layer's records: the same as through
# OTF2's global reader; many processes take it; partial and damaged traces.
if HAVE_CRITERION
check_PROGRAMS += unit/test_analysis_records
TESTS += unit/test_analysis_records
unit_test_analysis_records_SOURCES = unit/test_analysis_records.c unit/trace_builder.c \
	unit/trace_builder.h unit/two_processes.c unit/two_processes.h
unit_test_analysis_records_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS) \
	-I$(top_srcdir)/analyzer
unit_test_analysis_records_LDADD = $(top_builddir)/analyzer/libpzanalyzer.la \
	$(CRITERION_LIBS) $(OTF2_LIBS) -lm
endif
