# The SimGrid export: hand-built traces exported and every file compared with the text
# written in the test from docs/simgrid.md; the platforms of share/machines.
if HAVE_CRITERION
check_PROGRAMS += unit/test_simgrid
TESTS += unit/test_simgrid
unit_test_simgrid_SOURCES = unit/test_simgrid.c unit/trace_builder.c unit/trace_builder.h
unit_test_simgrid_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS) \
	-DPZ_MACHINES_DIR='"$(abs_top_srcdir)/share/machines"'
unit_test_simgrid_LDADD = $(top_builddir)/export/libpzexport.la $(CRITERION_LIBS) \
	$(OTF2_LIBS) -lm
endif
