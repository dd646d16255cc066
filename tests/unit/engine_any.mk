# The replay's pools of MPI_Waitany / MPI_Waitsome calls: hand-built traces whose
# completion order on the model differs from the recorded one.
if HAVE_CRITERION
check_PROGRAMS += unit/test_engine_any
TESTS += unit/test_engine_any
unit_test_engine_any_SOURCES = unit/test_engine_any.c unit/trace_builder.c unit/trace_builder.h
unit_test_engine_any_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS) \
	-I$(top_srcdir)/analyzer
unit_test_engine_any_LDADD = $(top_builddir)/replay/libpzreplay.la \
	$(top_builddir)/analyzer/libpzanalyzer.la $(CRITERION_LIBS) $(OTF2_LIBS) -lm
endif
