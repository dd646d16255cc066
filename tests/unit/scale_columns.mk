# Sizes of a collective on the columns of a 2-D process grid whose share per other
# member has a form of one term and whose whole only forms of two fit: recorded by hand
# at 4, 8 and 16 processes and synthesized at 16, 32 and 64; and prognoz scale on rows and
# columns of such a grid.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_columns
TESTS += unit/test_scale_columns
unit_test_scale_columns_SOURCES = unit/test_scale_columns.c unit/trace_builder.c \
	unit/scale_traces.c unit/scale_traces.h \
	unit/trace_builder.h
unit_test_scale_columns_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS) \
	-DPROGNOZ_PATH='"$(abs_top_builddir)/tools/prognoz"' \
	-DMACHINE_PATH='"$(abs_top_srcdir)/share/machines/gigabit-switch.conf"'
unit_test_scale_columns_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) \
	$(OTF2_LIBS) $(MPI_LIBS) -lm
endif
