/* Assembling the trace of a run that ended without MPI_Finalize (assemble.h). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "archive.h"
#include "assemble.h"
#include "assembly.h"
#include "calls_gen.h"
#include "evt_file.h"
#include "globaldefs.h"
#include "interval_defs.h"
#include "names.h"
#include "trace_dir.h"

static int has_prefix(const char *name, const char *prefix)
{
    return strncmp(name, prefix, strlen(prefix)) == 0;
}

/* Whether folder holds a part, and its newest time of change in *when. */
static int holds_parts(const char *folder, struct timespec *when)
{
    DIR *d = opendir(folder);
    struct dirent *e;
    int found = 0;

    while (d && (e = readdir(d))) {
        char path[PATH_MAX];
        struct stat st;

        if (!has_prefix(e->d_name, PZ_PART_PREFIX) || strstr(e->d_name, ".tmp") ||
            snprintf(path, sizeof(path), "%s/%s", folder, e->d_name) >= (int)sizeof(path) ||
            stat(path, &st) != 0)
            continue;
        if (!found || st.st_mtim.tv_sec > when->tv_sec)
            *when = st.st_mtim;
        found = 1;
    }
    if (d)
        closedir(d);
    return found;
}

/* The staging folder of dir that holds the newest parts, written at since or later; 0
 * if none does. */
static int find_stage(const char *dir, time_t since, char *stage)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    struct timespec newest = { 0, 0 };
    int found = 0;

    while (d && (e = readdir(d))) {
        char folder[PATH_MAX];
        struct timespec when;

        if (!has_prefix(e->d_name, ".prognoz-new-") ||
            snprintf(folder, sizeof(folder), "%s/%s", dir, e->d_name) >= (int)sizeof(folder) ||
            !holds_parts(folder, &when) || when.tv_sec < since ||
            (found && when.tv_sec < newest.tv_sec))
            continue;
        snprintf(stage, PATH_MAX, "%s", folder);
        newest = when;
        found = 1;
    }
    if (d)
        closedir(d);
    return found;
}

/* parts[r] for every rank that left one; *size from them.  NULL after a message. */
static struct pz_part *read_parts(const char *stage, int *size)
{
    struct pz_part *parts = NULL, p;
    DIR *d = opendir(stage);
    struct dirent *e;
    char err[PATH_MAX + 128];
    int failed = !d;

    *size = 0;
    while (!failed && (e = readdir(d))) {
        char path[PATH_MAX];

        if (!has_prefix(e->d_name, PZ_PART_PREFIX) || strstr(e->d_name, ".tmp") ||
            snprintf(path, sizeof(path), "%s/%s", stage, e->d_name) >= (int)sizeof(path))
            continue;
        if (pz_part_read(path, &p, err, sizeof(err)) != 0) {
            fprintf(stderr, "prognoz: %s: ignored\n", err);
            continue;
        }
        if (!parts) {
            *size = p.size;
            parts = calloc((size_t)p.size, sizeof(*parts));
        }
        if (!parts || p.size != *size || parts[p.rank].ending) {
            fprintf(stderr, "prognoz: '%s' belongs to another run: ignored\n", path);
            pz_part_free(&p);
            failed = !parts;
            continue;
        }
        parts[p.rank] = p;
    }
    if (d)
        closedir(d);
    if (!parts)
        fprintf(stderr, "prognoz: no readable part of a trace in '%s'\n", stage);
    return parts;
}

/* The first part, whose node table and clock stand for the run's. */
static const struct pz_part *first_part(const struct pz_part *parts, int size)
{
    for (int r = 0; r < size; r++)
        if (parts[r].ending)
            return &parts[r];
    return NULL;
}

/* Per-location event counts and the run's span on the corrected clock of rank 0. */
static int run_span(const struct pz_part *parts, int size, struct pz_run_info *run,
                    int *nthreads, uint64_t *events)
{
    const struct pz_part *first = first_part(parts, size);
    uint64_t begin = UINT64_MAX, end = 0;
    int k = 0;

    for (int r = 0; r < size; r++) {
        const struct pz_part *p = &parts[r];

        nthreads[r] = p->ending ? (int)p->nthreads : 1;
        for (uint32_t i = 0; i < p->nthreads; i++) {
            const struct pz_part_thread *t = &p->threads[i];

            events[k + t->index] = t->events;
            if (t->first && t->first + (uint64_t)p->offset < begin)
                begin = t->first + (uint64_t)p->offset;
            if (t->last + (uint64_t)p->offset > end)
                end = t->last + (uint64_t)p->offset;
        }
        k += nthreads[r];
    }
    if (begin > end)
        begin = end = first->clock_now + (uint64_t)first->offset;
    run->begin = begin;
    run->end = end;
    run->realtime_begin = first->clock_real - (first->clock_now + (uint64_t)first->offset - begin);
    return k;
}

static void set_global_lists(const struct pz_assembly *a, struct pz_run_info *run)
{
    run->comms = a->comms;
    run->ncomms = a->ncomms;
    run->count_lists = a->lists.all;
    run->ncount_lists = a->lists.nall;
    run->intervals = pz_intervals_parse(a->intervals.all, a->intervals.nall);
    run->nintervals = a->intervals.nall;
    run->sites = pz_intervals_parse(a->sites.all, a->sites.nall);
    run->nsites = a->sites.nall;
    run->io_handles = a->io_handles.all;
    run->nio_handles = a->io_handles.nall;
    run->rma_windows = a->windows.all;
    run->nrma_windows = a->windows.nall;
    run->rma_groups = a->rma_groups.all;
    run->nrma_groups = a->rma_groups.nall;
}

/* "4,4,2": the cores of each node, as the first rank there that left a part saw them;
 * 0 where none did (unknown). */
static char *node_cores(const struct pz_part *parts, int size, const struct pz_part *first)
{
    size_t len = 12 * (size_t)first->nodes.n + 1, used = 0;
    char *list = malloc(len);

    for (uint32_t k = 0; list && k < first->nodes.n; k++) {
        int cores = 0;

        for (int r = 0; r < size && !cores; r++)
            if (parts[r].ending && first->node_of_rank[r] == (int)k)
                cores = parts[r].cores;
        used += (size_t)snprintf(list + used, len - used, "%s%d", k ? "," : "", cores);
    }
    if (list && !first->nodes.n)
        list[0] = '\0';
    return list;
}

/* The recording's properties, as the recorder sets them at finalize (recording.h), from
 * the parts; realtime_begin: the run's start, ns since the epoch. */
static void write_recording(OTF2_Archive *archive, const struct pz_part *parts, int size,
                            uint64_t realtime_begin)
{
    const struct pz_part *first = first_part(parts, size);
    time_t start = (time_t)(realtime_begin / 1000000000u);
    char date[32], *cores = node_cores(parts, size, first);
    struct tm tm;

    if (first->program)
        OTF2_Archive_SetProperty(archive, PZ_PROGRAM_PROPERTY, first->program, false);
    if (gmtime_r(&start, &tm) && strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm))
        OTF2_Archive_SetProperty(archive, PZ_DATE_PROPERTY, date, false);
    if (first->library && first->library[0])
        OTF2_Archive_SetProperty(archive, PZ_MPI_LIBRARY_PROPERTY, first->library, false);
    if (cores)
        OTF2_Archive_SetProperty(archive, PZ_NODE_CORES_PROPERTY, cores, false);
    free(cores);
}

static void write_global(OTF2_Archive *archive, const struct pz_part *parts, int size,
                         const struct pz_assembly *a)
{
    const struct pz_part *first = first_part(parts, size);
    struct pz_run_info run = { .nprocs = size, .node_of_rank = first->node_of_rank,
                               .nnodes = (int)first->nodes.n, .node_names = first->nodes.s };
    int *nthreads = malloc((size_t)size * sizeof(int));
    size_t nlocations = 0;
    uint64_t *events;

    for (int r = 0; r < size; r++) {
        nlocations += parts[r].ending ? parts[r].nthreads : 1;
        run.cpu_time |= parts[r].ending && parts[r].cpu;
    }
    events = calloc(nlocations, sizeof(uint64_t));
    if (nthreads && events) {
        run_span(parts, size, &run, nthreads, events);
        run.nthreads = nthreads;
        run.events = events;
        set_global_lists(a, &run);
        pz_write_global_definitions(OTF2_Archive_GetGlobalDefWriter(archive), &run);
        write_recording(archive, parts, size, run.realtime_begin);
        pz_intervals_free((struct pz_interval_def *)run.intervals, run.nintervals);
        pz_intervals_free((struct pz_interval_def *)run.sites, run.nsites);
    }
    free(nthreads);
    free(events);
}

/* Rank r's local definitions: its maps to the run's numbering, its clock offset; none
 * for a rank that left no part, whose one location gets an empty file. */
static void write_local(OTF2_Archive *archive, const struct pz_part *p, int r,
                        const struct pz_assembly *a)
{
    if (!p->ending) {
        OTF2_DefWriter *w = OTF2_Archive_GetDefWriter(archive, pz_location_id(r, 0));

        if (w)
            OTF2_Archive_CloseDefWriter(archive, w);
        return;
    }
    uint32_t nregions = PZ_NCALLS + p->intervals.n;
    uint32_t *regions = malloc(nregions * sizeof(uint32_t));
    uint32_t *groups = malloc((p->rma_groups.n ? p->rma_groups.n : 1) * sizeof(uint32_t));
    uint32_t group_base = pz_rma_groups_base(
        &(struct pz_run_info){ .comms = a->comms, .ncomms = a->ncomms });
    struct pz_clock_offset offset = { p->offset_time, p->offset, p->deviation };

    for (uint32_t i = 0; regions && i < nregions; i++)
        regions[i] = i < PZ_NCALLS ? i : PZ_NCALLS + a->intervals.maps[r][i - PZ_NCALLS];
    /* the epochs' groups follow the communicators' (globaldefs.h) */
    for (uint32_t i = 0; groups && i < p->rma_groups.n; i++)
        groups[i] = group_base + a->rma_groups.maps[r][i];
    for (uint32_t i = 0; regions && groups && i < p->nthreads; i++) {
        OTF2_DefWriter *w = OTF2_Archive_GetDefWriter(archive,
                                                      pz_location_id(r, p->threads[i].index));

        if (!w)
            continue;
        pz_write_local_definitions(w, &(struct pz_local_maps){
            { a->comm_maps[r], p->ncomms }, { a->lists.maps[r], p->lists.n },
            { regions, nregions }, { a->sites.maps[r], p->sites.n },
            { a->io_handles.maps[r], p->io_handles.n }, { a->windows.maps[r], p->windows.n },
            { groups, p->rma_groups.n } },
            &offset, 1);
        OTF2_Archive_CloseDefWriter(archive, w);
    }
    free(regions);
    free(groups);
}

/* "0: HOW; 1: HOW; ..." */
static char *endings(const struct pz_part *parts, int size)
{
    size_t len = 1;
    char *text;

    for (int r = 0; r < size; r++)
        len += 16 + strlen(parts[r].ending ? parts[r].ending : PZ_PARTIAL_NOTHING);
    if (!(text = malloc(len)))
        return NULL;
    text[0] = '\0';
    for (int r = 0; r < size; r++)
        snprintf(text + strlen(text), len - strlen(text), "%s%d: %s", r ? "; " : "", r,
                 parts[r].ending ? parts[r].ending : PZ_PARTIAL_NOTHING);
    return text;
}

static OTF2_FlushType always_flush(void *data, OTF2_FileType type, OTF2_LocationRef location,
                                   void *caller, bool final)
{
    (void)data, (void)type, (void)location, (void)caller, (void)final;
    return OTF2_FLUSH;
}

static const OTF2_FlushCallbacks flush_callbacks = { always_flush, NULL };

/* An empty event file for each rank that left none, so that every location reads. */
static void write_empty_events(OTF2_Archive *archive, const struct pz_part *parts, int size)
{
    OTF2_Archive_OpenEvtFiles(archive);
    for (int r = 0; r < size; r++) {
        OTF2_EvtWriter *w = parts[r].ending ? NULL
                                            : OTF2_Archive_GetEvtWriter(archive, pz_location_id(r, 0));

        if (w)
            OTF2_Archive_CloseEvtWriter(archive, w);
    }
    OTF2_Archive_CloseEvtFiles(archive);
}

/* The archive's definitions in folder out; 0, or -1 if OTF2 failed. */
static int write_archive(const char *out, const struct pz_part *parts, int size,
                         const struct pz_assembly *a)
{
    OTF2_Archive *archive = OTF2_Archive_Open(out, "traces", OTF2_FILEMODE_WRITE,
                                              PZ_EVT_CHUNK, 4 * 1024 * 1024,
                                              OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    char *text = endings(parts, size);
    int ok = archive && text &&
             OTF2_Archive_SetFlushCallbacks(archive, &flush_callbacks, NULL) == OTF2_SUCCESS &&
             OTF2_Archive_SetSerialCollectiveCallbacks(archive) == OTF2_SUCCESS;

    if (ok) {
        write_empty_events(archive, parts, size);
        OTF2_Archive_OpenDefFiles(archive);
        for (int r = 0; r < size; r++)
            write_local(archive, &parts[r], r, a);
        write_global(archive, parts, size, a);
        ok = OTF2_Archive_SetProperty(archive, PZ_PARTIAL_PROPERTY, text, false) ==
             OTF2_SUCCESS;
        ok = OTF2_Archive_CloseDefFiles(archive) == OTF2_SUCCESS && ok;
    }
    ok = archive && OTF2_Archive_Close(archive) == OTF2_SUCCESS && ok;
    free(text);
    return ok ? 0 : -1;
}

/* Moves the event files of stage/traces/ into out/traces/; -1 and errno on failure. */
static int move_events(const char *stage, const char *out)
{
    char from_dir[PATH_MAX], from[PATH_MAX], to[PATH_MAX];
    DIR *d;
    struct dirent *e;
    int rc = 0;

    if (snprintf(from_dir, sizeof(from_dir), "%s/traces", stage) >= (int)sizeof(from_dir)) {
        errno = ENAMETOOLONG;
        return -1;
    }
    if (!(d = opendir(from_dir)))
        return errno == ENOENT ? 0 : -1;
    while (rc == 0 && (e = readdir(d))) {
        size_t len = strlen(e->d_name);

        if (len < 5 || strcmp(e->d_name + len - 4, ".evt") != 0)
            continue;
        if (snprintf(from, sizeof(from), "%s/%s", from_dir, e->d_name) >= (int)sizeof(from) ||
            snprintf(to, sizeof(to), "%s/traces/%s", out, e->d_name) >= (int)sizeof(to)) {
            errno = ENAMETOOLONG;
            rc = -1;
        } else {
            rc = rename(from, to);
        }
    }
    closedir(d);
    return rc;
}

/* The event file of every thread that a checkpoint saved (checkpoint.h) made of its
 * saved file, whatever the recorder wrote after it; -1 and errno on failure. */
static int restore_saved(const char *stage, const struct pz_part *parts, int size)
{
    char evt[PATH_MAX], saved[PATH_MAX + 8];

    for (int r = 0; r < size; r++) {
        for (uint32_t i = 0; parts[r].ending && i < parts[r].nthreads; i++) {
            const struct pz_part_thread *t = &parts[r].threads[i];
            unsigned long long location = pz_location_id(r, t->index);

            if (!t->saved)
                continue;
            if (snprintf(evt, sizeof(evt), "%s/traces/%llu.evt", stage, location) >=
                (int)sizeof(evt)) {
                errno = ENAMETOOLONG;
                return -1;
            }
            snprintf(saved, sizeof(saved), "%s.saved", evt);
            if (pz_evt_cut(saved, t->saved) != 0 || rename(saved, evt) != 0)
                return -1;
        }
    }
    return 0;
}

/* Removes the parts of stage, then what the recorder left there, then stage itself. */
static void remove_stage(const char *stage, int size)
{
    for (int r = 0; r < size; r++) {
        char path[PATH_MAX + 32];

        snprintf(path, sizeof(path), "%s/%s%d", stage, PZ_PART_PREFIX, r);
        unlink(path);
    }
    pz_trace_dir_unstage(stage);
}

static int assemble(const char *dir, const char *stage, struct pz_part *parts, int size)
{
    struct pz_assembly a;
    char out[PATH_MAX];
    int err;

    if (pz_assembly_unify(parts, size, &a) != 0) {
        fprintf(stderr, "prognoz: out of memory assembling the trace in '%s'\n", stage);
        return -1;
    }
    if ((err = pz_trace_dir_stage(dir, out)) != 0) {
        fprintf(stderr, "prognoz: cannot assemble the trace in '%s': %s\n", dir, strerror(err));
        pz_assembly_free(&a);
        return -1;
    }
    err = write_archive(out, parts, size, &a);
    pz_assembly_free(&a);
    if (err != 0 || restore_saved(stage, parts, size) != 0 || move_events(stage, out) != 0) {
        fprintf(stderr, "prognoz: cannot assemble the trace of '%s' in '%s': %s\n", stage, out,
                err ? "OTF2 cannot write it" : strerror(errno));
        return -1;
    }
    if (pz_trace_dir_install(out, dir) != 0)
        return -1;
    remove_stage(stage, size);
    return 1;
}

int pz_assemble_partial(const char *dir, time_t since)
{
    char stage[PATH_MAX];
    struct pz_part *parts;
    int size, rc;

    if (!find_stage(dir, since, stage))
        return 0;
    if (!(parts = read_parts(stage, &size)))
        return -1;
    rc = assemble(dir, stage, parts, size);
    for (int r = 0; r < size; r++)
        pz_part_free(&parts[r]);
    free(parts);
    return rc;
}
