# The predicted trace written back as OTF2: a hand-built recorded trace replayed with
# new times, read back event by event, by the analyzer and by otf2-print.
if HAVE_CRITERION
check_PROGRAMS += unit/test_trace_out
TESTS += unit/test_trace_out
unit_test_trace_out_SOURCES = unit/test_trace_out.c unit/trace_builder.c \
	unit/trace_builder.h unit/two_processes.c unit/two_processes.h
unit_test_trace_out_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS) \
	-I$(top_srcdir)/analyzer
unit_test_trace_out_LDADD = $(top_builddir)/replay/libpzreplay.la \
	$(top_builddir)/analyzer/libpzanalyzer.la $(CRITERION_LIBS) $(OTF2_LIBS) -lm
endif
