# Cannon's matrix product's skews (a partner at minus the row along the row, minus the
# column along the column), recorded by hand at 1, 4 and 9, at 4, 6 and 12, and with A on
# the rows at 4, 9 and 25 processes: every process's messages synthesized at 16, 24 and
# 64; offsets by twice the row refused; a skew no recording tells (2, 4, 8) noted.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_skew
TESTS += unit/test_scale_skew
unit_test_scale_skew_SOURCES = unit/test_scale_skew.c unit/trace_builder.c \
	unit/scale_messages.c unit/scale_messages.h unit/scale_traces.c unit/scale_traces.h \
	unit/trace_builder.h
unit_test_scale_skew_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_scale_skew_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) \
	$(OTF2_LIBS) $(MPI_LIBS) -lm
endif
