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
