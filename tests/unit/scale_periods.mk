# Time steps with a collective every 10 steps and another every 25, recorded by hand at
# 4, 8 and 12 processes: the steps, collectives and their order synthesized at 16 and 64.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_periods
TESTS += unit/test_scale_periods
unit_test_scale_periods_SOURCES = unit/test_scale_periods.c unit/trace_builder.c \
	unit/scale_messages.c unit/scale_messages.h unit/scale_traces.c unit/scale_traces.h \
	unit/trace_builder.h
unit_test_scale_periods_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_scale_periods_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) \
	$(OTF2_LIBS) $(MPI_LIBS) -lm
endif
