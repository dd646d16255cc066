/* Synthesized runs kept message by message (scale_messages.h). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "scale_messages.h"
#include "trace_builder.h"

void sm_dims2(int nprocs, int *rows, int *cols)
{
    for (*cols = 1; (*cols + 1) * (*cols + 1) <= nprocs; (*cols)++)
        ;
    while (nprocs % *cols)
        (*cols)--;
    *rows = nprocs / *cols;
}

void sm_cart_rows(struct tb *b, int nprocs, uint32_t *rowcomm)
{
    int rows, cols, members[SM_MAX_PROCS];

    sm_dims2(nprocs, &rows, &cols);
    tb_cart(b, TB_WORLD, 2, (const uint32_t[]){(uint32_t)rows, (uint32_t)cols}, NULL, 1);
    for (int y = 0; y < rows; y++) {
        char cname[32];

        for (int x = 0; x < cols; x++)
            members[x] = y * cols + x;
        snprintf(cname, sizeof(cname), "row %d", y);
        rowcomm[y] = tb_comm(b, cname, cols, members);
        tb_cart(b, rowcomm[y], 1, (const uint32_t[]){(uint32_t)cols}, NULL, 1);
    }
}

void sm_model_read(struct st_model *md, const char *const dirs[3], char *err, size_t errlen)
{
    int ndims = 1;

    memset(md, 0, sizeof(*md));
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(pz_scale_run_read_layout(dirs[i], 0, 0, &md->runs[i], err, errlen), 0,
                     "%s", err);
        if (md->runs[i].grid.ndims > ndims)
            ndims = md->runs[i].grid.ndims;
    }
    for (int i = 0; i < 3; i++) {
        if (md->runs[i].grid.ndims < ndims) {
            pz_scale_run_free(&md->runs[i]);
            cr_assert_eq(pz_scale_run_read_layout(dirs[i], ndims, 0, &md->runs[i], err,
                                                  errlen), 0, "%s", err);
        }
        md->list[i] = &md->runs[i];
    }
    md->m = pz_scale_program_build(md->list, 3, 0, err, errlen);
}

void sm_write(const char *top, const char *name, int nprocs, sm_process_fn *process,
              char *dir, size_t len)
{
    struct tb *b;

    snprintf(dir, len, "%s/%s%d", top, name, nprocs);
    cr_assert_not_null(b = tb_open(dir, nprocs), "cannot open a trace in %s", dir);
    for (int p = 0; p < nprocs; p++)
        process(b, p, nprocs);
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
}

void sm_model_of(struct st_model *md, const char *name, const int counts[3],
                 sm_record_fn *record)
{
    char dirs[3][4200], err[512] = "";

    for (int i = 0; i < 3; i++)
        record(name, counts[i], dirs[i], sizeof(dirs[i]));
    sm_model_read(md, (const char *const[]){dirs[0], dirs[1], dirs[2]}, err, sizeof(err));
    cr_assert_not_null(md->m, "%s", err);
}

const char *sm_note(const struct pz_scale_program *m, const char *words)
{
    for (size_t i = 0; m && i < pz_scale_program_nnotes(m); i++)
        if (strstr(pz_scale_program_note(m, i), words))
            return pz_scale_program_note(m, i);
    return NULL;
}

static int keep_comms(void *ctx, const struct pz_synth_comm *comms, uint32_t n)
{
    struct sm_run *k = ctx;

    cr_assert_leq(n, SM_MAX_PROCS + 2, "%u communicators", n);
    for (uint32_t i = 0; i < n; i++) {
        k->comms[i] = comms[i];
        for (uint32_t j = 0; comms[i].members && j < comms[i].size && j < SM_MAX_PROCS; j++)
            k->members[i][j] = comms[i].members[j];
    }
    k->ncomms = n;
    return 0;
}

int sm_world_rank(const struct sm_run *k, uint32_t comm, uint32_t rank)
{
    cr_assert_lt(comm, k->ncomms, "communicator %u of %u", comm, k->ncomms);
    return k->comms[comm].members ? k->members[comm][rank] : (int)rank;
}

static int keep(void *ctx, int proc, const struct pz_rec *r)
{
    struct sm_run *k = ctx;

    if (r->kind == PZ_REC_IRECV_REQUEST)
        k->requests[proc]++;
    if (r->kind == PZ_REC_ISEND_COMPLETE)
        k->completed_sends[proc]++;
    if ((r->kind == PZ_REC_COLL_END || r->kind == PZ_REC_NBC_COMPLETE) &&
        k->collectives[proc]++ < SM_MAX_COLLS)
        k->coll[proc][k->collectives[proc] - 1] = (struct sm_collective){
            r->coll_op, r->comm, r->peer == PZ_NONE32 ? -1 : sm_world_rank(k, r->comm, r->peer),
            r->bytes, r->bytes2 };
    if (r->kind != PZ_REC_SEND && r->kind != PZ_REC_RECV && r->kind != PZ_REC_IRECV &&
        r->kind != PZ_REC_ISEND)
        return 0;
    k->off_world[proc] += r->comm != 0;
    cr_assert_lt(k->n[proc], SM_MAX_RECS, "process %d: more messages than the program's", proc);
    k->m[proc][k->n[proc]++] =
        (struct sm_message){r->kind, sm_world_rank(k, r->comm, r->peer), r->tag, r->bytes};
    return 0;
}

void sm_synthesize(const struct pz_scale_program *m, int nprocs, struct sm_run *got,
                   char *err, size_t errlen)
{
    struct pz_scale_sink sink = { keep_comms, keep, got };

    cr_assert_leq(nprocs, SM_MAX_PROCS, "%d processes", nprocs);
    memset(got, 0, sizeof(*got));
    cr_assert_eq(pz_scale_synthesize(m, nprocs, &sink, err, errlen), 0, "%s", err);
}

static int drop_record(void *ctx, int proc, const struct pz_rec *r)
{
    (void)ctx, (void)proc, (void)r;
    return 0;
}

static int drop_comms(void *ctx, const struct pz_synth_comm *comms, uint32_t n)
{
    (void)ctx, (void)comms, (void)n;
    return 0;
}

int sm_synthesize_none(const struct pz_scale_program *m, int nprocs, char *err,
                       size_t errlen)
{
    struct pz_scale_sink sink = { drop_comms, drop_record, NULL };

    return pz_scale_synthesize(m, nprocs, &sink, err, errlen);
}

void sm_expect_message(const struct sm_run *got, int nprocs, int p, int j,
                       const struct sm_message *want)
{
    const struct sm_message *g = &got->m[p][j];

    cr_expect(g->kind == want->kind && g->peer == want->peer && g->tag == want->tag &&
                  g->bytes == want->bytes,
              "at %d, process %d, message %d: kind %u peer %d tag %u bytes %lu, expected "
              "kind %u peer %d tag %u bytes %lu", nprocs, p, j, g->kind, g->peer, g->tag,
              (unsigned long)g->bytes, want->kind, want->peer, want->tag,
              (unsigned long)want->bytes);
}

void sm_expect_first(const struct sm_run *got, int nprocs, int p,
                     const struct sm_message *want, int n)
{
    cr_assert_geq(got->n[p], n, "at %d, process %d: %d messages", nprocs, p, got->n[p]);
    for (int j = 0; j < n; j++)
        sm_expect_message(got, nprocs, p, j, &want[j]);
}

void sm_expect_passes(const struct sm_run *got, int nprocs, int p,
                      const struct sm_message *want, int n, int passes)
{
    int j = 0;

    cr_assert_eq(got->n[p], passes * n, "at %d, process %d: %d messages, expected %d",
                 nprocs, p, got->n[p], passes * n);
    for (int pass = 0; pass < passes; pass++)
        for (int i = 0; i < n; i++)
            sm_expect_message(got, nprocs, p, j++, &want[i]);
}
