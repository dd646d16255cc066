# MPI-4's large-count forms through use mpi_f08 (integration/fortran_large.sh); built by
# $(MPIFC) when configure found it.
if HAVE_MPIFC
check_SCRIPTS += programs/flarge_f08
endif
CLEANFILES += programs/flarge_f08
EXTRA_DIST += programs/flarge_f08.f90 integration/fortran_large.sh
PZ_IT_TESTS += integration/fortran_large.sh

programs/flarge_f08: $(srcdir)/programs/flarge_f08.f90
	@$(MKDIR_P) programs
	$(AM_V_GEN)$(MPIFC) -o $@ $(srcdir)/programs/flarge_f08.f90
