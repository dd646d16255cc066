# Partners by rank arithmetic that the scaling's recordings cannot tell from neighbours
# in the grid: a recursive doubling (rank XOR 2^i) recorded by hand at 2, 4 and 8
# processes is noted and synthesized on the grid at 16 and 64; a 2-D halo exchange is not.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_hypercube
TESTS += unit/test_scale_hypercube
unit_test_scale_hypercube_SOURCES = unit/test_scale_hypercube.c unit/trace_builder.c \
	unit/scale_traces.c unit/scale_traces.h \
	unit/trace_builder.h
unit_test_scale_hypercube_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_scale_hypercube_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) \
	$(OTF2_LIBS) $(MPI_LIBS) -lm
endif
