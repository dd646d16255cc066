/* Call sites: code addresses of this process to source file and line, with libdwfl.
 * Runs at MPI_Finalize only; see callsite.h for the contract. */
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>

#include "callsite.h"

/* A function symbol of a module, at its run-time address. */
struct pz_sym {
    GElf_Addr start, end;
    const char *name;
    int rank; /* preference among aliases at one address: higher wins */
};

/* The function symbols of one module sorted by address.  libdwfl searches the whole
 * symbol table for every address (0.2 ms per address in libc); sorted once, a lookup is
 * a binary search. */
struct pz_symindex {
    Dwfl_Module *mod;
    struct pz_sym *syms;
    size_t count;
    GElf_Addr longest; /* size of the largest symbol: how far back a container may start */
};

/* A source path made absolute, kept until close. */
struct pz_joined {
    const char *relative, *dir;  /* as libdw gave them; libdw keeps them until dwfl_end */
    char *path;
    struct pz_joined *next;
};

struct pz_callsites {
    Dwfl *dwfl;
    struct pz_symindex *modules; /* built on the first address in each module */
    size_t nmodules;
    struct pz_joined *joined;
};

static const char pz_unknown_file[] = "??";

/* Debug information is looked for on this machine only.  dwfl_standard_find_debuginfo
 * ends a fruitless search by asking the debuginfod servers of DEBUGINFOD_URLS, and even
 * without servers it loads libdebuginfod with libcurl and GnuTLS into the process:
 * too much at MPI_Finalize, in every rank, for objects that simply have no debug
 * information.  So: the build-id directory /usr/lib/debug/.build-id (distributions'
 * debug packages), then the file named by .gnu_debuglink next to the object, in its
 * .debug/ and under /usr/lib/debug (objcopy --only-keep-debug). */
static const char pz_debug_root[] = "/usr/lib/debug";

/* A debug file belongs to the object if their build ids agree; without a build id on
 * the object there is nothing to check, as in libdwfl's default search. */
static int pz_same_build_id(Dwfl_Module *mod, int fd)
{
    const unsigned char *want;
    const void *have;
    GElf_Addr vaddr;
    int nwant = dwfl_module_build_id(mod, &want, &vaddr);
    Elf *elf;
    ssize_t nhave;
    int same;

    if (nwant <= 0)
        return 1;
    elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    nhave = elf ? dwelf_elf_gnu_build_id(elf, &have) : -1;
    same = nhave == nwant && memcmp(have, want, (size_t)nwant) == 0;
    elf_end(elf);
    return same;
}

/* Opens DIR/SUB/NAME if it is a debug file of MOD and not the object itself. */
static int pz_try_debug_file(Dwfl_Module *mod, const struct stat *object, const char *dir,
                             const char *sub, const char *name, char **path)
{
    char candidate[PATH_MAX];
    struct stat st;
    int fd;

    if (snprintf(candidate, sizeof(candidate), "%s%s/%s", dir, sub, name)
        >= (int)sizeof(candidate))
        return -1;
    fd = open(candidate, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    if (fstat(fd, &st) != 0 || (st.st_dev == object->st_dev && st.st_ino == object->st_ino)
        || !pz_same_build_id(mod, fd) || !(*path = strdup(candidate))) {
        close(fd);
        return -1;
    }
    return fd;
}

/* The .gnu_debuglink name LINK, for the object at FILE, in the places gdb and libdwfl
 * also look. */
static int pz_find_by_debuglink(Dwfl_Module *mod, const char *file, const char *link,
                                char **path)
{
    char dir[PATH_MAX], root_dir[PATH_MAX];
    const char *slash = strrchr(file, '/');
    struct stat object;
    int fd;

    if (!slash || slash - file >= (ptrdiff_t)sizeof(dir) || stat(file, &object) != 0)
        return -1;
    memcpy(dir, file, (size_t)(slash - file));
    dir[slash - file] = '\0';
    if (snprintf(root_dir, sizeof(root_dir), "%s%s", pz_debug_root, dir)
        >= (int)sizeof(root_dir))
        return -1;
    fd = pz_try_debug_file(mod, &object, dir, "", link, path);
    if (fd < 0)
        fd = pz_try_debug_file(mod, &object, dir, "/.debug", link, path);
    if (fd < 0)
        fd = pz_try_debug_file(mod, &object, root_dir, "", link, path);
    return fd;
}

static int pz_find_debuginfo_locally(Dwfl_Module *mod, void **userdata, const char *modname,
                                     Dwarf_Addr base, const char *file_name,
                                     const char *debuglink_file, GElf_Word debuglink_crc,
                                     char **debuginfo_file_name)
{
    int fd = dwfl_build_id_find_debuginfo(mod, userdata, modname, base, file_name,
                                          debuglink_file, debuglink_crc,
                                          debuginfo_file_name);

    /* A debuglink with a directory in it names a dwz file of common debug information,
     * found by its build id above or not at all. */
    if (fd >= 0 || !file_name || !debuglink_file || strchr(debuglink_file, '/'))
        return fd;
    return pz_find_by_debuglink(mod, file_name, debuglink_file, debuginfo_file_name);
}

/* dwfl_begin keeps a pointer to the callbacks: they must outlive every resolver.
 * dwfl_linux_proc_find_elf opens each object by the path the load map gives. */
static const Dwfl_Callbacks pz_proc_callbacks = {
    .find_elf = dwfl_linux_proc_find_elf,
    .find_debuginfo = pz_find_debuginfo_locally,
};

struct pz_callsites *pz_callsites_open(void)
{
    struct pz_callsites *cs = calloc(1, sizeof(*cs));

    if (!cs)
        return NULL;
    cs->dwfl = dwfl_begin(&pz_proc_callbacks);
    if (!cs->dwfl)
        goto fail;
    /* Only the list of mappings is read here; ELF and DWARF are opened on demand. */
    dwfl_report_begin(cs->dwfl);
    if (dwfl_linux_proc_report(cs->dwfl, getpid()) != 0)
        goto fail;
    if (dwfl_report_end(cs->dwfl, NULL, NULL) != 0)
        goto fail;
    return cs;
fail:
    pz_callsites_close(cs);
    return NULL;
}

void pz_callsites_close(struct pz_callsites *cs)
{
    if (!cs)
        return;
    for (size_t i = 0; i < cs->nmodules; i++)
        free(cs->modules[i].syms);
    while (cs->joined) {
        struct pz_joined *next = cs->joined->next;

        free(cs->joined->path);
        free(cs->joined);
        cs->joined = next;
    }
    free(cs->modules);
    if (cs->dwfl)
        dwfl_end(cs->dwfl);
    free(cs);
}

static const char pz_vdso[] = "[vdso]";

/* The path of the object as the load map names it: what a user recognises, and known
 * without opening the file.  libdwfl names the vDSO "[vdso: PID]"; the pid would make
 * the same code look different on every rank. */
static const char *pz_module_path(Dwfl_Module *mod)
{
    const char *name = dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, NULL);

    if (!name || !name[0])
        return pz_unknown_file;
    return strncmp(name, pz_vdso, 5) == 0 ? pz_vdso : name;
}

/* The module whose address range holds PC.  dwfl_addrmodule alone also answers for
 * addresses beyond the last object (the stack, for one): it gives the last module. */
static Dwfl_Module *pz_module_at(Dwfl *dwfl, Dwarf_Addr pc)
{
    Dwfl_Module *mod = dwfl_addrmodule(dwfl, pc);
    Dwarf_Addr start, end;

    if (!mod || !dwfl_module_info(mod, NULL, &start, &end, NULL, NULL, NULL, NULL))
        return NULL;
    return pc >= start && pc < end ? mod : NULL;
}

/* A file name of the line table made absolute with the compilation directory: a file
 * compiled as "src/x.c" is named so in DWARF, which would make two such files of
 * different directories one, and the source impossible to find from elsewhere.  The
 * pointers libdw returns are stable, so one join per (name, directory) suffices. */
static const char *pz_absolute(struct pz_callsites *cs, const char *name, const char *dir)
{
    struct pz_joined *j;
    size_t len;

    if (name[0] == '/' || !dir || !dir[0])
        return name;
    for (j = cs->joined; j; j = j->next)
        if (j->relative == name && j->dir == dir)
            return j->path;
    len = strlen(dir) + strlen(name) + 2;
    if (!(j = malloc(sizeof(*j))) || !(j->path = malloc(len))) {
        free(j);
        return name;
    }
    snprintf(j->path, len, "%s/%s", dir, name);
    j->relative = name;
    j->dir = dir;
    j->next = cs->joined;
    cs->joined = j;
    return j->path;
}

/* The line-table row covering PC: file and line of the instruction, 0 if none. */
static unsigned pz_line_of(struct pz_callsites *cs, Dwfl_Module *mod, Dwarf_Addr pc,
                           const char **file)
{
    Dwfl_Line *row = dwfl_module_getsrc(mod, pc);
    const char *name;
    int line = 0;

    if (!row)
        return 0;
    name = dwfl_lineinfo(row, NULL, &line, NULL, NULL, NULL);
    if (!name || !name[0] || line <= 0)
        return 0;
    *file = pz_absolute(cs, name, dwfl_line_comp_dir(row));
    return (unsigned)line;
}

/* Where several symbols name one address (aliases), the name a user wrote wins: global
 * before weak before local, unversioned before versioned ("dlopen@@GLIBC_2.34", the
 * default version, before an old "dlopen@GLIBC_2.2.5"), fewer leading underscores
 * ("printf" before "_IO_printf" and "__printf"). */
static int pz_sym_rank(const GElf_Sym *sym, const char *name)
{
    const char *at = strchr(name, '@');
    size_t underscores = strspn(name, "_");
    int rank;

    switch (GELF_ST_BIND(sym->st_info)) {
    case STB_GLOBAL: rank = 2 * 64; break;
    case STB_WEAK: rank = 1 * 64; break;
    default: rank = 0; break;
    }
    rank += !at ? 32 : at[1] == '@' ? 16 : 0;
    return rank - (int)(underscores < 15 ? underscores : 15);
}

/* Only code a return address can lie in: sized functions defined in this module.
 * Zero-sized symbols (_init, hand-written assembly without .size) would claim every
 * address up to the next symbol, the PLT for instance, so they name nothing. */
static int pz_is_function(const GElf_Sym *sym, GElf_Word shndx)
{
    int type = GELF_ST_TYPE(sym->st_info);

    return (type == STT_FUNC || type == STT_GNU_IFUNC) && sym->st_size > 0
           && shndx != SHN_UNDEF && shndx != SHN_ABS && shndx != (GElf_Word)-1;
}

/* By start; at one start the preferred alias last, where a backward search meets it
 * first. */
static int pz_sym_order(const void *a, const void *b)
{
    const struct pz_sym *x = a, *y = b;

    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->rank - y->rank;
}

/* Reads the module's symbol table (its .symtab if found, else .dynsym) once. */
static void pz_index_symbols(struct pz_symindex *ix)
{
    int total = dwfl_module_getsymtab(ix->mod);

    if (total <= 0)
        return;
    ix->syms = malloc((size_t)total * sizeof(*ix->syms));
    if (!ix->syms)
        return;
    for (int i = 1; i < total; i++) {
        GElf_Sym sym;
        GElf_Addr addr;
        GElf_Word shndx;
        const char *name = dwfl_module_getsym_info(ix->mod, i, &sym, &addr, &shndx, NULL, NULL);

        if (!name || !name[0] || !pz_is_function(&sym, shndx))
            continue;
        ix->syms[ix->count++] = (struct pz_sym){ addr, addr + sym.st_size, name,
                                                 pz_sym_rank(&sym, name) };
        if (sym.st_size > ix->longest)
            ix->longest = sym.st_size;
    }
    qsort(ix->syms, ix->count, sizeof(*ix->syms), pz_sym_order);
}

/* The index of MOD, built when first asked for.  Modules are few (tens): a linear
 * search. */
static struct pz_symindex *pz_symindex_of(struct pz_callsites *cs, Dwfl_Module *mod)
{
    struct pz_symindex *grown;

    for (size_t i = cs->nmodules; i-- > 0;)
        if (cs->modules[i].mod == mod)
            return &cs->modules[i];
    grown = realloc(cs->modules, (cs->nmodules + 1) * sizeof(*grown));
    if (!grown)
        return NULL;
    cs->modules = grown;
    grown = &cs->modules[cs->nmodules++];
    *grown = (struct pz_symindex){ .mod = mod };
    pz_index_symbols(grown);
    return grown;
}

/* The innermost symbol containing PC.  The last symbol starting at or before PC
 * usually contains it; when it does not (PC in padding, or after a small alias nested
 * in a bigger function), earlier ones are tried back to the longest symbol's reach. */
static const char *pz_symbol_at(const struct pz_symindex *ix, GElf_Addr pc)
{
    size_t lo = 0, hi = ix->count;

    while (lo < hi) { /* first symbol starting after pc */
        size_t mid = lo + (hi - lo) / 2;

        if (ix->syms[mid].start <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i-- > 0;) {
        if (pc < ix->syms[i].end)
            return ix->syms[i].name;
        if (pc - ix->syms[i].start >= ix->longest)
            break;
    }
    return NULL;
}

static const char *pz_function_of(struct pz_callsites *cs, Dwfl_Module *mod, Dwarf_Addr pc)
{
    struct pz_symindex *ix = pz_symindex_of(cs, mod);

    return ix ? pz_symbol_at(ix, pc) : NULL;
}

int pz_callsites_resolve(struct pz_callsites *cs, uintptr_t return_address,
                         struct pz_source_loc *out)
{
    Dwfl_Module *mod = NULL;
    Dwarf_Addr pc;

    out->file = pz_unknown_file;
    out->line = 0;
    out->function = NULL;
    if (!cs || return_address == 0)
        return -1;
    /* The return address may already be the first instruction of the next line, or of
     * the next function when the call never returns; the byte before it is the call. */
    pc = (Dwarf_Addr)return_address - 1;
    mod = pz_module_at(cs->dwfl, pc);
    if (!mod)
        return -1;
    out->file = pz_module_path(mod);
    out->line = pz_line_of(cs, mod, pc, &out->file);
    out->function = pz_function_of(cs, mod, pc);
    return 0;
}
