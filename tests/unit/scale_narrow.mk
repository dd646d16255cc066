# A refusal that names why: a 3-D periodic halo exchange recorded by hand at 4, 8 and 16
# processes, whose first dimension has 2 processes at 4 and 8 and 4 at 16; a 2-D one
# whose second dimension has 1, 2, 2 processes at 2, 4, 8 (and 1, 2, 3 at 3, 6, 12,
# synthesized at 16).
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_narrow
TESTS += unit/test_scale_narrow
unit_test_scale_narrow_SOURCES = unit/test_scale_narrow.c unit/trace_builder.c \
	unit/scale_messages.c unit/scale_messages.h unit/scale_traces.c unit/scale_traces.h \
	unit/trace_builder.h
unit_test_scale_narrow_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_scale_narrow_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) \
	$(OTF2_LIBS) $(MPI_LIBS) -lm
endif
