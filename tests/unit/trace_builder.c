/* Hand-built OTF2 traces for the analyzer's tests (trace_builder.h). */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <otf2/otf2.h>

#include "trace_builder.h"

struct tb_region {
    char *name, *file;
    uint32_t line;
    OTF2_Paradigm paradigm;
    OTF2_RegionRole role;
    OTF2_RegionFlag flags;
};

struct tb {
    OTF2_Archive *archive;
    int nprocs;
    OTF2_EvtWriter **writers;
    uint64_t *events;
    uint64_t offset, last;
    struct tb_region *regions;
    uint32_t nregions;
    int failed;
};

static OTF2_FlushType pre_flush(void *data, OTF2_FileType type, OTF2_LocationRef location,
                                void *caller, bool final)
{
    (void)data, (void)type, (void)location, (void)caller, (void)final;
    return OTF2_FLUSH;
}

static const OTF2_FlushCallbacks flush_callbacks = { pre_flush, NULL };

struct tb *tb_open(const char *dir, int nprocs)
{
    struct tb *b = calloc(1, sizeof(*b));
    int ok;

    if (!b)
        return NULL;
    b->nprocs = nprocs;
    b->writers = calloc((size_t)nprocs, sizeof(*b->writers));
    b->events = calloc((size_t)nprocs, sizeof(*b->events));
    b->archive = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, 1024 * 1024,
                                   4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX,
                                   OTF2_COMPRESSION_NONE);
    ok = b->writers && b->events && b->archive &&
         OTF2_Archive_SetFlushCallbacks(b->archive, &flush_callbacks, NULL) == OTF2_SUCCESS &&
         OTF2_Archive_SetSerialCollectiveCallbacks(b->archive) == OTF2_SUCCESS &&
         OTF2_Archive_OpenEvtFiles(b->archive) == OTF2_SUCCESS;
    for (int p = 0; ok && p < nprocs; p++)
        ok = (b->writers[p] = OTF2_Archive_GetEvtWriter(b->archive, (OTF2_LocationRef)p)) != NULL;
    if (!ok) {
        if (b->archive)
            OTF2_Archive_Close(b->archive);
        free(b->writers);
        free(b->events);
        free(b);
        return NULL;
    }
    return b;
}

void tb_set_offset(struct tb *b, uint64_t offset)
{
    b->offset = offset;
}

static uint32_t region(struct tb *b, const char *name, const char *file, uint32_t line,
                       OTF2_Paradigm paradigm, OTF2_RegionRole role, OTF2_RegionFlag flags)
{
    struct tb_region *grown;

    for (uint32_t i = 0; i < b->nregions; i++)
        if (!strcmp(b->regions[i].name, name))
            return i;
    grown = realloc(b->regions, (b->nregions + 1) * sizeof(*grown));
    if (!grown) {
        b->failed = 1;
        return 0;
    }
    b->regions = grown;
    grown[b->nregions] = (struct tb_region){ strdup(name), strdup(file), line, paradigm, role,
                                             flags };
    return b->nregions++;
}

uint32_t tb_mpi(struct tb *b, const char *name)
{
    return region(b, name, "MPI", 0, OTF2_PARADIGM_MPI, OTF2_REGION_ROLE_FUNCTION,
                  OTF2_REGION_FLAG_NONE);
}

uint32_t tb_interval(struct tb *b, unsigned id, const char *file, unsigned line)
{
    const char *base = strrchr(file, '/');
    char name[512];

    snprintf(name, sizeof(name), "interval %u at %s:%u", id, base ? base + 1 : file, line);
    return region(b, name, file, line, OTF2_PARADIGM_USER, OTF2_REGION_ROLE_CODE,
                  OTF2_REGION_FLAG_PHASE);
}

uint32_t tb_user(struct tb *b, const char *name)
{
    return region(b, name, "", 0, OTF2_PARADIGM_USER, OTF2_REGION_ROLE_FUNCTION,
                  OTF2_REGION_FLAG_NONE);
}

static void event(struct tb *b, int proc, uint64_t ns, uint32_t region, int enter)
{
    OTF2_ErrorCode rc;

    if (proc < 0 || proc >= b->nprocs) {
        b->failed = 1;
        return;
    }
    rc = enter ? OTF2_EvtWriter_Enter(b->writers[proc], NULL, ns, region)
               : OTF2_EvtWriter_Leave(b->writers[proc], NULL, ns, region);
    if (rc != OTF2_SUCCESS)
        b->failed = 1;
    b->events[proc]++;
    if (ns > b->last)
        b->last = ns;
}

void tb_enter(struct tb *b, int proc, uint64_t ns, uint32_t region)
{
    event(b, proc, ns, region, 1);
}

void tb_leave(struct tb *b, int proc, uint64_t ns, uint32_t region)
{
    event(b, proc, ns, region, 0);
}

void tb_call(struct tb *b, int proc, const char *name, uint64_t enter, uint64_t leave)
{
    uint32_t r = tb_mpi(b, name);

    tb_enter(b, proc, enter, r);
    tb_leave(b, proc, leave, r);
}

/* Strings are numbered as they are written: each definition refers to earlier ones. */
static OTF2_StringRef string(OTF2_GlobalDefWriter *w, OTF2_StringRef *next, const char *s)
{
    OTF2_GlobalDefWriter_WriteString(w, *next, s);
    return (*next)++;
}

static void write_definitions(struct tb *b, OTF2_GlobalDefWriter *w)
{
    OTF2_StringRef next = 0, empty = string(w, &next, "");
    char name[64];

    OTF2_GlobalDefWriter_WriteClockProperties(w, 1000000000u, b->offset,
                                              b->last > b->offset ? b->last - b->offset : 0,
                                              0);
    OTF2_GlobalDefWriter_WriteParadigm(w, OTF2_PARADIGM_MPI, string(w, &next, "MPI"),
                                       OTF2_PARADIGM_CLASS_PROCESS);
    OTF2_GlobalDefWriter_WriteSystemTreeNode(w, 0, string(w, &next, "machine"),
                                             string(w, &next, "machine"),
                                             OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    for (int p = 0; p < b->nprocs; p++) {
        snprintf(name, sizeof(name), "MPI Rank %d", p);
        OTF2_GlobalDefWriter_WriteLocationGroup(w, (OTF2_LocationGroupRef)p,
                                                string(w, &next, name),
                                                OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                                OTF2_UNDEFINED_LOCATION_GROUP);
    }
    for (int p = 0; p < b->nprocs; p++)
        OTF2_GlobalDefWriter_WriteLocation(w, (OTF2_LocationRef)p,
                                           string(w, &next, "Master thread"),
                                           OTF2_LOCATION_TYPE_CPU_THREAD, b->events[p],
                                           (OTF2_LocationGroupRef)p);
    for (uint32_t i = 0; i < b->nregions; i++) {
        const struct tb_region *g = &b->regions[i];
        OTF2_StringRef n = string(w, &next, g->name);

        OTF2_GlobalDefWriter_WriteRegion(w, i, n, n, empty, g->role, g->paradigm, g->flags,
                                         string(w, &next, g->file), g->line, g->line);
    }
}

int tb_close(struct tb *b)
{
    OTF2_GlobalDefWriter *w;
    int ok = !b->failed;

    for (int p = 0; p < b->nprocs; p++)
        OTF2_Archive_CloseEvtWriter(b->archive, b->writers[p]);
    OTF2_Archive_CloseEvtFiles(b->archive);
    /* an empty local definition file per location, as the recorder writes them */
    ok = ok && OTF2_Archive_OpenDefFiles(b->archive) == OTF2_SUCCESS;
    for (int p = 0; ok && p < b->nprocs; p++) {
        OTF2_DefWriter *d = OTF2_Archive_GetDefWriter(b->archive, (OTF2_LocationRef)p);

        ok = d && OTF2_Archive_CloseDefWriter(b->archive, d) == OTF2_SUCCESS;
    }
    if (ok)
        OTF2_Archive_CloseDefFiles(b->archive);
    if (ok && (w = OTF2_Archive_GetGlobalDefWriter(b->archive)))
        write_definitions(b, w);
    else
        ok = 0;
    if (OTF2_Archive_Close(b->archive) != OTF2_SUCCESS)
        ok = 0;
    for (uint32_t i = 0; i < b->nregions; i++) {
        free(b->regions[i].name);
        free(b->regions[i].file);
    }
    free(b->regions);
    free(b->writers);
    free(b->events);
    free(b);
    return ok ? 0 : -1;
}

char *tb_tempdir(void)
{
    const char *tmp = getenv("TMPDIR");
    char *dir = malloc(4096);

    if (!dir)
        return NULL;
    snprintf(dir, 4096, "%s/prognoz-analysis.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        free(dir);
        return NULL;
    }
    return dir;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

void tb_remove(const char *dir)
{
    if (dir)
        nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}
