# One-sided communication extrapolated: a 1-D halo of puts between fences, a 2-D halo of
# gets under locks of the neighbours, lock_all and flushes on a periodic ring, recorded
# by hand at three counts and synthesized at 16 and 64, request-based puts completed by
# MPI_Waitall, every process accumulating into rank 0; post-start-complete-wait and
# targets neither neighbours nor common refused in one line.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_rma
TESTS += unit/test_scale_rma
unit_test_scale_rma_SOURCES = unit/test_scale_rma.c unit/trace_builder.c \
	unit/scale_traces.c unit/scale_traces.h unit/trace_builder.h
unit_test_scale_rma_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_scale_rma_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) \
	$(OTF2_LIBS) $(MPI_LIBS) -lm
endif
