# The analysis of a run given record by record: a predicted run analyzed as the replay
# gives it and from its written trace, the same; records given out of time order.
if HAVE_CRITERION
check_PROGRAMS += unit/test_analysis_stream
TESTS += unit/test_analysis_stream
unit_test_analysis_stream_SOURCES = unit/test_analysis_stream.c unit/trace_builder.c \
	unit/trace_builder.h unit/two_processes.c unit/two_processes.h
unit_test_analysis_stream_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS) \
	-I$(top_srcdir)/analyzer
unit_test_analysis_stream_LDADD = $(top_builddir)/replay/libpzreplay.la \
	$(top_builddir)/analyzer/libpzanalyzer.la $(CRITERION_LIBS) $(OTF2_LIBS) -lm
endif
