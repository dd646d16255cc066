# Butterflies of blocking sends and receives ordered by the partner's bit, and of
# MPI_Sendrecv, their passes back to back, recorded by hand at 2, 4 and 8 processes (and
# 4, 8, 16): every process's messages synthesized at 16 and 64; a halo exchange ordered
# by the parity of the position at 2, 4 and 8 keeps its grid.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_rankorder
TESTS += unit/test_scale_rankorder
unit_test_scale_rankorder_SOURCES = unit/test_scale_rankorder.c unit/trace_builder.c \
	unit/scale_messages.c unit/scale_messages.h unit/scale_traces.c unit/scale_traces.h \
	unit/trace_builder.h
unit_test_scale_rankorder_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_scale_rankorder_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) \
	$(OTF2_LIBS) $(MPI_LIBS) -lm
endif
