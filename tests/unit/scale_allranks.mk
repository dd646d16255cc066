# Exchanges with every member in turn over the ranks in ascending or descending order
# (by MPI_Irecv and MPI_Isend, MPI_Sendrecv, or MPI_Send and MPI_Recv ordered by rank),
# a gather by hand after one, rank XOR i ordered by rank, recorded by hand at 2, 4 and 8,
# 3, 6 and 12, and 6, 12 and 24 processes: every process's messages synthesized at 16
# and 64, a pairwise schedule at 12 refused, a halo of 26 neighbours not taken for one.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_allranks
TESTS += unit/test_scale_allranks
unit_test_scale_allranks_SOURCES = unit/test_scale_allranks.c unit/trace_builder.c \
	unit/scale_messages.c unit/scale_messages.h unit/scale_traces.c unit/scale_traces.h \
	unit/trace_builder.h
unit_test_scale_allranks_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_scale_allranks_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) \
	$(OTF2_LIBS) $(MPI_LIBS) -lm
endif
