/* Which MPI library a command's program uses, from the ELF dependencies (DT_NEEDED) of
 * the files its words name, or of what the dynamic loader loads for them, so that
 * prognoz record preloads the recorder built for that library's ABI. */
#ifndef PZ_PROGRAM_MPI_H
#define PZ_PROGRAM_MPI_H

#include <stddef.h>

enum pz_mpi_abi {
    PZ_MPI_NONE,      /* no word names a program linked with a known MPI library */
    PZ_MPI_MPICH,     /* libmpich*.so.12 or libmpi.so.12 (the MPICH ABI) */
    PZ_MPI_OPENMPI    /* libmpi.so.N, N other than 12 (Open MPI's, 40 since 3.0), or
                       * Open MPI's Fortran bindings libmpi_mpifh, libmpi_usempi* */
};

struct pz_program_mpi {
    enum pz_mpi_abi abi;
    const char *program;   /* the word of the command that names the program */
    char library[64];      /* the dependency that tells the ABI, e.g. "libmpi.so.40" */
    int fortran;           /* linked with Open MPI's Fortran bindings too */
    int openmpi_launcher;  /* command[0] is Open MPI's mpiexec: linked with libopen-rte
                            * (up to 4.x) or libprrte (prterun), or with libopen-pal and
                            * no MPI library (5.x) */
    int mpich_launcher;    /* command[0] is MPICH's mpiexec: Hydra, mpiexec.hydra */
    int open_pal;          /* linked with libopen-pal, Open MPI's own (classify's) */
    int by_launcher;       /* no word is linked with MPI; abi is the launcher's, library
                            * names it */
};

/* Fills *out from the first word of the NULL-terminated command that names, directly or
 * through PATH, an ELF file linked with an MPI library; words that name no readable ELF
 * file (options, numbers, scripts) are passed over.  A file's own dependencies (DT_NEEDED)
 * are read first, for every word; when none is an MPI library, every library the
 * dynamic loader would load for each file, as ldd lists them (a program linked with
 * ScaLAPACK that is linked with MPI).  When no file is, and command[0] is Open MPI's
 * mpiexec, the ABI is Open MPI's (by_launcher): an interpreter such as python loads MPI
 * only when its script imports mpi4py, and that launcher starts only Open MPI programs. */
void pz_program_mpi(char **command, struct pz_program_mpi *out);

/* When the command's launcher is one MPI's mpiexec and its program is linked with the
 * other MPI, a one-line warning (each process then starts alone, as a run of 1, and
 * they write one trace over each other) into buf, and 1; else 0. */
int pz_program_mpi_mismatch(const struct pz_program_mpi *mpi, char *buf, size_t size);

#endif
