# Steps made by one and the same rank alone in every recording (a benchmark's ping-pong
# between ranks 0 and 1 while the others wait at barriers), recorded by hand at 2, 4
# and 8 processes: every process's messages synthesized at 16 and 64.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_onerank
TESTS += unit/test_scale_onerank
unit_test_scale_onerank_SOURCES = unit/test_scale_onerank.c unit/trace_builder.c \
	unit/scale_messages.c unit/scale_messages.h unit/scale_traces.c unit/scale_traces.h \
	unit/trace_builder.h
unit_test_scale_onerank_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_scale_onerank_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) \
	$(OTF2_LIBS) $(MPI_LIBS) -lm
endif
