# Folding the widest repeats first on hand-made sequences of steps: a body's copies in
# its other runs and rotations, and many bodies kept in one pass.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_widest
TESTS += unit/test_scale_widest
unit_test_scale_widest_SOURCES = unit/test_scale_widest.c
unit_test_scale_widest_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_scale_widest_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) \
	$(OTF2_LIBS) -lm
endif
