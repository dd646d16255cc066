# A SUMMA-like matrix product, its rows and columns by MPI_Comm_split or MPI_Cart_sub and
# its broadcasts' roots turning with the step, and broadcasts and reductions on the world
# from root k at step k, recorded by hand at 2, 4 and 8 and at 3, 6 and 12 processes:
# every process's collectives synthesized at 16 and 64; and prognoz scale on them.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_summa
TESTS += unit/test_scale_summa
unit_test_scale_summa_SOURCES = unit/test_scale_summa.c unit/trace_builder.c \
	unit/scale_messages.c unit/scale_messages.h unit/scale_traces.c unit/scale_traces.h \
	unit/trace_builder.h
unit_test_scale_summa_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS) \
	-DPROGNOZ_PATH='"$(abs_top_builddir)/tools/prognoz"' \
	-DMACHINE_PATH='"$(abs_top_srcdir)/share/machines/gigabit-switch.conf"'
unit_test_scale_summa_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) \
	$(OTF2_LIBS) $(MPI_LIBS) -lm
endif
