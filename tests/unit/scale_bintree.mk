# A broadcast and a reduction written by hand as MPICH's binomial tree (root 0), recorded
# by hand at 2, 4 and 8 and at 3, 6 and 12 processes: every process's messages
# synthesized at 16 and 64, a count not a power of two refused from powers alone.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_bintree
TESTS += unit/test_scale_bintree
unit_test_scale_bintree_SOURCES = unit/test_scale_bintree.c unit/trace_builder.c \
	unit/scale_messages.c unit/scale_messages.h unit/scale_traces.c unit/scale_traces.h \
	unit/trace_builder.h
unit_test_scale_bintree_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_scale_bintree_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) \
	$(OTF2_LIBS) $(MPI_LIBS) -lm
endif
