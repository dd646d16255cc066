# A loop whose trip count the data decide: one process runs it 3 and 5 times from one
# time step to the next, recorded by hand at 2, 4 and 8 processes, refused naming the
# loop; and one process running it 5 times where the others run it 3, accepted.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_data_trips
TESTS += unit/test_scale_data_trips
unit_test_scale_data_trips_SOURCES = unit/test_scale_data_trips.c unit/trace_builder.c \
	unit/scale_traces.c unit/scale_traces.h \
	unit/trace_builder.h
unit_test_scale_data_trips_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_scale_data_trips_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) \
	$(OTF2_LIBS) $(MPI_LIBS) -lm
endif
