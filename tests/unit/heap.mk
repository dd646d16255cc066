# The queue of the replay's threads and of the model's events: order by time, then by
# push, through its runs of one time.
if HAVE_CRITERION
check_PROGRAMS += unit/test_heap
TESTS += unit/test_heap
unit_test_heap_SOURCES = unit/test_heap.c
unit_test_heap_CPPFLAGS = $(MODEL_TEST_FLAGS)
unit_test_heap_LDADD = $(top_builddir)/model/libpzmodel.la $(CRITERION_LIBS) -lm
endif
