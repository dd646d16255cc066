# Trip counts of a loop that only a form of P gives exactly, which a simpler one comes
# near: the q - 1 stages of NAS BT/SP's solve on q^2 processes, recorded by hand at 4, 9
# and 16 processes and synthesized at 16, 25 and 64.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_trips
TESTS += unit/test_scale_trips
unit_test_scale_trips_SOURCES = unit/test_scale_trips.c unit/trace_builder.c \
	unit/scale_traces.c unit/scale_traces.h \
	unit/trace_builder.h
unit_test_scale_trips_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_scale_trips_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) \
	$(OTF2_LIBS) $(MPI_LIBS) -lm
endif
