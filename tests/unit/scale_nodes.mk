# The communicators that follow the machine's nodes in the scaling: hand-built
# recordings on one machine of a node-aware reduction (MPI_Comm_split_type and its
# leaders), synthesized on nodes of 4 in blocks or cyclically, and of every process.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_nodes
TESTS += unit/test_scale_nodes
unit_test_scale_nodes_SOURCES = unit/test_scale_nodes.c unit/trace_builder.c \
	unit/trace_builder.h
unit_test_scale_nodes_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_scale_nodes_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) \
	$(OTF2_LIBS) $(MPI_LIBS) -lm
endif
