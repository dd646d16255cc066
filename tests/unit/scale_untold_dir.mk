# Recordings at 2, 4 and 8 processes of 3-D decompositions (LAMMPS's swaps, halo3d's
# faces) extrapolated where their dimensions are longer: calls along a dimension of one
# process, and the directions taken along a periodic dimension of 2.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_untold_dir
TESTS += unit/test_scale_untold_dir
unit_test_scale_untold_dir_SOURCES = unit/test_scale_untold_dir.c unit/trace_builder.c \
	unit/trace_builder.h
unit_test_scale_untold_dir_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_scale_untold_dir_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) \
	$(OTF2_LIBS) $(MPI_LIBS) -lm
endif
