/* Which MPI library a command's program uses (program_mpi.h), read with libelf, else
 * from what ldd lists. */
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "program_mpi.h"

/* How long ldd may take to list a file's libraries, and the most of its listing read
 * (a program with a thousand libraries lists about 100 KiB). */
#define LDD_SECONDS 10
#define LDD_LISTING (1 << 20)

/* What one ELF dependency says of the file that needs it. */
static void classify(const char *needed, struct pz_program_mpi *found)
{
    int fortran = !strncmp(needed, "libmpi_mpifh.so", 15) ||
                  !strncmp(needed, "libmpi_usempi", 13);

    if (!strncmp(needed, "libmpich", 8) || !strcmp(needed, "libmpi.so.12")) {
        found->abi = PZ_MPI_MPICH;
        snprintf(found->library, sizeof(found->library), "%s", needed);
    } else if (!strncmp(needed, "libmpi.so.", 10) || fortran) {
        /* a Fortran program may need only Open MPI's Fortran library */
        found->abi = PZ_MPI_OPENMPI;
        found->fortran |= fortran;
        if (!found->library[0] || !fortran)
            snprintf(found->library, sizeof(found->library), "%s", needed);
    } else if (!strncmp(needed, "libopen-rte.so", 14) || !strncmp(needed, "libprrte.so", 11)) {
        /* Open MPI's mpiexec up to 4.x (its runtime), PRRTE's prterun */
        found->openmpi_launcher = 1;
    } else if (!strncmp(needed, "libopen-pal.so", 14)) {
        /* Open MPI's own library, which only Open MPI's programs need: from 5.0 its
           mpiexec needs it alone, and execs PRRTE's prterun */
        found->open_pal = 1;
    }
}

/* Classifies every DT_NEEDED entry of the ELF file at path; nothing if it is none. */
static void read_needed(const char *path, struct pz_program_mpi *found)
{
    int fd = open(path, O_RDONLY);
    Elf *elf;
    Elf_Scn *scn = NULL;

    if (fd < 0)
        return;
    elf = elf_begin(fd, ELF_C_READ, NULL);
    while (elf && elf_kind(elf) == ELF_K_ELF && (scn = elf_nextscn(elf, scn))) {
        GElf_Shdr shdr;
        Elf_Data *data;

        if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_DYNAMIC ||
            !shdr.sh_entsize || !(data = elf_getdata(scn, NULL)))
            continue;
        for (size_t i = 0; i < shdr.sh_size / shdr.sh_entsize; i++) {
            GElf_Dyn dyn;
            const char *name;

            if (gelf_getdyn(data, (int)i, &dyn) && dyn.d_tag == DT_NEEDED &&
                (name = elf_strptr(elf, shdr.sh_link, dyn.d_un.d_val)))
                classify(name, found);
        }
    }
    elf_end(elf);
    close(fd);
}

/* Whether the file at path is a regular file that begins as an ELF file does (a FIFO or
 * a device is not opened). */
static int is_elf(const char *path)
{
    unsigned char magic[4] = { 0 };
    struct stat st;
    int fd, n;

    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || (fd = open(path, O_RDONLY)) < 0)
        return 0;
    n = (int)read(fd, magic, sizeof(magic));
    close(fd);
    return n == 4 && magic[0] == 0x7f && magic[1] == 'E' && magic[2] == 'L' && magic[3] == 'F';
}

/* Waits for the child pid to end. */
static void reap(pid_t pid)
{
    int status;

    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
}

/* Seconds from start to now. */
static double since(const struct timespec *start)
{
    struct timespec now;

    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start->tv_sec) + 1e-9 * (double)(now.tv_nsec - start->tv_nsec);
}

/* What fd gives until its end (at most size - 1 bytes, the rest left unread) into buf as
 * a string; 0, or -1 if LDD_SECONDS passed first. */
static int read_until(int fd, char *buf, long size)
{
    struct pollfd p = { .fd = fd, .events = POLLIN };
    struct timespec start;
    long n = 0, got = 1;

    clock_gettime(CLOCK_MONOTONIC, &start);
    buf[0] = '\0';
    while (got > 0 && n < size - 1) {
        double left = LDD_SECONDS - since(&start);
        int rc = left > 0 ? poll(&p, 1, (int)(1000 * left) + 1) : 0;

        if (rc == 0)
            return -1;
        if (rc < 0 && errno != EINTR)
            break;
        if (rc > 0 && (got = read(fd, buf + n, (size_t)(size - 1 - n))) > 0)
            buf[n += got] = '\0';
        else if (got < 0 && errno == EINTR)
            got = 1;
    }
    return 0;
}

/* Classifies every library the dynamic loader loads for the ELF file at path, as glibc's
 * ldd lists them ("\tNAME => PATH (ADDRESS)"): the dependencies of its dependencies too,
 * found where the loader finds them.  A program may reach MPI only through a library
 * of its own or such as ScaLAPACK's or PETSc's.  Nothing if ldd cannot run; nothing,
 * said, if it has not answered within LDD_SECONDS (it is then killed, and ldd is not
 * asked again): record must not hang before the run begins. */
static void read_loaded(const char *path, struct pz_program_mpi *found)
{
    static char listing[LDD_LISTING];
    static int gave_up;
    char name[256], *line, *save = NULL;
    int fds[2];
    pid_t pid;

    if (gave_up || pipe(fds) != 0)
        return;
    if ((pid = fork()) == 0) {
        int null = open("/dev/null", O_RDWR);

        setpgid(0, 0);      /* ldd runs the loader as its child: both are killed */
        dup2(fds[1], STDOUT_FILENO);
        if (null >= 0) {
            dup2(null, STDIN_FILENO);
            dup2(null, STDERR_FILENO);
            close(null);
        }
        close(fds[0]);
        close(fds[1]);
        execlp("ldd", "ldd", path, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        return;
    }
    setpgid(pid, pid);      /* as the child does, whichever runs first */
    if (read_until(fds[0], listing, sizeof(listing)) < 0) {
        fprintf(stderr, "prognoz: ldd did not list the libraries of '%s' within %d s; "
                "no word's libraries are read from ldd\n", path, LDD_SECONDS);
        kill(-pid, SIGKILL);
        gave_up = 1;
        listing[0] = '\0';
    }
    close(fds[0]);
    reap(pid);
    for (line = strtok_r(listing, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
        if (sscanf(line, " %255s =>", name) == 1 && strstr(line, " => "))
            classify(name, found);
}

/* The file a command word names: itself if it holds a '/', else the first executable
 * regular file of that name in PATH (as execvp takes it, past directories); 0 if there
 * is none. */
static int resolve(const char *word, char *path, size_t size)
{
    const char *dirs = getenv("PATH");

    if (strchr(word, '/'))
        return snprintf(path, size, "%s", word) < (int)size && access(path, R_OK) == 0;
    while (dirs && *dirs) {
        size_t len = strcspn(dirs, ":");

        struct stat st;

        if (snprintf(path, size, "%.*s%s%s", (int)len, dirs, len ? "/" : "", word) < (int)size &&
            access(path, X_OK) == 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode))
            return 1;
        dirs += len + (dirs[len] == ':');
    }
    return 0;
}

/* Whether the file at path is MPICH's launcher, Hydra, which MPICH installs as
 * mpiexec.hydra and links mpiexec and mpirun to (as Debian's mpiexec.mpich). */
static int is_hydra(const char *path)
{
    char real[PATH_MAX];
    const char *base;

    if (!realpath(path, real))
        return 0;
    base = strrchr(real, '/') ? strrchr(real, '/') + 1 : real;
    return !strcmp(base, "mpiexec.hydra") || !strcmp(base, "mpirun.hydra");
}

/* Fills *out from the first word of command whose file reader() finds linked with an
 * MPI library; 1 if one was. */
static int first_linked(char **command, void (*reader)(const char *, struct pz_program_mpi *),
                        struct pz_program_mpi *out)
{
    char path[PATH_MAX];

    for (int i = 0; command[i]; i++) {
        struct pz_program_mpi found = { 0 };

        if (!resolve(command[i], path, sizeof(path)) || !is_elf(path))
            continue;
        reader(path, &found);
        if (i == 0) {
            out->openmpi_launcher |= found.openmpi_launcher ||
                                     (found.open_pal && found.abi == PZ_MPI_NONE);
            out->mpich_launcher |= is_hydra(path);
        }
        if (found.abi != PZ_MPI_NONE) {
            out->abi = found.abi;
            out->program = command[i];
            out->fortran = found.fortran;
            memcpy(out->library, found.library, sizeof(out->library));
            return 1;
        }
    }
    return 0;
}

void pz_program_mpi(char **command, struct pz_program_mpi *out)
{
    memset(out, 0, sizeof(*out));
    if (elf_version(EV_CURRENT) == EV_NONE)
        return;
    /* a program's own dependencies first, then (an ldd per file) what they load */
    if (first_linked(command, read_needed, out) || first_linked(command, read_loaded, out))
        return;
    /* An interpreter (python with mpi4py, R with Rmpi) loads MPI only when the script
     * asks for it: Open MPI's launcher starts only Open MPI's programs. */
    if (out->openmpi_launcher) {
        out->abi = PZ_MPI_OPENMPI;
        out->program = command[0];
        out->by_launcher = 1;
        snprintf(out->library, sizeof(out->library), "%s", "Open MPI's mpiexec");
    }
}

int pz_program_mpi_mismatch(const struct pz_program_mpi *mpi, char *buf, size_t size)
{
    int openmpi = mpi->abi == PZ_MPI_OPENMPI;

    if (mpi->by_launcher || !((openmpi && mpi->mpich_launcher) ||
                              (mpi->abi == PZ_MPI_MPICH && mpi->openmpi_launcher)))
        return 0;
    snprintf(buf, size, "prognoz record: warning: %s is linked with %s (%s) but it is "
             "started by %s's mpiexec: each of its processes will run alone, as a run of 1 "
             "process, and they will write one trace over each other; start it with %s's "
             "mpiexec (%s)", mpi->program, openmpi ? "Open MPI" : "MPICH", mpi->library,
             openmpi ? "MPICH" : "Open MPI", openmpi ? "Open MPI" : "MPICH",
             openmpi ? "mpiexec.openmpi" : "mpiexec.mpich");
    return 1;
}
