# Patterns of others' codes for the scaling: tests over many requests and probes for a
# message, as many as the timing decides, are no steps, a completing test is the wait of
# its form; each completion of an MPI_Waitsome is a call; the ends of a prefix reduction;
# the grid of a program using MPI_Cart_sub's rows and columns by collectives alone.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_patterns
TESTS += unit/test_scale_patterns
unit_test_scale_patterns_SOURCES = unit/test_scale_patterns.c unit/trace_builder.c unit/trace_builder.h
unit_test_scale_patterns_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_scale_patterns_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) \
	$(OTF2_LIBS) $(MPI_LIBS) -lm
endif
