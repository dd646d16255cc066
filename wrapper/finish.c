/* Opening the trace of a session and writing it at finalize. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "checkpoint.h"
#include "clock.h"
#include "clock_sync.h"
#include "comms.h"
#include "calls_gen.h"
#include "globaldefs.h"
#include "intervals.h"
#include "handles.h"
#include "markers.h"
#include "recording.h"
#include "runtime.h"
#include "session.h"
#include "sites.h"
#include "thread.h"
#include "trace_dir.h"
#include "unify.h"
#include "rma_groups.h"
#include "vcounts.h"

/* Node of every rank, by processor name (PROGNOZ_NODE overrides it, for tests). */
static int learn_nodes(struct pz_session *s)
{
    char name[MPI_MAX_PROCESSOR_NAME] = "", *all;
    const char *forced = getenv("PROGNOZ_NODE");
    int len;

    if (forced && *forced)
        snprintf(name, sizeof(name), "%s", forced);
    else
        PMPI_Get_processor_name(name, &len);
    all = malloc((size_t)s->size * MPI_MAX_PROCESSOR_NAME);
    s->node_of_rank = malloc((size_t)s->size * sizeof(int));
    s->node_names = malloc((size_t)s->size * sizeof(char *));
    if (!all || !s->node_of_rank || !s->node_names)
        return -1;
    PMPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all, MPI_MAX_PROCESSOR_NAME, MPI_CHAR,
                   s->comm);
    s->nnodes = 0;
    for (int r = 0; r < s->size; r++) {
        const char *n = all + (size_t)r * MPI_MAX_PROCESSOR_NAME;
        int k = 0;

        while (k < s->nnodes && strcmp(s->node_names[k], n) != 0)
            k++;
        if (k == s->nnodes)
            s->node_names[s->nnodes++] = strdup(n);
        s->node_of_rank[r] = k;
    }
    free(all);
    return 0;
}

static int *remote_ranks(const struct pz_session *s)
{
    int *remote = malloc((size_t)s->size * sizeof(int));

    for (int r = 0; remote && r < s->size; r++)
        remote[r] = s->node_of_rank[r] != s->node_of_rank[0];
    return remote;
}

static void measure_offset(struct pz_session *s)
{
    int *remote = remote_ranks(s);

    if (remote)
        s->offsets[s->noffsets++] = pz_clock_sync(s->comm, remote);
    free(remote);
}

int pz_session_open(void)
{
    struct pz_session *s = &pz_session;
    int err = 0;

    PMPI_Comm_dup(MPI_COMM_WORLD, &s->comm);
    err = learn_nodes(s) != 0 ? ENOMEM : 0;
    if (s->rank == 0 && !err)
        err = pz_trace_dir_stage(s->dir, s->stage);
    PMPI_Allreduce(MPI_IN_PLACE, &err, 1, MPI_INT, MPI_MAX, s->comm);
    PMPI_Bcast(s->stage, PATH_MAX, MPI_CHAR, 0, s->comm);
    if (!err && pz_archive_open(s->stage, s->comm) != 0)
        err = -1;
    if (err) {
        if (s->rank == 0 && s->stage[0])
            pz_trace_dir_unstage(s->stage);
        if (s->rank == 0)
            pz_runtime_warn("cannot write the trace to '%s': %s; the program runs unrecorded",
                            s->dir, err > 0 ? strerror(err) : "OTF2 cannot create the archive");
        PMPI_Comm_free(&s->comm);
        return -1;
    }
    s->archive_open = 1;
    measure_offset(s);
    return 0;
}

/* Flushes every thread; fills events[index], the first and last nanosecond of the
 * records in *first and *last, and returns the number of threads. */
static int flush_threads(uint64_t **events, uint64_t *dropped, uint64_t *first,
                         uint64_t *last)
{
    int n = 0;

    for (struct pz_thread *t = pz_thread_first(); t; t = t->next)
        n++;
    *events = calloc((size_t)n, sizeof(uint64_t));
    *first = UINT64_MAX;
    *last = 0;
    for (struct pz_thread *t = pz_thread_first(); t; t = t->next) {
        pz_thread_flush(t);
        pz_archive_close_evt_writer(t->writer);
        t->writer = NULL;
        (*events)[t->index] = t->nevents;
        *dropped += t->dropped;
        if (t->first_ns && t->first_ns < *first)
            *first = t->first_ns;
        if (t->last_ns > *last)
            *last = t->last_ns;
    }
    return n;
}

static void write_local_definitions(const struct pz_local_maps *maps)
{
    for (struct pz_thread *t = pz_thread_first(); t; t = t->next)
        pz_archive_local_definitions(t->location, maps, pz_session.offsets,
                                     pz_session.noffsets);
}

/* Region ids: the MPI functions keep theirs, interval i of this process becomes
 * PZ_NCALLS + its global number. */
static uint32_t *region_map(const uint32_t *intervals, uint32_t n)
{
    uint32_t *map = malloc((PZ_NCALLS + n) * sizeof(uint32_t));

    for (uint32_t i = 0; map && i < PZ_NCALLS + n; i++)
        map[i] = i < PZ_NCALLS ? i : PZ_NCALLS + intervals[i - PZ_NCALLS];
    return map;
}

/* Gathers what rank 0 needs for the global definitions and writes them there. */
static void write_global_definitions(int nthreads, const uint64_t *events, uint64_t first,
                                     uint64_t last, struct pz_run_info *run_info)
{
    struct pz_session *s = &pz_session;
    struct pz_run_info run = *run_info;
    int *counts = s->rank == 0 ? malloc((size_t)s->size * sizeof(int)) : NULL;
    int *displs = s->rank == 0 ? malloc((size_t)s->size * sizeof(int)) : NULL, total = 0;
    uint64_t *all = NULL, begin = first + (uint64_t)s->offsets[0].offset;
    uint64_t end = last + (uint64_t)s->offsets[s->noffsets - 1].offset;

    PMPI_Gather(&nthreads, 1, MPI_INT, counts, 1, MPI_INT, 0, s->comm);
    for (int r = 0; s->rank == 0 && r < s->size; r++) {
        displs[r] = total;
        total += counts[r];
    }
    if (s->rank == 0)
        all = malloc((size_t)total * sizeof(uint64_t));
    PMPI_Gatherv(events, nthreads, MPI_UINT64_T, all, counts, displs, MPI_UINT64_T, 0, s->comm);
    PMPI_Reduce(&begin, &run.begin, 1, MPI_UINT64_T, MPI_MIN, 0, s->comm);
    PMPI_Reduce(&end, &run.end, 1, MPI_UINT64_T, MPI_MAX, 0, s->comm);
    if (s->rank == 0) {
        struct timespec real;

        clock_gettime(CLOCK_REALTIME, &real);
        run.realtime_begin = (uint64_t)real.tv_sec * 1000000000u + (uint64_t)real.tv_nsec -
                             (pz_now() - run.begin);
        run.nthreads = counts;
        run.events = all;
        pz_write_global_definitions(pz_archive_global_writer(), &run);
    }
    pz_recording_note(s->comm, s->rank, s->size, s->node_of_rank, s->nnodes,
                      run.realtime_begin);
    free(counts);
    free(displs);
    free(all);
}

static void report(uint64_t events, uint64_t dropped)
{
    struct pz_session *s = &pz_session;
    uint64_t mine[2] = { events, dropped }, sum[2];

    PMPI_Reduce(mine, sum, 2, MPI_UINT64_T, MPI_SUM, 0, s->comm);
    if (s->rank != 0)
        return;
    if (sum[1])
        pz_runtime_warn("%llu calls were not recorded: the buffer filled before the trace "
                        "could be opened; raise PROGNOZ_BUFFER", (unsigned long long)sum[1]);
    fprintf(stderr, "prognoz: recorded %llu events of %d processes in %s/traces.otf2\n",
            (unsigned long long)sum[0], s->size, s->dir);
}

/* Collective: whether a write of the trace failed on some process. */
static int any_failed(MPI_Comm comm)
{
    int failed = pz_archive_failed();

    PMPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_LOR, comm);
    return failed;
}

/* Collective, once a write failed somewhere: the archive is given up without touching
 * OTF2 again (if not closed already), and rank 0 removes what was written of it; the
 * previous trace stays. */
static void give_up(struct pz_session *s)
{
    pz_archive_close(1);
    PMPI_Barrier(s->comm);
    if (s->rank != 0)
        return;
    pz_trace_dir_unstage(s->stage);
    pz_runtime_warn("cannot write the trace in '%s': a write failed (is the disk full?); no "
                    "trace was installed", s->dir);
}

/* What a process's local numbers mean for the whole run, once every buffer is written
 * out (writing them out numbers the call sites). */
struct unified {
    uint32_t ncomms, nlists, nintervals, nsites, nio, nwins, ngroups;
    uint32_t *comm_map, *list_map, *interval_map, *site_map, *regions, *io_map, *win_map,
        *group_map;
    struct pz_global_comm *comms;
    struct pz_interval_def *intervals, *sites;
};

static uint32_t *map_of(uint32_t n)
{
    return malloc((n ? n : 1) * sizeof(uint32_t));
}

/* Collective: numbers the groups of one-sided epochs, which are defined after the
 * communicators' groups, whose number only rank 0 knows (run->comms). */
static void unify_rma_groups(MPI_Comm comm, struct unified *u, struct pz_run_info *run)
{
    uint32_t base = 0;
    int rank;

    PMPI_Comm_rank(comm, &rank);
    pz_rma_groups_unify(comm, u->group_map, &run->rma_groups, &run->nrma_groups);
    if (rank == 0)
        base = pz_rma_groups_base(run);
    PMPI_Bcast(&base, 1, MPI_UINT32_T, 0, comm);
    for (uint32_t i = 0; u->group_map && i < u->ngroups; i++)
        u->group_map[i] += base;
}

/* Collective: numbers communicators, count lists, intervals and call sites of the run,
 * and finds whether any process recorded CPU times; run receives rank 0's view of them. */
static void unify(MPI_Comm comm, struct unified *u, struct pz_run_info *run)
{
    u->comm_map = map_of(u->ncomms = pz_comms_count());
    u->list_map = map_of(u->nlists = pz_vcounts_count());
    u->interval_map = map_of(u->nintervals = pz_markers_count());
    u->site_map = map_of(u->nsites = pz_sites_count());
    u->io_map = map_of(u->nio = pz_handles_count(&pz_io_files));
    u->win_map = map_of(u->nwins = pz_handles_count(&pz_rma_windows));
    u->group_map = map_of(u->ngroups = pz_rma_groups_count());
    pz_comms_unify(comm, u->comm_map, &u->comms, &run->ncomms);
    pz_vcounts_unify(comm, u->list_map, &run->count_lists, &run->ncount_lists);
    pz_intervals_unify(comm, u->interval_map, &u->intervals, &run->nintervals);
    pz_sites_unify(comm, u->site_map, &u->sites, &run->nsites);
    pz_handles_unify(&pz_io_files, comm, u->io_map, &run->io_handles, &run->nio_handles);
    pz_handles_unify(&pz_rma_windows, comm, u->win_map, &run->rma_windows, &run->nrma_windows);
    PMPI_Reduce(&pz_record_cpu, &run->cpu_time, 1, MPI_INT, MPI_LOR, 0, comm);
    u->regions = region_map(u->interval_map, u->nintervals);
    run->comms = u->comms;
    run->intervals = u->intervals;
    run->sites = u->sites;
    unify_rma_groups(comm, u, run);
}

static void unified_free(struct unified *u, struct pz_run_info *run)
{
    pz_comms_free_global(u->comms, run->ncomms);
    pz_vcounts_free_global(run->count_lists, run->ncount_lists);
    pz_intervals_free(u->intervals, run->nintervals);
    pz_intervals_free(u->sites, run->nsites);
    pz_free_strings(run->io_handles, run->nio_handles);
    pz_free_strings(run->rma_windows, run->nrma_windows);
    pz_free_strings(run->rma_groups, run->nrma_groups);
    free(u->comm_map);
    free(u->list_map);
    free(u->interval_map);
    free(u->site_map);
    free(u->io_map);
    free(u->win_map);
    free(u->group_map);
    free(u->regions);
}

/* Collective: the definitions written and the archive closed; 0, or -1 when a write
 * failed on some process (the archive is then given up). */
static int write_definitions(int nthreads, const uint64_t *events, uint64_t first,
                             uint64_t last)
{
    struct pz_session *s = &pz_session;
    struct pz_run_info run = { .nprocs = s->size, .node_of_rank = s->node_of_rank,
                               .nnodes = s->nnodes, .node_names = s->node_names };
    struct unified u;
    int failed;

    pz_archive_begin_definitions();
    unify(s->comm, &u, &run);
    write_local_definitions(&(struct pz_local_maps){
        { u.comm_map, u.ncomms }, { u.list_map, u.nlists },
        { u.regions, u.regions ? PZ_NCALLS + u.nintervals : 0 }, { u.site_map, u.nsites },
        { u.io_map, u.nio }, { u.win_map, u.nwins }, { u.group_map, u.ngroups } });
    write_global_definitions(nthreads, events, first, last, &run);
    unified_free(&u, &run);
    failed = any_failed(s->comm);
    /* closing writes what OTF2 still buffers, which may fail too */
    pz_archive_close(failed);
    return failed || any_failed(s->comm) ? -1 : 0;
}

void pz_session_write(void)
{
    struct pz_session *s = &pz_session;
    uint64_t *events, dropped = 0, total = 0, first, last;
    int nthreads;

    measure_offset(s);
    nthreads = flush_threads(&events, &dropped, &first, &last);
    pz_checkpoint_join();
    if (any_failed(s->comm) || write_definitions(nthreads, events, first, last) != 0) {
        give_up(s);
    } else {
        /* every process has closed its files before rank 0 moves them */
        PMPI_Barrier(s->comm);
        if (s->rank == 0)
            pz_trace_dir_install(s->stage, s->dir);
        for (int i = 0; i < nthreads; i++)
            total += events[i];
        report(total, dropped);
    }
    free(events);
    /* Every process leaves the recorder together, as it left MPI_Init (lifecycle.c).
       Ended on the reduction above, rank 0, which alone prints the summary after it,
       would reach PMPI_Finalize after the others, the last message one way, from them
       to it: what makes MPICH 4.0.2 over UCX's tcp transport hang in MPI_Finalize
       (bench/README.md, "The TCP transport"), where the program alone would not. */
    PMPI_Barrier(s->comm);
    PMPI_Comm_free(&s->comm);
}
