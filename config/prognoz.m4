# Checks for what prognoz builds on.  Each macro sets the *_CFLAGS and *_LIBS it names.

# MPICH through pkg-config (mpich, then mpi), and its mpiexec for the integration tests.
# MPICH's own names come first: with Open MPI installed too, Debian's alternatives may
# make the plain mpicc, mpiexec and mpi.pc Open MPI's.
AC_DEFUN([PZ_CHECK_MPI], [
  PKG_CHECK_MODULES([MPI], [mpich], [],
    [PKG_CHECK_MODULES([MPI], [mpi], [],
      [AC_MSG_ERROR([MPI not found by pkg-config: install libmpich-dev (scripts/setup.sh does)])])])
  AC_PATH_PROGS([MPIEXEC], [mpiexec.mpich mpiexec mpirun], [])
  AS_IF([test -z "$MPIEXEC"], [AC_MSG_ERROR([mpiexec not found: install mpich])])
  AC_PATH_PROGS([MPICC], [mpicc.mpich mpicc], [])
])

# Open MPI, optional: its C flags through pkg-config (ompi-c), mpicc.openmpi and
# mpiexec.openmpi for its integration test.  Found, it gets a recorder of its own
# (wrapper/Makefile.am: libprognoz-openmpi.so).  --without-openmpi skips the check;
# --with-openmpi makes a missing Open MPI an error.
AC_DEFUN([PZ_CHECK_OPENMPI], [
  AC_ARG_WITH([openmpi],
    [AS_HELP_STRING([--with-openmpi],
      [build the recorder for Open MPI programs too (default: when Open MPI is found)])],
    [], [with_openmpi=check])
  have_openmpi=no
  AS_IF([test "x$with_openmpi" != xno], [
    PKG_CHECK_MODULES([OPENMPI], [ompi-c], [have_openmpi=yes], [have_openmpi=no])
    AC_PATH_PROGS([OPENMPI_MPICC], [mpicc.openmpi], [])
    AC_PATH_PROGS([OPENMPI_MPIEXEC], [mpiexec.openmpi], [])
    AS_IF([test -z "$OPENMPI_MPICC" || test -z "$OPENMPI_MPIEXEC"], [have_openmpi=no])
    AS_IF([test "x$with_openmpi" = xyes && test $have_openmpi = no],
      [AC_MSG_ERROR([--with-openmpi: Open MPI not found (pkg-config ompi-c, mpicc.openmpi, mpiexec.openmpi): install libopenmpi-dev and openmpi-bin])])])
  AS_IF([test $have_openmpi = yes],
    [OPENMPI_VERSION=`$PKG_CONFIG --modversion ompi-c`
     OPENMPI_LIBDIR=`$PKG_CONFIG --variable=libdir ompi-c`],
    [OPENMPI_MPICC= OPENMPI_MPIEXEC= OPENMPI_VERSION= OPENMPI_LIBDIR=])
  AC_SUBST([OPENMPI_VERSION])
  dnl where libopen-pal is, for a test's launcher linked as Open MPI 5's mpiexec
  AC_SUBST([OPENMPI_LIBDIR])
  AM_CONDITIONAL([HAVE_OPENMPI], [test $have_openmpi = yes])
])

# libelf: prognoz record reads a program's ELF dependencies to tell its MPI library.
AC_DEFUN([PZ_CHECK_LIBELF], [
  PKG_CHECK_MODULES([ELF], [libelf], [],
    [AC_MSG_ERROR([libelf not found by pkg-config: install libelf-dev])])
])

# OTF2: otf2-config has no pkg-config file on every system, so both are tried.
AC_DEFUN([PZ_CHECK_OTF2], [
  PKG_CHECK_MODULES([OTF2], [otf2], [], [
    AC_PATH_PROG([OTF2_CONFIG], [otf2-config], [])
    AS_IF([test -z "$OTF2_CONFIG"],
      [AC_MSG_ERROR([OTF2 not found: install libotf2-trace-dev (scripts/setup.sh does)])])
    OTF2_CFLAGS=`$OTF2_CONFIG --cflags`
    OTF2_LIBS="`$OTF2_CONFIG --ldflags` `$OTF2_CONFIG --libs`"])
  AC_PATH_PROG([OTF2_PRINT], [otf2-print], [])
])

# libdw (elfutils) turns the recorded call sites into source file and line at Finalize.
AC_DEFUN([PZ_CHECK_LIBDW], [
  PKG_CHECK_MODULES([DW], [libdw], [],
    [AC_MSG_ERROR([libdw not found by pkg-config: install libdw-dev])])
  # objcopy strips or splits off the debug information of the call-site test helpers.
  AC_CHECK_TOOL([OBJCOPY], [objcopy], [objcopy])
])

# Criterion for the unit tests; without it they are skipped, and said so.
AC_DEFUN([PZ_CHECK_CRITERION], [
  PKG_CHECK_MODULES([CRITERION], [criterion], [have_criterion=yes], [have_criterion=no])
  AM_CONDITIONAL([HAVE_CRITERION], [test "$have_criterion" = yes])
])

# The MPI Fortran compiler, for the Fortran integration tests.
AC_DEFUN([PZ_CHECK_FORTRAN], [
  AC_PATH_PROGS([MPIFC], [mpif90.mpich mpifort.mpich mpif90 mpifort], [])
  AM_CONDITIONAL([HAVE_MPIFC], [test -n "$MPIFC"])
])

# The flags of every library and program: warnings (--enable-werror, as in CI, makes them
# errors), and symbols hidden unless declared visible, so that a shared library exports
# only its API (wrapper/hooks.h PZ_EXPORT, the installed headers of libprognoz-comsys).
AC_DEFUN([PZ_WARNINGS], [
  AC_ARG_ENABLE([werror],
    [AS_HELP_STRING([--enable-werror], [treat compiler warnings as errors])])
  PZ_CFLAGS="-std=c11 -D_GNU_SOURCE -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes"
  PZ_CFLAGS="$PZ_CFLAGS -fvisibility=hidden"
  AS_IF([test "x$enable_werror" = xyes], [PZ_CFLAGS="$PZ_CFLAGS -Werror"])
  AC_SUBST([PZ_CFLAGS])
])

# The version numbers of VERSION for the installed headers (model/comsys_version.h.in),
# and libprognoz-comsys's libtool -version-info.
AC_DEFUN([PZ_VERSIONS], [
  AC_SUBST([PZ_VERSION_MAJOR], [`echo "$PACKAGE_VERSION" | cut -d. -f1`])
  AC_SUBST([PZ_VERSION_MINOR], [`echo "$PACKAGE_VERSION" | cut -d. -f2`])
  AC_SUBST([PZ_VERSION_PATCH], [`echo "$PACKAGE_VERSION" | cut -d. -f3`])
  AC_SUBST([PZ_COMSYS_SO_VERSION],
    m4_esyscmd_s([sed -n 's/^libprognoz_comsys_so_version=//p' VERSION]))
])
