# Every header of the tree and every installed header compiles on its own.
AM_TESTS_ENVIRONMENT += CC='$(CC)'; export CC; MAKE='$(MAKE)'; export MAKE; \
	PZ_HEADER_CFLAGS='$(CPPFLAGS) $(CFLAGS) $(PZ_CFLAGS) $(MPI_CFLAGS) $(OTF2_CFLAGS) $(DW_CFLAGS)'; \
	export PZ_HEADER_CFLAGS; MPI_CFLAGS='$(MPI_CFLAGS)'; export MPI_CFLAGS; \
	PZ_INCLUDEDIR='$(includedir)'; export PZ_INCLUDEDIR;
TESTS += headers.sh
EXTRA_DIST += headers.sh
