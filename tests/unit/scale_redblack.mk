# Steps ordered by the parity of the position (a red-black ordering) on a ring, a chain
# and a ring both ways recorded by hand at 2, 4 and 8 processes, a 2-D grid at 4, 8 and
# 12, and a checkerboard at 6, 9 and 12: every process's messages synthesized at 16 and 64 (the
# ring at 5 and 17 too); an order by the rank modulo 3 refused; and prognoz scale on a
# ring whose run at 5 cannot complete, which leaves no trace of it.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_redblack
TESTS += unit/test_scale_redblack
unit_test_scale_redblack_SOURCES = unit/test_scale_redblack.c unit/trace_builder.c \
	unit/scale_messages.c unit/scale_messages.h unit/scale_traces.c unit/scale_traces.h \
	unit/trace_builder.h
unit_test_scale_redblack_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS) \
	-DPROGNOZ_PATH='"$(abs_top_builddir)/tools/prognoz"' \
	-DMACHINE_PATH='"$(abs_top_srcdir)/share/machines/gigabit-switch.conf"'
unit_test_scale_redblack_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) \
	$(OTF2_LIBS) $(MPI_LIBS) -lm
endif
