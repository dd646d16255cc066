# A recording read relatively for the scaling: hand-built traces give back their grid,
# peers as offsets, communicator classes, roots, completions' postings and gaps; bad
# recordings are refused in one line.  The balanced layout is checked against MPICH's
# MPI_Dims_create in a singleton MPI.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_run
TESTS += unit/test_scale_run
unit_test_scale_run_SOURCES = unit/test_scale_run.c unit/trace_builder.c unit/trace_builder.h
unit_test_scale_run_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_scale_run_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) \
	$(OTF2_LIBS) $(MPI_LIBS) -lm
endif
