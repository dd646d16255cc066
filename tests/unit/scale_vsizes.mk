# The v collectives of the scaling whose members move different amounts: a Gatherv of a
# block distribution, a Scatterv of edge and interior blocks and an Alltoallv of skewed
# sizes recorded by hand at 2, 4 and 8 processes, synthesized at 16 and 64 and checked
# process by process, with their per-peer lists; the pairs of each v collective from
# its members' sizes, worked out by hand.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_vsizes
TESTS += unit/test_scale_vsizes
unit_test_scale_vsizes_SOURCES = unit/test_scale_vsizes.c unit/scale_runs.c unit/scale_runs.h
unit_test_scale_vsizes_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_scale_vsizes_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) -lm
endif
