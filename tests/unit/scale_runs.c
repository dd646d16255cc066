/* Hand-built recorded runs (scale_runs.h). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scale_runs.h"

static const char *const region_names[SR_NREGIONS] = {
    "MPI_Send", "MPI_Recv", "MPI_Isend", "MPI_Irecv", "MPI_Wait", "MPI_Allreduce",
    "MPI_Reduce", "MPI_Bcast", "MPI_Alltoall", "MPI_Barrier", "interval 1 at app.c:10",
    "MPI_Waitall", "MPI_Waitany", "MPI_Ineighbor_alltoallv", "MPI_Sendrecv",
    "MPI_File_write_at_all"
};

static void *grow(void *v, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return v;
    *cap = need * 2 + 8;
    if (!(v = realloc(v, *cap * size)))
        abort();
    return v;
}

/* MPI_Dims_create for up to 3 dimensions, by hand: prime factors, largest first, to the
 * smallest dimension so far; then sorted non-increasing. */
static void dims_create(int n, int ndims, int *dims)
{
    int f[32], nf = 0;

    for (int d = 0; d < 3; d++)
        dims[d] = 1;
    for (int p = 2; n > 1; p++)
        while (n % p == 0) {
            f[nf++] = p;
            n /= p;
        }
    for (int i = nf - 1; i >= 0; i--) {
        int s = 0;

        for (int d = 1; d < ndims; d++)
            if (dims[d] < dims[s])
                s = d;
        dims[s] *= f[i];
    }
    for (int i = 0; i < ndims; i++)
        for (int j = i + 1; j < ndims; j++)
            if (dims[j] > dims[i]) {
                int t = dims[i];

                dims[i] = dims[j];
                dims[j] = t;
            }
}

int sr_rank_at(const struct sr_run *b, const int *coords, const int *off)
{
    const struct pz_scale_grid *g = &b->run.grid;
    int r = 0;

    for (int d = 0; d < 3; d++) {
        int x = coords[d] + (off ? off[d] : 0);

        if (x < 0 || x >= g->dims[d]) {
            if (!g->periodic[d])
                return -1;
            x = (x + g->dims[d]) % g->dims[d];
        }
        r = r * g->dims[d] + x;
    }
    return r;
}

void sr_recorded_offset(const struct sr_run *b, const int *coords, const int *off, int *out)
{
    const struct pz_scale_grid *g = &b->run.grid;

    for (int d = 0; d < 3; d++) {
        int n = g->dims[d], x = coords[d] + off[d];

        out[d] = off[d];
        if (!g->periodic[d])
            continue;
        x = (x % n + n) % n;
        out[d] = x - coords[d];
        if (2 * out[d] > n)
            out[d] -= n;
        else if (2 * out[d] < -n)
            out[d] += n;
    }
}

struct sr_run *sr_build(const char *path, int nprocs, int ndims, const uint8_t *periodic,
                        sr_program program, void *arg)
{
    struct sr_run *b = calloc(1, sizeof(*b));
    struct pz_scale_run *run = &b->run;

    if (!b || !(run->path = strdup(path)) ||
        !(run->procs = calloc((size_t)nprocs, sizeof(*run->procs))) ||
        !(b->truth = calloc((size_t)nprocs, sizeof(*b->truth))) ||
        !(b->ntruth = calloc((size_t)nprocs, sizeof(size_t))) ||
        !(b->captruth = calloc((size_t)nprocs, sizeof(size_t))) ||
        !(b->capsteps = calloc((size_t)nprocs, sizeof(size_t))) ||
        !(b->capevents = calloc((size_t)nprocs, sizeof(size_t))) ||
        !(run->names = calloc(SR_NREGIONS, sizeof(char *))) ||
        !(run->comms = calloc(SR_NCOMMS, sizeof(*run->comms))))
        abort();
    run->nprocs = nprocs;
    run->grid.ndims = ndims;
    dims_create(nprocs, ndims, run->grid.dims);
    for (int d = 0; d < ndims; d++)
        run->grid.periodic[d] = periodic ? periodic[d] : 0;
    run->grid.from_topology = 1;
    run->cpu_times = 1;
    run->resolution = 1e9;     /* nanoseconds, from 0 */
    for (int i = 0; i < SR_NREGIONS; i++)
        if (!(run->names[i] = strdup(region_names[i])))
            abort();
    run->nnames = SR_NREGIONS;
    run->comms[SR_WORLD].kind = PZ_SCALE_COMM_WORLD;
    run->comms[SR_SELF].kind = PZ_SCALE_COMM_SELF;
    run->comms[SR_ROW] = (struct pz_scale_comm){.kind = PZ_SCALE_COMM_SLICE, .keep = 2};
    run->comms[SR_COLUMN] = (struct pz_scale_comm){.kind = PZ_SCALE_COMM_SLICE, .keep = 1};
    run->ncomms = SR_NCOMMS;
    for (int p = 0; p < nprocs; p++) {
        int c[3] = {0, 0, 0};
        const int *dims = run->grid.dims;

        c[0] = p / (dims[1] * dims[2]);
        c[1] = p / dims[2] % dims[1];
        c[2] = p % dims[2];
        memcpy(run->procs[p].coords, c, sizeof(c));
        program(b, p, c, arg);
    }
    return b;
}

void sr_step(struct sr_run *b, int proc, uint8_t kind, uint32_t region, double gap)
{
    struct pz_scale_process *p = &b->run.procs[proc];

    p->steps = grow(p->steps, &b->capsteps[proc], p->nsteps + 1, sizeof(*p->steps));
    p->steps[p->nsteps++] = (struct pz_scale_step){
        .kind = kind, .region = region, .gap_wall = gap, .gap_cpu = gap,
        .duration = 1e-6, .first = (uint32_t)p->nevents, .n = 0};
}

void sr_event(struct sr_run *b, int proc, const struct pz_scale_event *e,
              const struct sr_truth *t)
{
    struct pz_scale_process *p = &b->run.procs[proc];

    p->events = grow(p->events, &b->capevents[proc], p->nevents + 1, sizeof(*p->events));
    p->events[p->nevents++] = *e;
    p->steps[p->nsteps - 1].n++;
    b->truth[proc] = grow(b->truth[proc], &b->captruth[proc], b->ntruth[proc] + 1,
                          sizeof(**b->truth));
    b->truth[proc][b->ntruth[proc]++] = *t;
}

void sr_free(struct sr_run *b)
{
    if (!b)
        return;
    for (int p = 0; p < b->run.nprocs; p++) {
        free(b->run.procs[p].steps);
        free(b->run.procs[p].events);
        free(b->run.procs[p].nbrs);
        free(b->truth[p]);
    }
    for (uint32_t i = 0; i < b->run.nnames; i++)
        free(b->run.names[i]);
    free(b->run.names);
    free(b->run.comms);
    free(b->run.procs);
    free(b->run.path);
    free(b->truth);
    free(b->ntruth);
    free(b->captruth);
    free(b->capsteps);
    free(b->capevents);
    free(b);
}

void sr_record_at(struct sr_recorded *r, const int *counts, int ndims,
                  const uint8_t *periodic, sr_program prog, void *arg)
{
    char err[512] = "", path[32];

    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof(path), "run%d", counts[i]);
        r->runs[i] = sr_build(path, counts[i], ndims, periodic, prog, arg);
        r->list[i] = &r->runs[i]->run;
    }
    r->m = pz_scale_program_build(r->list, 3, 0, err, sizeof(err));
    cr_assert(r->m, "%s", err);
}

void sr_recorded_free(struct sr_recorded *r)
{
    pz_scale_program_free(r->m);
    for (int i = 0; i < 3; i++)
        sr_free(r->runs[i]);
}

int sr_no_comms(void *ctx, const struct pz_synth_comm *comms, uint32_t n)
{
    (void)ctx;
    (void)comms;
    (void)n;
    return 0;
}

struct pz_scale_event sr_message_along(uint8_t kind, int off, uint32_t tag, uint64_t bytes)
{
    struct pz_scale_event e = {.kind = kind, .comm = SR_WORLD, .posted_by = -1, .tag = tag};

    e.peer.kind = PZ_SCALE_PEER_OFFSET;
    e.peer.off[0] = (int8_t)off;
    e.bytes = bytes;
    return e;
}

void sr_ring_iteration(struct sr_run *b, int p, const int *c, uint32_t tag, uint64_t bytes,
                       double gap)
{
    static const int east[3] = {1, 0, 0}, west[3] = {-1, 0, 0};
    int P = b->run.nprocs;
    struct pz_scale_event e = sr_message_along(PZ_REC_ISEND, 1, tag, bytes);
    struct sr_truth t = {sr_rank_at(b, c, east), 0, P, 1, -1};

    sr_step(b, p, PZ_SCALE_CALL, SR_ISEND, gap);
    sr_event(b, p, &e, &t);
    e = sr_message_along(PZ_REC_RECV, -1, tag, bytes);
    t.peer = sr_rank_at(b, c, west);
    sr_step(b, p, PZ_SCALE_CALL, SR_RECV, 0);
    sr_event(b, p, &e, &t);
    e = (struct pz_scale_event){.kind = PZ_REC_ISEND_COMPLETE, .comm = SR_WORLD, .posted_by = 2};
    t.peer = -1;
    t.posted_by = 2;
    sr_step(b, p, PZ_SCALE_CALL, SR_WAIT, 0);
    sr_event(b, p, &e, &t);
}
