# The memory prognoz scale needs at a count against the memory it may take: the
# estimate, /proc/meminfo's available memory, the smallest of the bounds, and the
# one-line refusal of a count that cannot fit.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_memory
TESTS += unit/test_scale_memory
unit_test_scale_memory_SOURCES = unit/test_scale_memory.c
unit_test_scale_memory_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_scale_memory_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) -lm
endif
