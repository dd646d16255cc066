# The Perfetto export: a hand-built trace exported and every event compared with the
# JSON written in the test from docs/perfetto.md; the classes of the MPI functions.
if HAVE_CRITERION
check_PROGRAMS += unit/test_perfetto
TESTS += unit/test_perfetto
unit_test_perfetto_SOURCES = unit/test_perfetto.c unit/trace_builder.c unit/trace_builder.h
unit_test_perfetto_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_perfetto_LDADD = $(top_builddir)/export/libpzexport.la $(CRITERION_LIBS) \
	$(OTF2_LIBS) -lm
endif
