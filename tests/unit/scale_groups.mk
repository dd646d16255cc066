# Groups of processes in the scaling: hand-built recordings of a two-level reduction
# (blocks of k consecutive ranks and their leaders) and of a split by rank % k, classed
# across the counts and synthesized at counts not recorded, k dividing P or not; groups
# the data decide are refused.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_groups
TESTS += unit/test_scale_groups
unit_test_scale_groups_SOURCES = unit/test_scale_groups.c unit/trace_builder.c \
	unit/trace_builder.h
unit_test_scale_groups_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_scale_groups_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) \
	$(OTF2_LIBS) $(MPI_LIBS) -lm
endif
