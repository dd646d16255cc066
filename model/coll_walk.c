/* The walk through one member's rounds that every collective algorithm is written as
 * (coll_algos.h), and the schedules made by walking every round at once
 * (coll_schedule.h). */
#include <stdlib.h>
#include <string.h>

#include "coll_algos.h"
#include "coll_schedule.h"

/* A schedule being made for member me: round r's messages from first[r]; failed once it
 * cannot be. */
struct pz_walk_record {
    int me, nmsgs, failed;
    int first[PZ_COLL_SCHEDULE_MAX + 1];
    double reduce[PZ_COLL_SCHEDULE_MAX];
    struct pz_coll_message msgs[PZ_COLL_SCHEDULE_MAX];
};

int pz_internal_walk_run(pz_walk_fn *fn, const struct pz_coll *c, int round,
                         struct pz_coll_round *out)
{
    struct pz_walk w = { round, 0, out, NULL };

    out->reduce_bytes = 0;
    if (c->size + c->remote_size <= 1)
        return 0;
    fn(c, &w);
    return round < w.next;
}

/* Recording: rounds first .. first+k-1 begin; 0 if that is one round to record. */
static int record_rounds(struct pz_walk *w, int first, int k)
{
    struct pz_walk_record *rec = w->record;

    if (k > 1 || w->next > PZ_COLL_SCHEDULE_MAX)
        rec->failed = 1;
    if (rec->failed || k == 0)
        return -1;
    rec->first[first] = rec->nmsgs;
    rec->reduce[first] = 0;
    return 0;
}

int pz_internal_walk_rounds(struct pz_walk *w, int k)
{
    int first = w->next;

    w->next += k;
    if (w->record)
        return record_rounds(w, first, k);
    return w->want >= first && w->want < w->next ? w->want - first : -1;
}

int pz_internal_walk_round(struct pz_walk *w)
{
    return pz_internal_walk_rounds(w, 1) == 0;
}

/* A message of the round asked for, or of the round being recorded. */
static void message(struct pz_walk *w, int peer, int is_send, double bytes)
{
    struct pz_walk_record *rec = w->record;

    if (!rec) {
        w->out->message(w->out->ud, peer, is_send, bytes);
        return;
    }
    if (rec->nmsgs == PZ_COLL_SCHEDULE_MAX || w->next == 0)
        rec->failed = 1;
    if (!rec->failed)
        rec->msgs[rec->nmsgs++] = (struct pz_coll_message){ peer ^ rec->me, is_send, bytes };
}

void pz_internal_walk_send(struct pz_walk *w, int peer, double bytes)
{
    message(w, peer, 1, bytes);
}

void pz_internal_walk_recv(struct pz_walk *w, int peer, double bytes)
{
    message(w, peer, 0, bytes);
}

void pz_internal_walk_reduce(struct pz_walk *w, double bytes)
{
    if (!w->record)
        w->out->reduce_bytes += bytes;
    else if (w->next == 0)
        w->record->failed = 1;
    else if (!w->record->failed)
        w->record->reduce[w->next - 1] += bytes;
}

void pz_internal_walk_copy(struct pz_walk *w, double bytes)
{
    if (w->record)
        w->record->failed = 1;
    else if (w->out->copy)
        w->out->copy(w->out->ud, bytes);
}

/* The recorded schedule of nrounds rounds in one block: its steps follow it. */
static struct pz_coll_schedule *keep(const struct pz_walk_record *rec, int nrounds)
{
    int nsteps = nrounds + rec->nmsgs;
    struct pz_coll_schedule *s = malloc(sizeof(*s) + (size_t)nsteps * sizeof(union pz_coll_step));
    union pz_coll_step *step;

    if (!s)
        return NULL;
    step = (union pz_coll_step *)(s + 1);
    s->nsteps = nsteps;
    s->users = 1;
    s->steps = step;
    for (int r = 0; r < nrounds; r++) {
        step->head.nmsgs = rec->first[r + 1] - rec->first[r];
        step->head.reduce_bytes = rec->reduce[r];
        step++;
        for (int i = rec->first[r]; i < rec->first[r + 1]; i++)
            (step++)->msg = rec->msgs[i];
    }
    return s;
}

struct pz_coll_schedule *pz_coll_schedule_new(const struct pz_coll_algo *a,
                                              const struct pz_coll *c)
{
    pz_walk_fn *fn = pz_internal_walk_of(a);
    struct pz_walk_record rec;
    struct pz_walk w = { -1, 0, NULL, &rec };

    if (!fn)
        return NULL;
    rec.me = c->me;
    rec.nmsgs = rec.failed = 0;
    if (c->size > 1)
        fn(c, &w);
    if (rec.failed)
        return NULL;
    rec.first[w.next] = rec.nmsgs;
    return keep(&rec, w.next);
}

/* Whether two steps at the same place (so both heads or both messages) are the same. */
static int same_step(const union pz_coll_step *a, const union pz_coll_step *b, int is_head)
{
    if (is_head)
        return a->head.nmsgs == b->head.nmsgs &&
               memcmp(&a->head.reduce_bytes, &b->head.reduce_bytes, sizeof(double)) == 0;
    return a->msg.peer == b->msg.peer && a->msg.is_send == b->msg.is_send &&
           memcmp(&a->msg.bytes, &b->msg.bytes, sizeof(double)) == 0;
}

int pz_coll_schedule_same(const struct pz_coll_schedule *a, const struct pz_coll_schedule *b)
{
    int next_head = 0;

    if (a->nsteps != b->nsteps)
        return 0;
    for (int i = 0; i < a->nsteps; i++) {
        if (!same_step(&a->steps[i], &b->steps[i], i == next_head))
            return 0;
        if (i == next_head)
            next_head += 1 + a->steps[i].head.nmsgs;
    }
    return 1;
}

void pz_coll_schedule_release(struct pz_coll_schedule *s)
{
    if (s && --s->users == 0)
        free(s);
}
