# Butterflies (rank XOR 2^i over log2(P) stages) recorded by hand at 2, 4 and 8 and at
# 4, 8 and 16 processes: every process's messages synthesized at 16 and 64, counts that
# are not powers of two refused, stages that do not grow as log2(P) not taken for one.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_butterfly
TESTS += unit/test_scale_butterfly
unit_test_scale_butterfly_SOURCES = unit/test_scale_butterfly.c unit/trace_builder.c \
	unit/trace_builder.h
unit_test_scale_butterfly_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_scale_butterfly_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) \
	$(OTF2_LIBS) $(MPI_LIBS) -lm
endif
