# The memory prognoz scale needs at a count against the memory it may take: the floor,
# the terms of the estimate, /proc/meminfo's available memory, the smallest of the
# bounds, and the one-line refusals.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_memory
TESTS += unit/test_scale_memory
unit_test_scale_memory_SOURCES = unit/test_scale_memory.c
unit_test_scale_memory_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_scale_memory_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) -lm
endif

# The figures of a program's run its memory estimate reads from the model: a ring with
# an Alltoallv recorded by hand, counted at 64 processes.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_memory_model
TESTS += unit/test_scale_memory_model
unit_test_scale_memory_model_SOURCES = unit/test_scale_memory_model.c unit/scale_runs.c \
	unit/scale_runs.h
unit_test_scale_memory_model_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_scale_memory_model_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) -lm
endif
