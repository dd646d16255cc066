# MPI-4, one-sided and MPI-IO calls through mpif.h, use mpi and use mpi_f08
# (integration/fortran_new.sh); built by $(MPIFC) when configure found it.
PZ_IT_FORTRAN_NEW = programs/fnew_f77 programs/fnew_mpi programs/fnew_f08
if HAVE_MPIFC
check_SCRIPTS += $(PZ_IT_FORTRAN_NEW)
endif
CLEANFILES += $(PZ_IT_FORTRAN_NEW)
EXTRA_DIST += $(PZ_IT_FORTRAN_NEW:=.f90) integration/fortran_new.sh
PZ_IT_TESTS += integration/fortran_new.sh

programs/fnew_f77: $(srcdir)/programs/fnew_f77.f90
	@$(MKDIR_P) programs
	$(AM_V_GEN)$(MPIFC) -o $@ $(srcdir)/programs/fnew_f77.f90
programs/fnew_mpi: $(srcdir)/programs/fnew_mpi.f90
	@$(MKDIR_P) programs
	$(AM_V_GEN)$(MPIFC) -o $@ $(srcdir)/programs/fnew_mpi.f90
programs/fnew_f08: $(srcdir)/programs/fnew_f08.f90
	@$(MKDIR_P) programs
	$(AM_V_GEN)$(MPIFC) -o $@ $(srcdir)/programs/fnew_f08.f90
