# The program model of the scaling: programs recorded by hand at 2, 4 and 8 processes,
# synthesized at 16 and 64 and checked record by record; differing recordings refused
# naming the place; what cannot be extrapolated noted.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_program
TESTS += unit/test_scale_program
unit_test_scale_program_SOURCES = unit/test_scale_program.c unit/scale_runs.c unit/scale_runs.h
unit_test_scale_program_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_scale_program_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) -lm
endif
