# Point-to-point sizes the data decide: a pipeline whose message sizes alternate between
# iterations, recorded by hand at 2, 4 and 8 processes and synthesized at 5, 16 and 48,
# against the mean fitted over P worked out by hand; a constant size kept.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_sizes
TESTS += unit/test_scale_sizes
unit_test_scale_sizes_SOURCES = unit/test_scale_sizes.c unit/scale_runs.c unit/scale_runs.h
unit_test_scale_sizes_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_scale_sizes_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) -lm
endif
