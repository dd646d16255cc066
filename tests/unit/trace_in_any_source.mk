# The mark of receives from MPI_ANY_SOURCE read into the records (trace/trace.h) from
# hand-built traces with and without it.
if HAVE_CRITERION
check_PROGRAMS += unit/test_trace_in_any_source
TESTS += unit/test_trace_in_any_source
unit_test_trace_in_any_source_SOURCES = unit/test_trace_in_any_source.c unit/trace_builder.c \
	unit/trace_builder.h
unit_test_trace_in_any_source_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_trace_in_any_source_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) \
	$(OTF2_LIBS) $(MPI_LIBS) -lm
endif
