# The assembly of partial traces: reading parts and numbering them (wrapper/assembly.h).
if HAVE_CRITERION
check_PROGRAMS += unit/test_assembly
TESTS += unit/test_assembly
unit_test_assembly_SOURCES = unit/test_assembly.c
unit_test_assembly_CPPFLAGS = $(UNIT_CPPFLAGS)
unit_test_assembly_CFLAGS = $(PZ_CFLAGS)
unit_test_assembly_LDADD = $(top_builddir)/wrapper/libpzassemble.la \
	$(top_builddir)/trace/libpzcalls.la $(CRITERION_LIBS) $(OTF2_LIBS)
endif

# Joining event files of a location (wrapper/evt_file.h).
if HAVE_CRITERION
check_PROGRAMS += unit/test_evt_file
TESTS += unit/test_evt_file
unit_test_evt_file_SOURCES = unit/test_evt_file.c
unit_test_evt_file_CPPFLAGS = $(UNIT_CPPFLAGS)
unit_test_evt_file_CFLAGS = $(PZ_CFLAGS)
unit_test_evt_file_LDADD = $(top_builddir)/wrapper/libpzassemble.la $(CRITERION_LIBS)
endif
