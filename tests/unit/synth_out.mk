# A synthesized run written as OTF2: a hand-built recording, a run of other processes
# and communicators synthesized on it, read back by the reader and the analyzer.
if HAVE_CRITERION
check_PROGRAMS += unit/test_synth_out
TESTS += unit/test_synth_out
unit_test_synth_out_SOURCES = unit/test_synth_out.c unit/trace_builder.c unit/trace_builder.h
unit_test_synth_out_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS) \
	-I$(top_srcdir)/analyzer
unit_test_synth_out_LDADD = $(top_builddir)/replay/libpzreplay.la \
	$(top_builddir)/analyzer/libpzanalyzer.la $(CRITERION_LIBS) $(OTF2_LIBS) -lm
endif
