# Time steps whose two halves end with the call they begin with (LAMMPS's forward and
# reverse communications), folded into loops: recorded by hand at 9, 12 and 16
# processes on a 2-D periodic grid, synthesized at those counts and at 25 and 36.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_fold
TESTS += unit/test_scale_fold
unit_test_scale_fold_SOURCES = unit/test_scale_fold.c unit/trace_builder.c \
	unit/scale_traces.c unit/scale_traces.h \
	unit/trace_builder.h
unit_test_scale_fold_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_scale_fold_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) \
	$(OTF2_LIBS) $(MPI_LIBS) -lm
endif
