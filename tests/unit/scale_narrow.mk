# A refusal that names why: a 3-D periodic halo exchange recorded by hand at 4, 8 and 16
# processes, whose first dimension has 2 processes at 4 and 8 and 4 at 16.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_narrow
TESTS += unit/test_scale_narrow
unit_test_scale_narrow_SOURCES = unit/test_scale_narrow.c unit/trace_builder.c \
	unit/scale_traces.c unit/scale_traces.h \
	unit/trace_builder.h
unit_test_scale_narrow_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_scale_narrow_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) \
	$(OTF2_LIBS) $(MPI_LIBS) -lm
endif
