# The chunk size of the definitions prognoz writes (trace/def_chunk.h).
if HAVE_CRITERION
check_PROGRAMS += unit/test_def_chunk
TESTS += unit/test_def_chunk
unit_test_def_chunk_SOURCES = unit/test_def_chunk.c
unit_test_def_chunk_LDADD = $(CRITERION_LIBS)
endif
