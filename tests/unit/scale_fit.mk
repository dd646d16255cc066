# The scaling model of a computation's time: synthetic times of known formulas, exact
# and with a fixed noise, give back their form and coefficients; bad input is refused.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_fit
TESTS += unit/test_scale_fit
unit_test_scale_fit_SOURCES = unit/test_scale_fit.c
unit_test_scale_fit_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_scale_fit_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) -lm
endif
