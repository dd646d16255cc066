# Neighbourhood collectives whose sizes differ within every class of position: a 1-D
# halo exchange whose pairs of processes exchange sizes of their own, recorded by hand at
# 4, 8 and 16 processes and synthesized at 12 and 32, against the mean over the
# processes fitted over P worked out by hand.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_nbrmean
TESTS += unit/test_scale_nbrmean
unit_test_scale_nbrmean_SOURCES = unit/test_scale_nbrmean.c unit/scale_runs.c unit/scale_runs.h
unit_test_scale_nbrmean_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_scale_nbrmean_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) -lm
endif
