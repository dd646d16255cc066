# Call sites (PROGNOZ_CALLSITES=1) of a C program and of a Fortran program calling
# through mpif.h, use mpi and use mpi_f08 (integration/callsites.sh); both with debug
# information, the Fortran one unoptimised so that every call keeps its own line.
check_PROGRAMS += programs/csites
programs_csites_SOURCES = programs/csites.c
programs_csites_CPPFLAGS = $(MPI_CFLAGS)
programs_csites_CFLAGS = $(PZ_CFLAGS) -g
programs_csites_LDADD = $(MPI_LIBS)
PZ_IT_FSITES_F90 = programs/fsites.f90 programs/fsites_f77.f90 programs/fsites_mpi.f90
if HAVE_MPIFC
check_SCRIPTS += programs/fsites
endif
CLEANFILES += programs/fsites
EXTRA_DIST += $(PZ_IT_FSITES_F90) integration/callsites.sh
PZ_IT_TESTS += integration/callsites.sh
programs/fsites: $(PZ_IT_FSITES_F90:%=$(srcdir)/%)
	@$(MKDIR_P) programs
	$(AM_V_GEN)$(MPIFC) -g -O0 -o $@ $(PZ_IT_FSITES_F90:%=$(srcdir)/%)
