# The version of VERSION, the installed headers' macros and the library's run-time
# version agree; linked with the installed library itself, through its API.
if HAVE_CRITERION
check_PROGRAMS += unit/test_version
TESTS += unit/test_version
unit_test_version_SOURCES = unit/test_version.c
unit_test_version_CPPFLAGS = -I$(top_builddir)/model -I$(top_srcdir)/include $(MPI_CFLAGS) \
	-DPZ_VERSION_FILE='"$(abs_top_srcdir)/VERSION"'
unit_test_version_LDADD = $(top_builddir)/model/libprognoz-comsys.la $(CRITERION_LIBS)
endif
