# The replay engine: hand-built traces predicted on machines set up in code, every
# expected time worked out by hand from the engine's rules and the model's formulas.
if HAVE_CRITERION
check_PROGRAMS += unit/test_engine
TESTS += unit/test_engine
unit_test_engine_SOURCES = unit/test_engine.c unit/trace_builder.c unit/trace_builder.h
unit_test_engine_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS) \
	-I$(top_srcdir)/analyzer
unit_test_engine_LDADD = $(top_builddir)/replay/libpzreplay.la \
	$(top_builddir)/analyzer/libpzanalyzer.la $(CRITERION_LIBS) $(OTF2_LIBS) -lm
endif
