/* Synthesizing the run at P processes (scale_program.h): the grid MPI_Dims_create would
 * lay out with the recordings' number of dimensions and periodicity, the communicators
 * (the world, the process alone, every instance of each slice the template uses), and
 * process after process the template's steps whose guards hold there, loops repeated
 * their fitted trip counts, each step after its fitted computation.  Nothing is kept
 * across processes but the values at P computed once, so that memory does not grow with
 * the number of processes times calls. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scale_program_int.h"

/* seconds since the start in the ticks of the recording whose definitions the
 * synthesized archive copies (the largest). */
static uint64_t ticks(const struct pz_scale_run *clock, double seconds)
{
    /* never negative: rounding by hand, llround is slow */
    return clock->offset + (uint64_t)(seconds * clock->resolution + 0.5);
}

/* The CPU time of the prognoz:cpu_time attribute, ns. */
static uint64_t cpu_ns(double seconds)
{
    return (uint64_t)(seconds * 1e9 + 0.5);
}

/* One slice class of the template: the communicators sharing the coordinates of the
 * dimensions not kept. */
struct slice {
    uint8_t keep;
    uint32_t first;           /* its first instance in the communicators */
};

/* Requests posted and not yet completed, the first posted first: of one slot (v ids),
 * or waiting for one completing step (slots too). */
struct fifo {
    uint64_t *v;
    uint32_t *slots;
    uint32_t head, tail, cap;
};

struct synth {
    const struct pz_scale_program *m;
    const struct pz_scale_sink *sink;
    struct pz_scale_grid g;
    int nprocs;
    struct pz_synth_comm *comms;
    uint32_t ncomms;
    int *members;
    char *names;
    struct slice slices[1 << PZ_SCALE_MAX_DIMS];
    int nslices;
    uint64_t *counts;          /* [node], loops */
    uint64_t *bytes, *bytes2;  /* [event], then [nevents + slot] the completions' */
    double *gap;               /* [node * (nclasses + 1) + class], s */
    double *pred_gap;          /* [pred], s */
    double *after_gap;         /* [prev + 1], s */
    uint32_t last;             /* the last step made, SP_NONE */
    struct fifo *fifos;        /* [slot]: for the calls of one request that complete them */
    struct fifo *waiting;      /* [node]: for a call over many requests */
    uint64_t *last_id;         /* [slot]: the last request posted, 0 none (the tests') */
    /* the process being synthesized */
    int proc, coords[PZ_SCALE_MAX_DIMS];
    uint8_t flags[PZ_SCALE_MAX_DIMS];
    uint32_t cls;
    double now, cpu;
    uint64_t next_request, any_received;
    char *err;
    size_t errlen;
};

/* --- communicators */

static int kept(uint8_t keep, int d)
{
    return (keep >> d) & 1;
}

/* The instance of slice keep holding coords, and the rank of coords in it. */
static void slice_place(const struct pz_scale_grid *g, uint8_t keep, const int *c,
                        uint32_t *instance, uint32_t *rank)
{
    uint32_t in = 0, rk = 0;

    for (int d = 0; d < g->ndims; d++) {
        if (kept(keep, d))
            rk = rk * (uint32_t)g->dims[d] + (uint32_t)c[d];
        else
            in = in * (uint32_t)g->dims[d] + (uint32_t)c[d];
    }
    *instance = in;
    *rank = rk;
}

static uint32_t slice_size(const struct pz_scale_grid *g, uint8_t keep)
{
    uint32_t n = 1;

    for (int d = 0; d < g->ndims; d++)
        if (kept(keep, d))
            n *= (uint32_t)g->dims[d];
    return n;
}

static void collect_slices(struct synth *s)
{
    for (uint32_t i = 0; i < s->m->nevents; i++) {
        const struct sp_event *e = s->m->events[i].sig;
        int j;

        if (e->comm.kind != PZ_SCALE_COMM_SLICE)
            continue;
        for (j = 0; j < s->nslices && s->slices[j].keep != e->comm.keep; j++)
            ;
        if (j == s->nslices)
            s->slices[s->nslices++].keep = e->comm.keep;
    }
}

static void slice_name(const struct pz_scale_grid *g, uint8_t keep, uint32_t instance,
                       char *buf, size_t len)
{
    if (g->ndims == 2 && keep == 2)
        snprintf(buf, len, "row %u", instance);
    else if (g->ndims == 2 && keep == 1)
        snprintf(buf, len, "column %u", instance);
    else
        snprintf(buf, len, "slice %u of dimensions%s%s%s", instance, kept(keep, 0) ? " 0" : "",
                 kept(keep, 1) ? " 1" : "", kept(keep, 2) ? " 2" : "");
}

#define NAME_LEN 48

static int make_comms(struct synth *s)
{
    uint32_t n = 2, at = 2;
    size_t nmembers = 0;
    int *mem;

    collect_slices(s);
    for (int j = 0; j < s->nslices; j++) {
        s->slices[j].first = n;
        n += (uint32_t)s->nprocs / slice_size(&s->g, s->slices[j].keep);
        nmembers += (size_t)s->nprocs;
    }
    if (!(s->comms = calloc(n, sizeof(*s->comms))) ||
        !(s->members = malloc((nmembers ? nmembers : 1) * sizeof(int))) ||
        !(s->names = calloc(n, NAME_LEN)))
        return -1;
    s->ncomms = n;
    s->comms[0] = (struct pz_synth_comm){(uint32_t)s->nprocs, NULL, 0, "MPI_COMM_WORLD"};
    s->comms[1] = (struct pz_synth_comm){1, NULL, 1, "MPI_COMM_SELF"};
    mem = s->members;
    for (int j = 0; j < s->nslices; j++) {
        uint8_t keep = s->slices[j].keep;
        uint32_t size = slice_size(&s->g, keep), count = (uint32_t)s->nprocs / size;

        for (uint32_t i = 0; i < count; i++, at++) {
            char *name = s->names + (size_t)at * NAME_LEN;

            slice_name(&s->g, keep, i, name, NAME_LEN);
            s->comms[at] = (struct pz_synth_comm){size, mem + (size_t)i * size, 0, name};
        }
        /* every rank at its place in its instance: instances in order, ranks row-major */
        for (int r = 0; r < s->nprocs; r++) {
            int c[PZ_SCALE_MAX_DIMS];
            uint32_t in, rk;

            pz_scale_grid_coords(&s->g, r, c);
            slice_place(&s->g, keep, c, &in, &rk);
            mem[(size_t)in * size + rk] = r;
        }
        mem += s->nprocs;
    }
    return 0;
}

/* --- the values at P */

static uint64_t whole(const struct pz_scale_model *f, int nprocs)
{
    return (uint64_t)llround(pz_scale_model_at(f, nprocs));
}

static int values_at(struct synth *s)
{
    const struct pz_scale_program *m = s->m;
    uint32_t cols = m->nclasses + 1;

    if (!(s->counts = calloc(m->nnodes ? m->nnodes : 1, sizeof(*s->counts))) ||
        !(s->bytes = calloc((size_t)m->nevents + m->nslots + 1, sizeof(*s->bytes))) ||
        !(s->bytes2 = calloc((size_t)m->nevents + m->nslots + 1, sizeof(*s->bytes2))) ||
        !(s->waiting = calloc(m->nnodes ? m->nnodes : 1, sizeof(*s->waiting))) ||
        !(s->last_id = calloc(m->nslots ? m->nslots : 1, sizeof(*s->last_id))) ||
        !(s->gap = calloc((m->nnodes ? m->nnodes : 1) * (size_t)cols, sizeof(*s->gap))) ||
        !(s->pred_gap = calloc(m->npreds ? m->npreds : 1, sizeof(*s->pred_gap))) ||
        !(s->fifos = calloc(m->nslots ? m->nslots : 1, sizeof(*s->fifos))))
        return -1;
    for (uint32_t i = 0; i < m->npreds; i++)
        s->pred_gap[i] = pz_scale_model_at(&m->preds[i].gap, s->nprocs);
    if (!(s->after_gap = calloc((size_t)m->nnodes + 1, sizeof(*s->after_gap))))
        return -1;
    for (uint32_t k = 0; k <= m->nnodes; k++)
        s->after_gap[k] = pz_scale_model_at(&m->after[k], s->nprocs);
    for (uint32_t k = 0; k < m->nnodes; k++) {
        if (m->nodes[k].kind == SP_LOOP)
            s->counts[k] = whole(&m->nodes[k].count, s->nprocs);
        else
            for (uint32_t c = 0; c < cols; c++)
                s->gap[(size_t)k * cols + c] =
                    pz_scale_model_at(&m->gap[(size_t)k * cols + c], s->nprocs);
    }
    for (uint32_t i = 0; i < m->nevents; i++) {
        s->bytes[i] = whole(&m->events[i].bytes, s->nprocs);
        s->bytes2[i] = whole(&m->events[i].bytes2, s->nprocs);
    }
    for (uint32_t i = 0; i < m->nslots; i++) {
        s->bytes[m->nevents + i] = whole(&m->done[i].bytes, s->nprocs);
        s->bytes2[m->nevents + i] = whole(&m->done[i].bytes2, s->nprocs);
    }
    return 0;
}

/* --- requests */

static int push(struct fifo *f, uint64_t id, uint32_t slot)
{
    if (f->tail == f->cap) {
        uint32_t cap = f->cap ? f->cap * 2 : 4;
        uint64_t *v;
        uint32_t *slots;

        if (f->head) {
            memmove(f->v, f->v + f->head, (f->tail - f->head) * sizeof(*f->v));
            memmove(f->slots, f->slots + f->head, (f->tail - f->head) * sizeof(*f->slots));
            f->tail -= f->head;
            f->head = 0;
            return push(f, id, slot);
        }
        if (!(v = realloc(f->v, cap * sizeof(*v))))
            return -1;
        f->v = v;
        if (!(slots = realloc(f->slots, cap * sizeof(*slots))))
            return -1;
        f->slots = slots;
        f->cap = cap;
    }
    f->slots[f->tail] = slot;
    f->v[f->tail++] = id;
    return 0;
}

/* --- one process */

static int emit(struct synth *s, struct pz_rec *rec)
{
    if (s->sink->event(s->sink->ctx, s->proc, rec) == 0)
        return 0;
    snprintf(s->err, s->errlen, "the synthesized run could not be written (process %d)",
             s->proc);
    return -1;
}

static void blank(struct pz_rec *rec, uint8_t kind, uint64_t time)
{
    memset(rec, 0, sizeof(*rec));
    rec->kind = kind;
    rec->time = time;
    rec->region = rec->comm = rec->peer = PZ_NONE32;
    rec->tag = 0;
    rec->request = PZ_NONE64;
    rec->callsite = rec->send_list = rec->recv_list = PZ_NONE32;
    rec->cpu = PZ_NONE64;
}

/* The communicator of event e at this process, its size and the process's rank in it. */
static void comm_of(const struct synth *s, const struct sp_event *e, uint32_t *comm,
                    uint32_t *size, uint32_t *rank)
{
    if (e->comm.kind == PZ_SCALE_COMM_NONE) {
        *comm = PZ_NONE32;
        *size = 1;
        *rank = 0;
        return;
    }
    if (e->comm.kind == PZ_SCALE_COMM_SELF) {
        *comm = 1;
        *size = 1;
        *rank = 0;
        return;
    }
    for (int j = 0; e->comm.kind == PZ_SCALE_COMM_SLICE && j < s->nslices; j++)
        if (s->slices[j].keep == e->comm.keep) {
            uint32_t in;

            slice_place(&s->g, e->comm.keep, s->coords, &in, rank);
            *comm = s->slices[j].first + in;
            *size = slice_size(&s->g, e->comm.keep);
            return;
        }
    *comm = 0;
    *size = (uint32_t)s->nprocs;
    *rank = (uint32_t)s->proc;
}

/* The peer of e as a rank of its communicator; -1 with err when it does not exist. */
static int64_t peer_of(struct synth *s, const struct sp_event *e, uint32_t size, uint32_t rank)
{
    int c[PZ_SCALE_MAX_DIMS];
    uint32_t in, rk;

    switch (e->peer.kind) {
    case PZ_SCALE_PEER_NONE:
        return PZ_NONE32;
    case PZ_SCALE_PEER_RANK:
    case PZ_SCALE_PEER_LAST:
        if ((uint32_t)e->peer.rank >= size)
            break;
        return e->peer.kind == PZ_SCALE_PEER_RANK ? (uint32_t)e->peer.rank
                                                  : size - 1 - (uint32_t)e->peer.rank;
    case PZ_SCALE_PEER_ANY:
        /* the other processes in turn (a note says so) */
        return size < 2 ? rank : (rank + 1 + s->any_received++ % (size - 1)) % size;
    case PZ_SCALE_PEER_OFFSET:
        memcpy(c, s->coords, sizeof(c));
        for (int i = 0, d = 0; d < s->g.ndims; d++)
            if (e->comm.kind != PZ_SCALE_COMM_SLICE || kept(e->comm.keep, d))
                c[d] += e->peer.off[i++];
        if (pz_scale_grid_rank(&s->g, c) < 0)
            break;
        if (e->comm.kind != PZ_SCALE_COMM_SLICE)
            return pz_scale_grid_rank(&s->g, c);
        pz_scale_grid_coords(&s->g, pz_scale_grid_rank(&s->g, c), c);
        slice_place(&s->g, e->comm.keep, c, &in, &rk);
        return rk;
    }
    snprintf(s->err, s->errlen, "process %d of %d: the peer of a call does not exist "
             "(rank %d of a communicator of %u processes)", s->proc, s->nprocs,
             e->peer.rank, size);
    return -1;
}

/* A record of signature e, its sizes the values at P of index ev (s->bytes). */
static int emit_record(struct synth *s, const struct sp_event *e, uint32_t ev,
                       uint64_t request, uint64_t at)
{
    struct pz_rec rec;
    uint32_t size, rank;
    int64_t peer;

    blank(&rec, e->kind, at);
    rec.coll_op = e->coll_op;
    comm_of(s, e, &rec.comm, &size, &rank);
    /* a request's sender and tag, or root, are its completion's, borrowed to tell it apart */
    if (e->kind != PZ_REC_IRECV_REQUEST && e->kind != PZ_REC_NBC_REQUEST) {
        if ((peer = peer_of(s, e, size, rank)) < 0)
            return -1;
        rec.peer = (uint32_t)peer;
        rec.tag = e->tag;
    }
    rec.bytes = s->bytes[ev];
    rec.bytes2 = s->bytes2[ev];
    rec.request = request;
    return emit(s, &rec);
}

static int out_of_memory(struct synth *s)
{
    snprintf(s->err, s->errlen, "out of memory synthesizing process %d", s->proc);
    return -1;
}

/* A posting's new request goes where its completion will find it: the slot's fifo for a
 * call of one request, the completing step's for a call over many. */
static int post(struct synth *s, int32_t slot, uint64_t id)
{
    const struct sp_done *d = &s->m->done[slot];

    s->last_id[slot] = id;
    if (d->by_signature && push(&s->fifos[slot], id, (uint32_t)slot) != 0)
        return out_of_memory(s);
    if (d->node != SP_NONE && push(&s->waiting[d->node], id, (uint32_t)slot) != 0)
        return out_of_memory(s);
    return 0;
}

static int emit_event(struct synth *s, uint32_t ev, uint64_t at)
{
    const struct sp_tevent *te = &s->m->events[ev];
    uint64_t request = PZ_NONE64;

    if (te->slot >= 0) {
        request = ++s->next_request;
        if (post(s, te->slot, request) != 0)
            return -1;
    } else if (te->completes >= 0 && te->sig->kind == PZ_REC_REQUEST_TEST) {
        /* a test leaves its request pending */
        request = s->last_id[te->completes] ? s->last_id[te->completes] : ++s->next_request;
    } else if (te->completes >= 0) {
        struct fifo *f = &s->fifos[te->completes];

        /* a request never posted here gets an id of its own: the replay ignores it */
        request = f->head < f->tail ? f->v[f->head++] : ++s->next_request;
    }
    return emit_record(s, te->sig, ev, request, at);
}

/* The completions of step k, a call over many requests: of those posted for it, all, or
 * as many as each call completed in the recordings, the first posted first. */
static int emit_completions(struct synth *s, uint32_t k, uint64_t at)
{
    struct fifo *f = &s->waiting[k];
    uint32_t n = f->tail - f->head, per_call = s->m->nodes[k].per_call;

    if (per_call && per_call < n)
        n = per_call;
    for (; n > 0; n--, f->head++) {
        uint32_t slot = f->slots[f->head];

        if (emit_record(s, &s->m->done[slot].sig, s->m->nevents + slot, f->v[f->head], at) != 0)
            return -1;
    }
    return 0;
}

/* The computation before step k: its class's own fit, else the one chosen for the pair
 * of steps around it, else (a pair never recorded) the one after the previous step or
 * the one before k over all processes, whichever spreads least. */
static double gap_before(struct synth *s, uint32_t k)
{
    const struct pz_scale_program *m = s->m;
    size_t at = (size_t)k * (m->nclasses + 1);
    uint32_t after = s->last == SP_NONE ? 0 : s->last + 1;

    if (m->gap_own[at + s->cls])
        return s->gap[at + s->cls];
    for (uint32_t i = m->pred_head[k]; i != SP_NONE; i = m->preds[i].next)
        if (m->preds[i].prev == s->last)
            return s->pred_gap[i];
    if (m->after_spread[after] < m->before_spread[k])
        return s->after_gap[after];
    return s->gap[at + m->nclasses];
}

static int emit_step(struct synth *s, uint32_t k)
{
    const struct sp_node *nd = &s->m->nodes[k];
    const struct sp_sym *sym = &s->m->table.syms[nd->sym];
    int call = sym->step_kind == PZ_SCALE_CALL;
    double gap = gap_before(s, k);
    uint64_t enter, leave;
    struct pz_rec rec;

    s->now += gap;
    s->cpu += gap;
    enter = ticks(s->m->runs[s->m->largest], s->now);
    s->now += nd->duration;
    leave = ticks(s->m->runs[s->m->largest], s->now);
    s->last = k;
    if (sym->step_kind != PZ_SCALE_END) {
        blank(&rec, PZ_REC_ENTER, enter);
        rec.region = nd->region;
        rec.cpu = call ? cpu_ns(s->cpu) : PZ_NONE64;
        if (emit(s, &rec) != 0)
            return -1;
    }
    for (uint32_t i = 0; i < sym->n; i++) {
        const struct sp_tevent *te = &s->m->events[nd->first_event + i];
        uint8_t kind = te->sig->kind;
        int at_enter = kind == PZ_REC_COLL_BEGIN || kind == PZ_REC_ISEND ||
                       kind == PZ_REC_IRECV_REQUEST || kind == PZ_REC_NBC_REQUEST ||
                       kind == PZ_REC_SEND;

        /* a call to MPI_PROC_NULL: no message, no request */
        if (te->guarded && !sp_guard_holds(&te->peers, &s->g, s->flags))
            continue;
        if (emit_event(s, nd->first_event + i, at_enter ? enter : leave) != 0)
            return -1;
    }
    if (emit_completions(s, k, leave) != 0)
        return -1;
    if (sym->step_kind == PZ_SCALE_BEGIN)
        return 0;
    blank(&rec, PZ_REC_LEAVE, leave);
    rec.region = nd->region;
    rec.cpu = call ? cpu_ns(s->cpu) : PZ_NONE64;
    return emit(s, &rec);
}

static int run_nodes(struct synth *s, uint32_t a, uint32_t b)
{
    const struct sp_node *nodes = s->m->nodes;

    for (uint32_t k = a; k < b;) {
        if (nodes[k].kind == SP_LOOP) {
            for (uint64_t i = 0; i < s->counts[k]; i++)
                if (run_nodes(s, k + 1, nodes[k].end) != 0)
                    return -1;
            k = nodes[k].end;
            continue;
        }
        if (sp_guard_holds(&nodes[k].guard, &s->g, s->flags) && emit_step(s, k) != 0)
            return -1;
        k++;
    }
    return 0;
}

static int synthesize_process(struct synth *s, int p)
{
    const struct pz_scale_program *m = s->m;
    uint64_t mask;

    s->proc = p;
    pz_scale_grid_coords(&s->g, p, s->coords);
    sp_positions(&s->g, s->coords, s->flags);
    mask = sp_class_mask(m, &s->g, p, s->flags);
    for (s->cls = 0; s->cls < m->nclasses && m->classes[s->cls].mask != mask; s->cls++)
        ;
    s->now = s->cpu = 0;
    s->last = SP_NONE;
    s->next_request = s->any_received = 0;
    for (uint32_t i = 0; i < m->nslots; i++) {
        s->fifos[i].head = s->fifos[i].tail = 0;
        s->last_id[i] = 0;
    }
    for (uint32_t k = 0; k < m->nnodes; k++)
        s->waiting[k].head = s->waiting[k].tail = 0;
    return run_nodes(s, 0, m->nnodes);
}

static void synth_free(struct synth *s)
{
    for (uint32_t i = 0; s->fifos && i < s->m->nslots; i++) {
        free(s->fifos[i].v);
        free(s->fifos[i].slots);
    }
    for (uint32_t k = 0; s->waiting && k < s->m->nnodes; k++) {
        free(s->waiting[k].v);
        free(s->waiting[k].slots);
    }
    free(s->fifos);
    free(s->waiting);
    free(s->last_id);
    free(s->comms);
    free(s->members);
    free(s->names);
    free(s->counts);
    free(s->bytes);
    free(s->bytes2);
    free(s->gap);
    free(s->pred_gap);
    free(s->after_gap);
}

int pz_scale_synthesize(const struct pz_scale_program *m, int nprocs,
                        const struct pz_scale_sink *sink, char *err, size_t errlen)
{
    struct synth s = {.m = m, .sink = sink, .nprocs = nprocs, .err = err, .errlen = errlen};
    int rc = -1;

    if (nprocs < 1) {
        snprintf(err, errlen, "cannot synthesize a run of %d processes", nprocs);
        return -1;
    }
    pz_scale_grid_balanced(&s.g, nprocs, m->grid.ndims);
    memcpy(s.g.periodic, m->grid.periodic, sizeof(s.g.periodic));
    if (make_comms(&s) != 0 || values_at(&s) != 0) {
        snprintf(err, errlen, "out of memory synthesizing %d processes", nprocs);
        goto out;
    }
    if (sink->comms(sink->ctx, s.comms, s.ncomms) != 0) {
        snprintf(err, errlen, "the synthesized run's communicators could not be written");
        goto out;
    }
    for (int p = 0; p < nprocs; p++)
        if (synthesize_process(&s, p) != 0)
            goto out;
    rc = 0;
out:
    synth_free(&s);
    return rc;
}
