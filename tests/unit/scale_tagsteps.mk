# Loops whose tags advance, run once or twice at the smallest counts (scale_tags.c): an
# odd-even transposition sort recorded by hand at 2, 4 and 8 processes and a ring tagged
# by its step at 3, 6 and 12 (test_scale_tagsteps.c).
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_tagsteps
TESTS += unit/test_scale_tagsteps
unit_test_scale_tagsteps_SOURCES = unit/test_scale_tagsteps.c unit/trace_builder.c \
	unit/scale_messages.c unit/scale_messages.h unit/scale_traces.c unit/scale_traces.h \
	unit/trace_builder.h
unit_test_scale_tagsteps_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_scale_tagsteps_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) \
	$(OTF2_LIBS) $(MPI_LIBS) -lm
endif
