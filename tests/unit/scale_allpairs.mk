# Exchanges with every member in turn (ring and pairwise schedules, on the world and on
# the rows of a grid) recorded by hand at 2, 4 and 8, 3, 6 and 12, and 6, 12 and 24
# processes: every process's messages synthesized at 16 and 64, a pairwise schedule at
# 12 refused.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_allpairs
TESTS += unit/test_scale_allpairs
unit_test_scale_allpairs_SOURCES = unit/test_scale_allpairs.c unit/trace_builder.c \
	unit/scale_messages.c unit/scale_messages.h unit/scale_traces.c unit/scale_traces.h \
	unit/trace_builder.h
unit_test_scale_allpairs_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_scale_allpairs_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) \
	$(OTF2_LIBS) $(MPI_LIBS) -lm
endif
