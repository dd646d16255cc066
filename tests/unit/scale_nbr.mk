# Nonblocking neighbourhood collectives of the scaling: a halo exchange by
# MPI_Ineighbor_alltoallv and MPI_Waitall on 1-D and 2-D grids, periodic and not, and
# one whose boundary processes move other sizes, recorded by hand at 2, 4 and 8
# processes and synthesized at 16, every process's calls, lists and bytes checked.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_nbr
TESTS += unit/test_scale_nbr
unit_test_scale_nbr_SOURCES = unit/test_scale_nbr.c unit/scale_runs.c unit/scale_runs.h
unit_test_scale_nbr_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_scale_nbr_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) -lm
endif
