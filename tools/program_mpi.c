/* Which MPI library a command's program uses (program_mpi.h), read with libelf. */
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "program_mpi.h"

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
    } else if (!strncmp(needed, "libopen-rte.so", 14)) {
        found->openmpi_launcher = 1;
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

/* The file a command word names: itself if it holds a '/', else the first executable
 * of that name in PATH; 0 if there is none. */
static int resolve(const char *word, char *path, size_t size)
{
    const char *dirs = getenv("PATH");

    if (strchr(word, '/'))
        return snprintf(path, size, "%s", word) < (int)size && access(path, R_OK) == 0;
    while (dirs && *dirs) {
        size_t len = strcspn(dirs, ":");

        if (snprintf(path, size, "%.*s%s%s", (int)len, dirs, len ? "/" : "", word) < (int)size &&
            access(path, X_OK) == 0)
            return 1;
        dirs += len + (dirs[len] == ':');
    }
    return 0;
}

void pz_program_mpi(char **command, struct pz_program_mpi *out)
{
    char path[PATH_MAX];

    memset(out, 0, sizeof(*out));
    if (elf_version(EV_CURRENT) == EV_NONE)
        return;
    for (int i = 0; command[i]; i++) {
        struct pz_program_mpi found = { 0 };

        if (!resolve(command[i], path, sizeof(path)))
            continue;
        read_needed(path, &found);
        if (i == 0)
            out->openmpi_launcher = found.openmpi_launcher;
        if (found.abi != PZ_MPI_NONE) {
            out->abi = found.abi;
            out->program = command[i];
            out->fortran = found.fortran;
            memcpy(out->library, found.library, sizeof(out->library));
            return;
        }
    }
}
