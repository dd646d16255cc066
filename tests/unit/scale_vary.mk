# The variation of the synthesized computations: ratios to the mean, deterministic and
# uniform draws among them; a synthesized computation varied by the ratios of the
# computations its model is of alone.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_vary
TESTS += unit/test_scale_vary
unit_test_scale_vary_SOURCES = unit/test_scale_vary.c unit/scale_runs.c unit/scale_runs.h
unit_test_scale_vary_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_scale_vary_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) -lm
endif
