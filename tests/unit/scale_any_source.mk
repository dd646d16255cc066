# Receives from MPI_ANY_SOURCE marked by the recorder (prognoz:any_source): a collection
# at rank 0 each step, its senders in a different arrival order at each, recorded by hand
# at 2, 4 and 8 processes, synthesized at 16 as P - 1 receives per step; the same
# recordings without the mark refused.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_any_source
TESTS += unit/test_scale_any_source
unit_test_scale_any_source_SOURCES = unit/test_scale_any_source.c unit/trace_builder.c \
	unit/scale_traces.c unit/scale_traces.h unit/trace_builder.h
unit_test_scale_any_source_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_scale_any_source_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) \
	$(OTF2_LIBS) $(MPI_LIBS) -lm
endif
