# Point-to-point sizes of a block distribution along a dimension of the grid: a 2-D halo
# exchange over 11 cells a side recorded by hand at 2, 4 and 8 processes, synthesized at
# 16 and 64 and checked message by message against sizes worked out by hand; halos
# carrying the block of the dimension they cross keep the largest.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_dim_blocks
TESTS += unit/test_scale_dim_blocks
unit_test_scale_dim_blocks_SOURCES = unit/test_scale_dim_blocks.c unit/scale_runs.c \
	unit/scale_runs.h
unit_test_scale_dim_blocks_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_scale_dim_blocks_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) -lm
endif
