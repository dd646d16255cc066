# Calls that neither move data nor wait left out of a recorded run made by hand.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_local
TESTS += unit/test_scale_local
unit_test_scale_local_SOURCES = unit/test_scale_local.c
unit_test_scale_local_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_scale_local_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) -lm
endif
