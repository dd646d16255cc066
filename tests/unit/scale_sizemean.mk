# Point-to-point sizes that differ between processes: a pipeline whose processes each send
# a size of their own, recorded by hand at 2, 4 and 8 processes and synthesized at 5 to 64,
# against the mean over the processes fitted over P worked out by hand (sizes that spread
# by the data), or the largest (an uneven split's blocks, one unit apart).
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_sizemean
TESTS += unit/test_scale_sizemean
unit_test_scale_sizemean_SOURCES = unit/test_scale_sizemean.c unit/scale_runs.c unit/scale_runs.h
unit_test_scale_sizemean_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_scale_sizemean_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) -lm
endif
