/* Butterflies (scale_xor.c, scale_xor_law.c): stage i of log2(P) exchanges with the
 * process whose rank is the caller's XOR 2^i, as the NAS benchmarks' reductions and
 * every recursive doubling do.  Recorded by hand (trace_builder.h) at 2, 4 and 8
 * processes, where the partners are also the neighbours of 2 x 1 x 1, 2 x 2 x 1 and
 * 2 x 2 x 2 grids, and at 4, 8 and 16, where they fit no grid; synthesized at 16 and
 * 64, every process's calls, partners, tags and bytes are the program's, worked out in
 * the comments from its definition; counts that are not powers of two are refused.  NPB
 * CG's row sums over ceil(log2(P) / 2) bits, from the lowest up or from the row's
 * highest down (its reduce_exch_proc order), and its transpose exchange (the rank's two
 * halves swapped), recorded at 2, 4, 8 and at 4, 8, 16, are synthesized at 16, 32 and
 * 64, their partners and sizes (131072 bytes over the row's columns) worked out from
 * npbish.c's formulas. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scale_program.h"
#include "scale_run.h"
#include "tempdir_fixture.h"
#include "trace.h"
#include "trace_builder.h"

#define MS TB_MS
#define PASSES 2
#define BYTES 8192u
#define MAX_RECS 64

TestSuite(scale_butterfly, .init = setup, .fini = cleanup);

static int log2_of(int n)
{
    int l = 0;

    while ((1 << l) < n)
        l++;
    return l;
}

/* How many stages a program makes at nprocs processes. */
typedef int (*stages_fn)(int nprocs);

static int all_bits(int nprocs)
{
    return log2_of(nprocs);
}

/* NPB CG's sum within a row of its grid of 2^floor(l / 2) rows and 2^ceil(l / 2)
 * columns, l = log2(P): 1, 1 and 2 stages at 2, 4 and 8 processes. */
static int row_bits(int nprocs)
{
    return (log2_of(nprocs) + 1) / 2;
}

/* The program, at nprocs: PASSES passes, each in interval 1, of stages(nprocs) stages;
 * stage i: MPI_Irecv from rank XOR 2^i (its request), MPI_Send to it, MPI_Wait (the
 * receive's completion), tag i and BYTES bytes each way; with sendrecv 1, one
 * MPI_Sendrecv tagged 7 instead; with sendrecv 2, one tagged with the direction: 2 i
 * towards the lower rank, 2 i + 1 towards the higher, as a halo exchange on a grid of
 * 2 processes per dimension numbered x + 2 y + 4 z tags its messages; with sendrecv 3
 * (DOWN), MPI_Irecv, MPI_Send and MPI_Wait tagged i with rank XOR 2^(stages - 1 - i),
 * from the highest bit down, as NPB CG's reduce_exch_proc goes. */
#define DOWN 3
static void record(const char *name, int nprocs, stages_fn stages, int sendrecv,
                   struct pz_scale_run *run)
{
    char dir[4200];
    struct tb *b;
    uint32_t interval, irecv, send, wait, both;

    snprintf(dir, sizeof(dir), "%s/%s%d", top, name, nprocs);
    cr_assert_not_null(b = tb_open(dir, nprocs), "cannot open a trace in %s", dir);
    interval = tb_interval(b, 1, "bfly.c", 10);
    irecv = tb_mpi(b, "MPI_Irecv");
    send = tb_mpi(b, "MPI_Send");
    wait = tb_mpi(b, "MPI_Wait");
    both = tb_mpi(b, "MPI_Sendrecv");
    for (int p = 0; p < nprocs; p++) {
        uint64_t t = MS(1), req = 1;

        for (int pass = 0; pass < PASSES; pass++) {
            tb_enter(b, p, t += MS(2), interval);
            for (int i = 0; i < stages(nprocs); i++, req++) {
                uint32_t q = (uint32_t)(p ^ (1 << i)), tag = sendrecv ? 7u : (uint32_t)i;

                if (sendrecv == 2)
                    tag = 2 * (uint32_t)i + ((int)q > p);
                if (sendrecv == DOWN) {
                    q = (uint32_t)(p ^ (1 << (stages(nprocs) - 1 - i)));
                    tag = (uint32_t)i;
                }
                if (sendrecv == 1 || sendrecv == 2) {
                    tb_enter(b, p, t += MS(1), both);
                    tb_mpi_send(b, p, t, TB_WORLD, q, tag, BYTES);
                    tb_mpi_recv(b, p, t + MS(1), TB_WORLD, q, tag, BYTES);
                    tb_leave(b, p, t += MS(1), both);
                    continue;
                }
                tb_enter(b, p, t += MS(1), irecv);
                tb_mpi_irecv_request(b, p, t, req);
                tb_leave(b, p, t += MS(1), irecv);
                tb_enter(b, p, t += MS(1), send);
                tb_mpi_send(b, p, t, TB_WORLD, q, tag, BYTES);
                tb_leave(b, p, t += MS(1), send);
                tb_enter(b, p, t += MS(1), wait);
                tb_mpi_irecv(b, p, t + MS(1), TB_WORLD, q, tag, BYTES, req);
                tb_leave(b, p, t += MS(1), wait);
            }
            tb_leave(b, p, t += MS(1), interval);
        }
    }
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
    cr_assert_eq(pz_scale_run_read_layout(dir, 0, 0, run, err, sizeof(err)), 0, "%s", err);
}

struct model {
    struct pz_scale_run runs[3];
    const struct pz_scale_run *list[3];
    struct pz_scale_program *m;
};

/* The recordings at counts[0..2] read with their grids numbered first dimension fastest
 * or not, each in the dimensions of the one of most, and their model; NULL, the reason
 * in err, when none can be built. */
static struct pz_scale_program *read_and_build(const char *name, const int *counts,
                                               int first_fastest, struct model *md)
{
    int ndims = 1;

    for (int i = 0; i < 3; i++) {
        char path[4200];

        snprintf(path, sizeof(path), "%s/%s%d", top, name, counts[i]);
        pz_scale_run_free(&md->runs[i]);
        cr_assert_eq(pz_scale_run_read_layout(path, 0, first_fastest, &md->runs[i], err,
                                              sizeof(err)), 0, "%s", err);
        if (md->runs[i].grid.ndims > ndims)
            ndims = md->runs[i].grid.ndims;
    }
    for (int i = 0; i < 3; i++) {
        if (md->runs[i].grid.ndims < ndims) {
            char path[4200];

            snprintf(path, sizeof(path), "%s", md->runs[i].path);
            pz_scale_run_free(&md->runs[i]);
            cr_assert_eq(pz_scale_run_read_layout(path, ndims, first_fastest, &md->runs[i],
                                                  err, sizeof(err)), 0, "%s", err);
        }
        md->list[i] = &md->runs[i];
    }
    return pz_scale_program_build(md->list, 3, 0, err, sizeof(err));
}

/* The program recorded at counts[0..2], read as prognoz scale reads them (each in the
 * dimensions of the one of most, numbered first dimension fastest where the other
 * numbering gives no model), its model built. */
static void model_of(const char *name, const int *counts, stages_fn stages, int sendrecv,
                     struct model *md)
{
    memset(md, 0, sizeof(*md));
    for (int i = 0; i < 3; i++)
        record(name, counts[i], stages, sendrecv, &md->runs[i]);
    if (!(md->m = read_and_build(name, counts, 0, md)))
        md->m = read_and_build(name, counts, 1, md);
    cr_assert_not_null(md->m, "%s", err);
}

static void model_free(struct model *md)
{
    pz_scale_program_free(md->m);
    for (int i = 0; i < 3; i++)
        pz_scale_run_free(&md->runs[i]);
}

/* The note of the butterfly, or NULL. */
static const char *butterfly_note(const struct pz_scale_program *m)
{
    for (size_t i = 0; i < pz_scale_program_nnotes(m); i++)
        if (strstr(pz_scale_program_note(m, i), "a butterfly (recursive doubling"))
            return pz_scale_program_note(m, i);
    return NULL;
}

/* Every process's messages in the synthesized run, in order: kind, peer, tag, bytes. */
struct message {
    uint8_t kind;
    uint32_t peer, tag;
    uint64_t bytes;
};
struct messages {
    int nprocs;
    int n[64];
    struct message m[64][MAX_RECS];
    int requests[64];   /* MPI_Irecv's request records */
};

static int no_comms(void *ctx, const struct pz_synth_comm *comms, uint32_t n)
{
    (void)ctx, (void)comms, (void)n;
    return 0;
}

static int keep(void *ctx, int proc, const struct pz_rec *r)
{
    struct messages *k = ctx;

    if (r->kind == PZ_REC_IRECV_REQUEST)
        k->requests[proc]++;
    if (r->kind != PZ_REC_SEND && r->kind != PZ_REC_RECV && r->kind != PZ_REC_IRECV)
        return 0;
    cr_assert_lt(k->n[proc], MAX_RECS, "process %d: more messages than the program's", proc);
    k->m[proc][k->n[proc]++] = (struct message){r->kind, r->peer, r->tag, r->bytes};
    return 0;
}

/* The run at nprocs: every process p makes, in each of the PASSES passes, for i from 0
 * to stages_at(nprocs) - 1 (log2(nprocs) for expect_butterfly), a send to p XOR 2^i (2^(log2(nprocs) - 1 - i) with DOWN) and a
 * receive from it, of BYTES bytes, tagged i (7 with sendrecv 1): with MPI_Irecv,
 * MPI_Send and MPI_Wait, the receive's request, then the send, then the completion (an
 * IRECV record); with MPI_Sendrecv, the send and then the receive (a RECV record). */
static void expect_stages(const struct pz_scale_program *m, int nprocs, int sendrecv,
                          stages_fn stages_at)
{
    static struct messages k;
    struct pz_scale_sink sink = { no_comms, keep, &k };
    int stages = stages_at(nprocs);

    memset(&k, 0, sizeof(k));
    cr_assert_eq(pz_scale_synthesize(m, nprocs, &sink, err, sizeof(err)), 0, "%s", err);
    for (int p = 0; p < nprocs; p++) {
        cr_expect_eq(k.requests[p], sendrecv == 1 ? 0 : PASSES * stages,
                     "at %d, process %d posts %d receives", nprocs, p, k.requests[p]);
        cr_assert_eq(k.n[p], 2 * PASSES * stages, "at %d, process %d: %d messages, expected %d",
                     nprocs, p, k.n[p], 2 * PASSES * stages);
        for (int j = 0; j < k.n[p]; j++) {
            int i = j / 2 % stages, sr = sendrecv == 1;
            int q = p ^ (1 << (sendrecv == DOWN ? stages - 1 - i : i));
            const struct message *g = &k.m[p][j];
            uint8_t kind = j % 2 ? (sr ? PZ_REC_RECV : PZ_REC_IRECV) : PZ_REC_SEND;

            cr_expect(g->kind == kind && g->peer == (uint32_t)q &&
                          g->tag == (sr ? 7u : (uint32_t)i) && g->bytes == BYTES,
                      "at %d, process %d, message %d: kind %u peer %u tag %u bytes %lu, "
                      "expected kind %u peer %d tag %d bytes %u", nprocs, p, j, g->kind,
                      g->peer, g->tag, (unsigned long)g->bytes, kind, q, sr ? 7 : i, BYTES);
        }
    }
}

static void expect_butterfly(const struct pz_scale_program *m, int nprocs, int sendrecv)
{
    expect_stages(m, nprocs, sendrecv, all_bits);
}

/* Recorded at 2, 4 and 8 (1, 2 and 3 stages: partners 1; 1, 2; 1, 2, 4 apart, every
 * one also a neighbour in 2 x 1 x 1, 2 x 2 x 1, 2 x 2 x 2), the stages are one loop of
 * log2(P) iterations, the butterfly is taken and a note says so and why.  At 16 each
 * process makes 4 stages, at 64 6 (expect_butterfly): process 5 at 16 sends to 4, 7, 1
 * and 13 tagged 0 to 3, where the grid's neighbours (4 x 2 x 2) would have it send to
 * 4 and 6 along the first dimension. */
Test(scale_butterfly, recorded_at_2_4_8_is_taken_and_synthesized_at_16_and_64)
{
    static const int counts[] = { 2, 4, 8 };
    struct model md;
    const char *note;

    model_of("irecv", counts, all_bits, 0, &md);
    note = butterfly_note(md.m);
    cr_assert_not_null(note, "no note of the butterfly");
    cr_expect(strstr(note, "the messages of MPI_Irecv go to partners rank XOR 2^i") != NULL &&
                  strstr(note, "at every recorded count (2, 4, 8)") != NULL &&
                  strstr(note, "not the neighbours of the process grid") != NULL,
              "note '%s'", note);
    expect_butterfly(md.m, 16, 0);
    expect_butterfly(md.m, 64, 0);
    model_free(&md);
}

/* Recorded at 4, 8 and 16 (at 16, partners 8 apart fit no grid of neighbours), the same
 * at 64; the note has no grid to name. */
Test(scale_butterfly, recorded_at_4_8_16_is_synthesized_at_64)
{
    static const int counts[] = { 4, 8, 16 };
    struct model md;
    const char *note;

    model_of("wide", counts, all_bits, 0, &md);
    note = butterfly_note(md.m);
    cr_assert_not_null(note, "no note of the butterfly");
    cr_expect(strstr(note, "(4, 8, 16)") != NULL && !strstr(note, "process grid"),
              "note '%s'", note);
    expect_butterfly(md.m, 64, 0);
    model_free(&md);
}

/* One MPI_Sendrecv per stage, every stage tagged 7: the tag does not advance. */
Test(scale_butterfly, a_sendrecv_with_one_tag_is_synthesized_at_16_and_64)
{
    static const int counts[] = { 2, 4, 8 };
    struct model md;

    model_of("sendrecv", counts, all_bits, 1, &md);
    cr_assert_not_null(butterfly_note(md.m), "no note of the butterfly");
    expect_butterfly(md.m, 16, 1);
    expect_butterfly(md.m, 64, 1);
    model_free(&md);
}

static int count_none(void *ctx, int proc, const struct pz_rec *r)
{
    (void)ctx, (void)proc, (void)r;
    return 0;
}

/* 12 is no power of two: rank 4's partner at its fourth stage, 4 XOR 8 = 12, does not
 * exist, and rank 8 has one where ranks 8 to 11 would make 4 stages and 0 to 3, without
 * partners beyond, fewer: refused in one line naming the call and the count; 24 too. */
Test(scale_butterfly, a_count_not_a_power_of_two_is_refused)
{
    static const int counts[] = { 2, 4, 8 };
    struct pz_scale_sink sink = { no_comms, count_none, NULL };
    struct model md;

    model_of("twelve", counts, all_bits, 0, &md);
    cr_expect_eq(pz_scale_synthesize(md.m, 12, &sink, err, sizeof(err)), -1);
    cr_expect(strstr(err, "the partners of MPI_Irecv are rank XOR 2^i") != NULL &&
                  strstr(err, "a power of two processes, not 12") != NULL && !strchr(err, '\n'),
              "err '%s'", err);
    cr_expect_null(pz_scale_synth_new(md.m, 24, err, sizeof(err)));
    cr_expect(strstr(err, "not 24") != NULL, "err '%s'", err);
    model_free(&md);
}

/* NPB CG's row sums: 1, 1 and 2 stages at 2, 4 and 8, not log2(P) but log2 of the
 * columns Q = 2^ceil(log2(P) / 2) of its grid (ceil(1 / 2) = 1, ceil(2 / 2) = 1,
 * ceil(3 / 2) = 2): a butterfly over the rank's lowest bits, the note naming that law; at
 * 16, 2 stages (ceil(4 / 2)), process 5 sending to 4 and 7 tagged 0 and 1, where a
 * butterfly over every bit would make 4; at 64, 3 (ceil(6 / 2)), process 5 to 4, 7, 1. */
Test(scale_butterfly, row_sums_over_half_the_bits_are_synthesized_at_16_and_64)
{
    static const int counts[] = { 2, 4, 8 };
    struct model md;
    const char *note;

    model_of("rows", counts, row_bits, 0, &md);
    note = butterfly_note(md.m);
    cr_assert_not_null(note, "no note of the butterfly");
    cr_expect(strstr(note, "ceil(log2(P) / 2)") != NULL, "note '%s'", note);
    expect_stages(md.m, 16, 0, row_bits);
    expect_stages(md.m, 64, 0, row_bits);
    model_free(&md);
}

/* A halo exchange on 2 x 1 x 1, 2 x 2 x 1 and 2 x 2 x 2 numbered x + 2 y + 4 z, its
 * MPI_Sendrecv along dimension i tagged 2 i downwards and 2 i + 1 upwards: the partners
 * are rank XOR 2^i, stage by stage, but process 0 tags its stages 1, 3, 5 and process 7
 * 0, 2, 4, and at 2 processes process 0 tags its one stage 1, process 1 0: the stages
 * are no loop every process makes alike, and the butterfly is not taken (the grid's
 * neighbours are). */
Test(scale_butterfly, a_halo_exchange_tagged_by_direction_is_no_butterfly)
{
    static const int counts[] = { 2, 4, 8 };
    struct model md;

    model_of("halo", counts, all_bits, 2, &md);
    cr_expect_null(butterfly_note(md.m), "note '%s'", butterfly_note(md.m));
    model_free(&md);
}

/* From the highest bit down, as NPB CG's reduce_exch_proc (stage i with rank XOR
 * 2^(log2(P) - 1 - i), tagged i): recorded at 2, 4 and 8 (partners 1; 2, 1; 4, 2, 1
 * apart), at 16 process 5 sends to 13, 1, 7, 4 tagged 0 to 3 (expect_butterfly), at 64
 * to 37, 21, 13, 1, 7, 4. */
Test(scale_butterfly, from_the_highest_bit_down_is_synthesized_at_16_and_64)
{
    static const int counts[] = { 2, 4, 8 };
    struct model md;

    model_of("down", counts, all_bits, DOWN, &md);
    cr_assert_not_null(butterfly_note(md.m), "no note of the butterfly");
    expect_butterfly(md.m, 16, DOWN);
    expect_butterfly(md.m, 64, DOWN);
    model_free(&md);
}

/* --- NPB CG: the row sums and the transpose exchange */

#define SEGMENT 131072u   /* bytes of a vector over one row of processes */
#define TRANSPOSE_TAG 100u

/* The columns of CG's grid at nprocs: 2^ceil(log2(P) / 2). */
static int columns(int nprocs)
{
    return 1 << row_bits(nprocs);
}

/* CG's transpose partner of process p, as npbish.c computes it from its grid of nprows
 * = 2^floor(log2(P) / 2) rows and npcols = columns(P) columns, rank = row * npcols +
 * column: on a square grid the process at (column, row); on one twice as wide, the
 * pairs of ranks 2 k, 2 k + 1 taken as one process of a square grid of nprows. */
static int cg_partner(int p, int nprocs)
{
    int nprows = 1 << (log2_of(nprocs) / 2), npcols = columns(nprocs);

    if (nprows == npcols)
        return p % nprows * nprows + p / nprows;
    return 2 * (p / 2 % nprows * nprows + p / 2 / nprows) + p % 2;
}

/* One exchange of process p at t: MPI_Irecv from q (request req), MPI_Send to q,
 * MPI_Wait completing the receive, tag and bytes both ways. */
static uint64_t exchange(struct tb *b, int p, uint64_t t, const uint32_t *calls, uint32_t q,
                         uint32_t tag, uint32_t bytes, uint64_t req)
{
    tb_enter(b, p, t += MS(1), calls[0]);
    tb_mpi_irecv_request(b, p, t, req);
    tb_leave(b, p, t += MS(1), calls[0]);
    tb_enter(b, p, t += MS(1), calls[1]);
    tb_mpi_send(b, p, t, TB_WORLD, q, tag, bytes);
    tb_leave(b, p, t += MS(1), calls[1]);
    tb_enter(b, p, t += MS(1), calls[2]);
    tb_mpi_irecv(b, p, t + MS(1), TB_WORLD, q, tag, bytes, req);
    tb_leave(b, p, t += MS(1), calls[2]);
    return t;
}

/* The bit of stage i of CG's row sum of `stages` stages: from the lowest up (i), or with
 * down from the highest down (stages - 1 - i), as NPB CG's reduce_exch_proc goes. */
static int row_bit(int i, int stages, int down)
{
    return down ? stages - 1 - i : i;
}

/* CG's pattern at nprocs: PASSES passes, each in interval 1: the row sum, stage i of
 * row_bits(P) with rank XOR 2^row_bit(i) tagged i, then the transpose exchange with
 * cg_partner tagged TRANSPOSE_TAG (a process on the diagonal with itself), every
 * message SEGMENT / columns(P) bytes, by MPI_Irecv, MPI_Send and MPI_Wait. */
static void record_cg(const char *name, int nprocs, int down, struct pz_scale_run *run)
{
    char dir[4200];
    struct tb *b;
    uint32_t interval, calls[3], bytes = SEGMENT / (uint32_t)columns(nprocs);

    snprintf(dir, sizeof(dir), "%s/%s%d", top, name, nprocs);
    cr_assert_not_null(b = tb_open(dir, nprocs), "cannot open a trace in %s", dir);
    interval = tb_interval(b, 1, "cg.c", 10);
    calls[0] = tb_mpi(b, "MPI_Irecv");
    calls[1] = tb_mpi(b, "MPI_Send");
    calls[2] = tb_mpi(b, "MPI_Wait");
    for (int p = 0; p < nprocs; p++) {
        uint64_t t = MS(1), req = 1;

        for (int pass = 0; pass < PASSES; pass++) {
            tb_enter(b, p, t += MS(2), interval);
            for (int i = 0; i < row_bits(nprocs); i++, req++)
                t = exchange(b, p, t, calls,
                             (uint32_t)(p ^ (1 << row_bit(i, row_bits(nprocs), down))),
                             (uint32_t)i, bytes, req);
            t = exchange(b, p, t, calls, (uint32_t)cg_partner(p, nprocs), TRANSPOSE_TAG, bytes,
                         req++);
            tb_leave(b, p, t += MS(1), interval);
        }
    }
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
    cr_assert_eq(pz_scale_run_read_layout(dir, 0, 0, run, err, sizeof(err)), 0, "%s", err);
}

static void model_of_cg(const char *name, const int *counts, int down, struct model *md)
{
    memset(md, 0, sizeof(*md));
    for (int i = 0; i < 3; i++)
        record_cg(name, counts[i], down, &md->runs[i]);
    if (!(md->m = read_and_build(name, counts, 0, md)))
        md->m = read_and_build(name, counts, 1, md);
    cr_assert_not_null(md->m, "%s", err);
}

/* The message j of process p at nprocs, from the definition of record_cg: each pass
 * has row_bits(P) + 1 exchanges of a send then a receive (an IRECV record). */
static struct message cg_message(int p, int nprocs, int down, int j)
{
    int stages = row_bits(nprocs), i = j / 2 % (stages + 1);
    uint32_t bytes = SEGMENT / (uint32_t)columns(nprocs);
    uint8_t kind = j % 2 ? PZ_REC_IRECV : PZ_REC_SEND;

    if (i < stages)
        return (struct message){kind, (uint32_t)(p ^ (1 << row_bit(i, stages, down))),
                                (uint32_t)i, bytes};
    return (struct message){kind, (uint32_t)cg_partner(p, nprocs), TRANSPOSE_TAG, bytes};
}

static void expect_cg(const struct pz_scale_program *m, int nprocs, int down)
{
    static struct messages k;
    struct pz_scale_sink sink = { no_comms, keep, &k };
    int n = 2 * PASSES * (row_bits(nprocs) + 1);

    memset(&k, 0, sizeof(k));
    cr_assert_eq(pz_scale_synthesize(m, nprocs, &sink, err, sizeof(err)), 0, "%s", err);
    for (int p = 0; p < nprocs; p++) {
        cr_expect_eq(k.requests[p], n / 2, "at %d, process %d posts %d receives", nprocs, p,
                     k.requests[p]);
        cr_assert_eq(k.n[p], n, "at %d, process %d: %d messages, expected %d", nprocs, p,
                     k.n[p], n);
        for (int j = 0; j < n; j++) {
            struct message want = cg_message(p, nprocs, down, j);
            const struct message *g = &k.m[p][j];

            cr_expect(g->kind == want.kind && g->peer == want.peer && g->tag == want.tag &&
                          g->bytes == want.bytes,
                      "at %d, process %d, message %d: kind %u peer %u tag %u bytes %lu, "
                      "expected kind %u peer %u tag %u bytes %lu", nprocs, p, j, g->kind,
                      g->peer, g->tag, (unsigned long)g->bytes, want.kind, want.peer,
                      want.tag, (unsigned long)want.bytes);
        }
    }
}

/* The definitions worked out at the counts synthesized, for the cases the loops check:
 * at 16 (l = 4: 4 rows of 4 columns), 2 stages (XOR 1, 2) of 131072 / 4 = 32768 bytes,
 * and process 6 = row 1, column 2 exchanges with row 2, column 1 = 9 (bits 01 10 and
 * 10 01), process 5 (row 1, column 1) with itself; at 32 (l = 5: 4 rows of 8 columns),
 * 3 stages of 16384 bytes, process 2 (pair 1 = row 0, column 1 of the square of pairs)
 * with pair 4 (row 1, column 0), its rank 8 (bits 00 01 0 and 01 00 0); at 64 (8 x 8),
 * 3 stages of 16384 bytes, process 10 (row 1, column 2) with 17 (row 2, column 1). */
Test(scale_butterfly, cg_partners_worked_out_by_hand)
{
    cr_expect_eq(row_bits(16), 2);
    cr_expect_eq(SEGMENT / (uint32_t)columns(16), 32768u);
    cr_expect_eq(cg_partner(6, 16), 9);
    cr_expect_eq(cg_partner(9, 16), 6);
    cr_expect_eq(cg_partner(5, 16), 5);
    cr_expect_eq(row_bits(32), 3);
    cr_expect_eq(SEGMENT / (uint32_t)columns(32), 16384u);
    cr_expect_eq(cg_partner(2, 32), 8);
    cr_expect_eq(cg_partner(3, 32), 9);
    cr_expect_eq(row_bits(64), 3);
    cr_expect_eq(cg_partner(10, 64), 17);
}

/* CG recorded at 2, 4 and 8: 1, 1 and 2 row stages of 65536, 65536 and 32768 bytes (no
 * form of P gives them: 131072 / Q, Q = 2, 2, 4), and the transpose exchange, at 2
 * every process with itself, at 4 processes 1 and 2 with each other (bits 0 1 and 1 0),
 * 0 and 3 with themselves, at 8 processes 2 and 4 (bits 0 1 0 and 1 0 0), 3 and 5.  The
 * row sums are a butterfly over ceil(log2(P) / 2) bits, the exchange with the transpose
 * partner, both noted; synthesized at 16, 32 and 64, every process makes the program's
 * messages (expect_cg). */
Test(scale_butterfly, cg_recorded_at_2_4_8_is_synthesized_at_16_32_64)
{
    static const int counts[] = { 2, 4, 8 };
    struct model md;
    int transposed = 0;

    model_of_cg("cg", counts, 0, &md);
    cr_assert_not_null(butterfly_note(md.m), "no note of the butterfly");
    for (size_t i = 0; i < pz_scale_program_nnotes(md.m); i++)
        transposed |= strstr(pz_scale_program_note(md.m, i),
                             "go to NPB CG's transpose partner at every process") != NULL;
    cr_expect(transposed, "no note of the transpose partner");
    expect_cg(md.m, 16, 0);
    expect_cg(md.m, 32, 0);
    expect_cg(md.m, 64, 0);
    model_free(&md);
}

/* Recorded at 4, 8 and 16 (1, 2, 2 stages), the same at 32 and 64. */
Test(scale_butterfly, cg_recorded_at_4_8_16_is_synthesized_at_32_64)
{
    static const int counts[] = { 4, 8, 16 };
    struct model md;

    model_of_cg("cgwide", counts, 0, &md);
    expect_cg(md.m, 32, 0);
    expect_cg(md.m, 64, 0);
    model_free(&md);
}

/* 24 is no power of two: CG's grid does not exist; refused in one line naming the
 * first call to a partner (the row sums' MPI_Irecv) and its law. */
Test(scale_butterfly, cg_at_a_count_not_a_power_of_two_is_refused)
{
    static const int counts[] = { 2, 4, 8 };
    struct model md;

    model_of_cg("cg24", counts, 0, &md);
    cr_expect_null(pz_scale_synth_new(md.m, 24, err, sizeof(err)));
    cr_expect(strstr(err, "the partners of MPI_Irecv are rank XOR 2^i over ceil(log2(P) / 2) "
                          "stages (a butterfly within a row of NPB CG's grid)") != NULL &&
                  strstr(err, "not 24") != NULL && !strchr(err, '\n'), "err '%s'", err);
    model_free(&md);
}

/* --- NPB CG's row sums from the highest bit of the row down (reduce_exch_proc) */

/* From the highest bit of the row down: 1, 1 and 2 stages at 2, 4 and 8 (partners XOR
 * 1; XOR 1; XOR 2 then XOR 1), ceil(log2(P) / 2) of them, the first at bit
 * ceil(log2(P) / 2) - 1, where a butterfly from the highest bit of the rank would begin
 * at bit log2(P) - 1 (XOR 2 at 4, XOR 4 at 8).  At 16, 2 stages: process 5 (0101) sends
 * to 5 XOR 2 = 7 tagged 0, then to 5 XOR 1 = 4 tagged 1, not to 13 (XOR 8) first; at 64,
 * 3 stages: to 5 XOR 4 = 1, 7, 4, tagged 0, 1, 2 (expect_stages with DOWN). */
Test(scale_butterfly, row_sums_from_the_highest_bit_of_the_row_down_at_16_and_64)
{
    static const int counts[] = { 2, 4, 8 };
    struct model md;
    const char *note;

    model_of("rowsdown", counts, row_bits, DOWN, &md);
    note = butterfly_note(md.m);
    cr_assert_not_null(note, "no note of the butterfly");
    cr_expect(strstr(note, "ceil(log2(P) / 2)") != NULL, "note '%s'", note);
    expect_stages(md.m, 16, DOWN, row_bits);
    expect_stages(md.m, 64, DOWN, row_bits);
    model_free(&md);
}

/* cg_message with the row sums going down, worked out from the definitions: at 16 (4 x
 * 4, 2 stages), process 6 (0110) sums with 6 XOR 2 = 4 (tag 0), then 6 XOR 1 = 7 (tag 1),
 * then exchanges with 9, 32768 bytes each; at 32 (4 rows of 8 columns, 3 stages),
 * process 2 (00010) with 2 XOR 4 = 6, 2 XOR 2 = 0, 2 XOR 1 = 3, then 8, 16384 bytes; at 64
 * (8 x 8, 3 stages) process 10 (001010) with 14, 8, 11, then 17.  Messages 2 i and 2 i + 1
 * are exchange i's send and receive. */
Test(scale_butterfly, cg_down_messages_worked_out_by_hand)
{
    static const struct { int nprocs, p, peers[4]; uint32_t bytes; } want[] = {
        { 16, 6, { 4, 7, 9, -1 }, 32768u },
        { 32, 2, { 6, 0, 3, 8 }, 16384u },
        { 64, 10, { 14, 8, 11, 17 }, 16384u },
    };

    for (size_t w = 0; w < sizeof(want) / sizeof(want[0]); w++)
        for (int i = 0; i < 4 && want[w].peers[i] >= 0; i++) {
            struct message send = cg_message(want[w].p, want[w].nprocs, 1, 2 * i),
                           recv = cg_message(want[w].p, want[w].nprocs, 1, 2 * i + 1);
            int last = i + 1 == row_bits(want[w].nprocs) + 1;

            cr_expect_eq(send.peer, (uint32_t)want[w].peers[i], "at %d, exchange %d",
                         want[w].nprocs, i);
            cr_expect_eq(recv.peer, (uint32_t)want[w].peers[i]);
            cr_expect_eq(send.kind, PZ_REC_SEND);
            cr_expect_eq(recv.kind, PZ_REC_IRECV);
            cr_expect_eq(send.tag, last ? TRANSPOSE_TAG : (uint32_t)i);
            cr_expect_eq(send.bytes, want[w].bytes);
        }
}

/* CG with its row sums from the highest bit of the row down, recorded at 2, 4 and 8
 * (row stages XOR 1; XOR 1; XOR 2 then XOR 1, and the transpose exchange of the test
 * above): the row sums are taken as ceil(log2(P) / 2) stages from the row's highest bit,
 * and at 16, 32 and 64 every process makes the program's messages (expect_cg, worked out
 * in the test above); a count that is not a power of two is refused. */
Test(scale_butterfly, cg_down_recorded_at_2_4_8_is_synthesized_at_16_32_64)
{
    static const int counts[] = { 2, 4, 8 };
    struct model md;

    model_of_cg("cgdown", counts, 1, &md);
    cr_assert_not_null(butterfly_note(md.m), "no note of the butterfly");
    expect_cg(md.m, 16, 1);
    expect_cg(md.m, 32, 1);
    expect_cg(md.m, 64, 1);
    cr_expect_null(pz_scale_synth_new(md.m, 24, err, sizeof(err)));
    cr_expect(strstr(err, "ceil(log2(P) / 2)") != NULL && strstr(err, "not 24") != NULL,
              "err '%s'", err);
    model_free(&md);
}

/* Recorded at 4, 8 and 16 (1, 2, 2 row stages: XOR 1; XOR 2, 1; XOR 2, 1), the same at
 * 32 and 64 (3 stages: XOR 4, 2, 1). */
Test(scale_butterfly, cg_down_recorded_at_4_8_16_is_synthesized_at_32_64)
{
    static const int counts[] = { 4, 8, 16 };
    struct model md;

    model_of_cg("cgdownwide", counts, 1, &md);
    expect_cg(md.m, 32, 1);
    expect_cg(md.m, 64, 1);
    model_free(&md);
}

/* CG's transpose exchange after a ring's (rank + 1 and rank - 1 around the world, tag
 * 5), at 2, 4 and 8: at 4, process 1 sends to 2, rank XOR 3, no butterfly's partner, so
 * the transpose partner is no model's and none is built; the refusal names the
 * transpose's call, its partner at process 1 of 4 (2, bits 0 1 and 1 0) and that it is
 * taken only among a butterfly's stages, in one line. */
Test(scale_butterfly, cg_transpose_among_other_messages_is_refused_by_name)
{
    static const int counts[] = { 2, 4, 8 };
    struct pz_scale_run runs[3];
    const struct pz_scale_run *list[3];

    for (int i = 0; i < 3; i++) {
        char dir[4200];
        struct tb *b;
        uint32_t interval, calls[3];
        int np = counts[i];

        snprintf(dir, sizeof(dir), "%s/ring%d", top, np);
        cr_assert_not_null(b = tb_open(dir, np), "cannot open a trace in %s", dir);
        interval = tb_interval(b, 1, "ring.c", 10);
        calls[0] = tb_mpi(b, "MPI_Irecv");
        calls[1] = tb_mpi(b, "MPI_Send");
        calls[2] = tb_mpi(b, "MPI_Wait");
        for (int p = 0; p < np; p++) {
            uint64_t t = MS(1), req = 1;

            for (int pass = 0; pass < PASSES; pass++) {
                tb_enter(b, p, t += MS(2), interval);
                tb_enter(b, p, t += MS(1), calls[0]);
                tb_mpi_irecv_request(b, p, t, req);
                tb_leave(b, p, t += MS(1), calls[0]);
                tb_enter(b, p, t += MS(1), calls[1]);
                tb_mpi_send(b, p, t, TB_WORLD, (uint32_t)((p + 1) % np), 5, BYTES);
                tb_leave(b, p, t += MS(1), calls[1]);
                tb_enter(b, p, t += MS(1), calls[2]);
                tb_mpi_irecv(b, p, t + MS(1), TB_WORLD, (uint32_t)((p + np - 1) % np), 5, BYTES,
                             req++);
                tb_leave(b, p, t += MS(1), calls[2]);
                t = exchange(b, p, t, calls, (uint32_t)cg_partner(p, np), TRANSPOSE_TAG, BYTES,
                             req++);
                tb_leave(b, p, t += MS(1), interval);
            }
        }
        cr_assert_eq(tb_close(b), 0, "cannot write the trace");
        cr_assert_eq(pz_scale_run_read_layout(dir, 0, 0, &runs[i], err, sizeof(err)), 0, "%s",
                     err);
        list[i] = &runs[i];
    }
    cr_expect_null(pz_scale_program_build(list, 3, 0, err, sizeof(err)));
    cr_expect(strstr(err, "exchanges with NPB CG's transpose partner") != NULL &&
                  strstr(err, "(process 1's is 2 here)") != NULL &&
                  strstr(err, "extrapolated only where every other message goes to rank "
                              "XOR 2^i") != NULL && !strchr(err, '\n'), "err '%s'", err);
    for (int i = 0; i < 3; i++)
        pz_scale_run_free(&runs[i]);
}

/* --- receives posted by every stage, waited for after the stages */

/* The program, at nprocs: PASSES passes, each in interval 1, of log2(nprocs) stages,
 * stage i: MPI_Irecv from rank XOR 2^i (its request r_i) and MPI_Send to it, tag i and
 * BYTES bytes each way; then, after the stages, one MPI_Wait per stage completing r_i
 * in turn (an IRECV record from rank XOR 2^i tagged i). */
static void record_waits_after(int nprocs, struct pz_scale_run *run)
{
    char dir[4200];
    struct tb *b;
    uint32_t interval, irecv, send, wait;

    snprintf(dir, sizeof(dir), "%s/after%d", top, nprocs);
    cr_assert_not_null(b = tb_open(dir, nprocs), "cannot open a trace in %s", dir);
    interval = tb_interval(b, 1, "bfly.c", 10);
    irecv = tb_mpi(b, "MPI_Irecv");
    send = tb_mpi(b, "MPI_Send");
    wait = tb_mpi(b, "MPI_Wait");
    for (int p = 0; p < nprocs; p++) {
        uint64_t t = MS(1), req = 1;

        for (int pass = 0; pass < PASSES; pass++, req += (uint64_t)log2_of(nprocs)) {
            tb_enter(b, p, t += MS(2), interval);
            for (int i = 0; i < log2_of(nprocs); i++) {
                tb_enter(b, p, t += MS(1), irecv);
                tb_mpi_irecv_request(b, p, t, req + (uint64_t)i);
                tb_leave(b, p, t += MS(1), irecv);
                tb_enter(b, p, t += MS(1), send);
                tb_mpi_send(b, p, t, TB_WORLD, (uint32_t)(p ^ (1 << i)), (uint32_t)i, BYTES);
                tb_leave(b, p, t += MS(1), send);
            }
            for (int i = 0; i < log2_of(nprocs); i++) {
                tb_enter(b, p, t += MS(1), wait);
                tb_mpi_irecv(b, p, t + MS(1), TB_WORLD, (uint32_t)(p ^ (1 << i)), (uint32_t)i,
                             BYTES, req + (uint64_t)i);
                tb_leave(b, p, t += MS(2), wait);
            }
            tb_leave(b, p, t += MS(1), interval);
        }
    }
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
    cr_assert_eq(pz_scale_run_read_layout(dir, 0, 0, run, err, sizeof(err)), 0, "%s", err);
}

/* What each process of a synthesized run posts and completes, in order. */
struct receives {
    int posted[64], done[64], n[64];
    uint64_t ids[64][MAX_RECS];          /* the requests posted, in order */
    struct message m[64][MAX_RECS];      /* sends and completions, in order */
    uint64_t completes[64][MAX_RECS];    /* the request of each completion */
};

static int keep_receives(void *ctx, int proc, const struct pz_rec *r)
{
    struct receives *k = ctx;

    if (r->kind == PZ_REC_IRECV_REQUEST) {
        cr_assert_lt(k->posted[proc], MAX_RECS, "process %d: too many receives", proc);
        k->ids[proc][k->posted[proc]++] = r->request;
    }
    if (r->kind != PZ_REC_SEND && r->kind != PZ_REC_IRECV)
        return 0;
    cr_assert_lt(k->n[proc], MAX_RECS, "process %d: more messages than the program's", proc);
    if (r->kind == PZ_REC_IRECV)
        k->completes[proc][k->done[proc]++] = r->request;
    k->m[proc][k->n[proc]++] = (struct message){r->kind, r->peer, r->tag, r->bytes};
    return 0;
}

/* Recorded at 2, 4 and 8 (1, 2, 3 stages), synthesized at 16: log2(16) = 4 stages per
 * pass.  Each process p, in each of the PASSES = 2 passes, posts 4 receives (ids
 * r_0..r_3 of the pass, in order), sends to p XOR 1, 2, 4, 8 tagged 0 to 3 (process 5:
 * 4, 7, 1, 13), then completes r_0, r_1, r_2, r_3 in turn, from the same partners with
 * the same tags: 16 messages, the 4 sends then the 4 completions of each pass, and
 * completion i of a pass is of the request the pass's i-th MPI_Irecv posted. */
Test(scale_butterfly, receives_of_every_stage_waited_for_after_the_loop_at_16)
{
    static const int counts[] = { 2, 4, 8 };
    static struct receives k;
    struct pz_scale_sink sink = { no_comms, keep_receives, &k };
    struct model md;

    memset(&md, 0, sizeof(md));
    for (int i = 0; i < 3; i++)
        record_waits_after(counts[i], &md.runs[i]);
    if (!(md.m = read_and_build("after", counts, 0, &md)))
        md.m = read_and_build("after", counts, 1, &md);
    cr_assert_not_null(md.m, "%s", err);
    cr_expect_not_null(butterfly_note(md.m), "no note of the butterfly");
    memset(&k, 0, sizeof(k));
    cr_assert_eq(pz_scale_synthesize(md.m, 16, &sink, err, sizeof(err)), 0, "%s", err);
    for (int p = 0; p < 16; p++) {
        cr_expect(k.posted[p] == 8 && k.done[p] == 8 && k.n[p] == 16, "at 16, process %d "
                  "posts %d receives, completes %d, makes %d messages, expected 8, 8, 16",
                  p, k.posted[p], k.done[p], k.n[p]);
        for (int j = 0; j < k.n[p] && k.n[p] == 16; j++) {
            const struct message *g = &k.m[p][j];
            int i = j % 4, q = p ^ (1 << i);
            uint8_t kind = j % 8 < 4 ? PZ_REC_SEND : PZ_REC_IRECV;

            cr_expect(g->kind == kind && g->peer == (uint32_t)q && g->tag == (uint32_t)i &&
                          g->bytes == BYTES, "at 16, process %d, message %d: kind %u peer "
                      "%u tag %u bytes %lu, expected kind %u peer %d tag %d bytes %u", p, j,
                      g->kind, g->peer, g->tag, (unsigned long)g->bytes, kind, q, i, BYTES);
        }
        for (int j = 0; j < k.done[p] && k.posted[p] == 8; j++)
            cr_expect_eq(k.completes[p][j], k.ids[p][j], "at 16, process %d: completion %d "
                         "is of request %lu, expected %lu (the receive posted %d-th)", p, j,
                         (unsigned long)k.completes[p][j], (unsigned long)k.ids[p][j], j);
    }
    model_free(&md);
}

/* --- a step too large to convert */

#define MANY 65   /* messages of one call: more than the 64 events a step converts */

/* The program, at nprocs: each pass, one call exchanging MANY messages of BYTES bytes
 * each way with rank XOR 1 (tag 9), then the stages of record()'s MPI_Irecv, MPI_Send,
 * MPI_Wait with rank XOR 2^i, tag i. */
static void record_large(int nprocs, struct pz_scale_run *run)
{
    char dir[4200];
    struct tb *b;
    uint32_t interval, both, irecv, send, wait;

    snprintf(dir, sizeof(dir), "%s/large%d", top, nprocs);
    cr_assert_not_null(b = tb_open(dir, nprocs), "cannot open a trace in %s", dir);
    interval = tb_interval(b, 1, "bfly.c", 10);
    both = tb_mpi(b, "MPI_Sendrecv");
    irecv = tb_mpi(b, "MPI_Irecv");
    send = tb_mpi(b, "MPI_Send");
    wait = tb_mpi(b, "MPI_Wait");
    for (int p = 0; p < nprocs; p++) {
        uint64_t t = MS(1), req = 1;

        for (int pass = 0; pass < PASSES; pass++) {
            tb_enter(b, p, t += MS(2), interval);
            tb_enter(b, p, t += MS(1), both);
            for (int j = 0; j < MANY; j++) {
                tb_mpi_send(b, p, t, TB_WORLD, (uint32_t)(p ^ 1), 9, BYTES);
                tb_mpi_recv(b, p, t, TB_WORLD, (uint32_t)(p ^ 1), 9, BYTES);
            }
            tb_leave(b, p, t += MS(1), both);
            for (int i = 0; i < log2_of(nprocs); i++, req++) {
                uint32_t q = (uint32_t)(p ^ (1 << i));

                tb_enter(b, p, t += MS(1), irecv);
                tb_mpi_irecv_request(b, p, t, req);
                tb_leave(b, p, t += MS(1), irecv);
                tb_enter(b, p, t += MS(1), send);
                tb_mpi_send(b, p, t, TB_WORLD, q, (uint32_t)i, BYTES);
                tb_leave(b, p, t += MS(1), send);
                tb_enter(b, p, t += MS(1), wait);
                tb_mpi_irecv(b, p, t + MS(1), TB_WORLD, q, (uint32_t)i, BYTES, req);
                tb_leave(b, p, t += MS(1), wait);
            }
            tb_leave(b, p, t += MS(1), interval);
        }
    }
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
    cr_assert_eq(pz_scale_run_read_layout(dir, 0, 0, run, err, sizeof(err)), 0, "%s", err);
}

/* The call of 2 x MANY = 130 events is not converted: its partner, rank XOR 1, would
 * stay an offset in the grid of 2 x 1 x 1 ... 2 x 2 x 2, the neighbour along the first
 * dimension at P (at 16, in 4 x 2 x 2, process 5 would exchange with 4 and 6 where
 * rank XOR 1 is 4 alone): the butterfly is not taken (no note says it is). */
Test(scale_butterfly, a_step_too_large_to_convert_is_no_butterfly)
{
    static const int counts[] = { 2, 4, 8 };
    struct model md;

    memset(&md, 0, sizeof(md));
    for (int i = 0; i < 3; i++)
        record_large(counts[i], &md.runs[i]);
    if (!(md.m = read_and_build("large", counts, 0, &md)))
        md.m = read_and_build("large", counts, 1, &md);
    cr_assert_not_null(md.m, "%s", err);
    cr_expect_null(butterfly_note(md.m), "note '%s'", butterfly_note(md.m));
    model_free(&md);
}

/* --- requests posted by every stage, completed after the loop */

/* The program, at nprocs: PASSES passes, each in interval 1, of log2(nprocs) stages,
 * stage i: MPI_Irecv from rank XOR 2^i (its request r_i), MPI_Isend to it (its request
 * s_i), tag i and BYTES bytes each way; then, after the stages, one MPI_Waitall
 * completing every r_i (an IRECV record) and every s_i (an ISEND_COMPLETE record). */
static void record_waitall(int nprocs, struct pz_scale_run *run)
{
    char dir[4200];
    struct tb *b;
    uint32_t interval, irecv, isend, waitall;

    snprintf(dir, sizeof(dir), "%s/waitall%d", top, nprocs);
    cr_assert_not_null(b = tb_open(dir, nprocs), "cannot open a trace in %s", dir);
    interval = tb_interval(b, 1, "bfly.c", 10);
    irecv = tb_mpi(b, "MPI_Irecv");
    isend = tb_mpi(b, "MPI_Isend");
    waitall = tb_mpi(b, "MPI_Waitall");
    for (int p = 0; p < nprocs; p++) {
        uint64_t t = MS(1), req = 1;

        for (int pass = 0; pass < PASSES; pass++, req += 2 * (uint64_t)log2_of(nprocs)) {
            tb_enter(b, p, t += MS(2), interval);
            for (int i = 0; i < log2_of(nprocs); i++) {
                uint32_t q = (uint32_t)(p ^ (1 << i));

                tb_enter(b, p, t += MS(1), irecv);
                tb_mpi_irecv_request(b, p, t, req + 2 * (uint64_t)i);
                tb_leave(b, p, t += MS(1), irecv);
                tb_enter(b, p, t += MS(1), isend);
                tb_mpi_isend(b, p, t, TB_WORLD, q, (uint32_t)i, BYTES, req + 2 * (uint64_t)i + 1);
                tb_leave(b, p, t += MS(1), isend);
            }
            tb_enter(b, p, t += MS(1), waitall);
            for (int i = 0; i < log2_of(nprocs); i++) {
                tb_mpi_irecv(b, p, t + MS(1), TB_WORLD, (uint32_t)(p ^ (1 << i)), (uint32_t)i,
                             BYTES, req + 2 * (uint64_t)i);
                tb_mpi_isend_complete(b, p, t + MS(1), req + 2 * (uint64_t)i + 1);
            }
            tb_leave(b, p, t += MS(2), waitall);
            tb_leave(b, p, t += MS(1), interval);
        }
    }
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
    cr_assert_eq(pz_scale_run_read_layout(dir, 0, 0, run, err, sizeof(err)), 0, "%s", err);
}

/* What each process of a synthesized run posts and completes, in order. */
struct requests {
    int posted_recvs[64], posted_sends[64], recvs_done[64], sends_done[64];
    struct message sends[64][MAX_RECS], recvs[64][MAX_RECS];
};

static int keep_requests(void *ctx, int proc, const struct pz_rec *r)
{
    struct requests *k = ctx;

    switch (r->kind) {
    case PZ_REC_IRECV_REQUEST:
        k->posted_recvs[proc]++;
        break;
    case PZ_REC_ISEND:
        cr_assert_lt(k->posted_sends[proc], MAX_RECS, "process %d: too many sends", proc);
        k->sends[proc][k->posted_sends[proc]++] =
            (struct message){r->kind, r->peer, r->tag, r->bytes};
        break;
    case PZ_REC_ISEND_COMPLETE:
        k->sends_done[proc]++;
        break;
    case PZ_REC_IRECV:
        cr_assert_lt(k->recvs_done[proc], MAX_RECS, "process %d: too many receives", proc);
        k->recvs[proc][k->recvs_done[proc]++] =
            (struct message){r->kind, r->peer, r->tag, r->bytes};
        break;
    default:
        break;
    }
    return 0;
}

/* Recorded at 2, 4 and 8 (1, 2, 3 stages), synthesized at 16: log2(16) = 4 stages per
 * pass, so every process posts 4 receives and 4 sends per pass, 8 of each in the
 * PASSES = 2 passes, and completes all 8 of each (the Waitall after the stages
 * completes every request posted in its pass).  Process p's sends, in order, go to p XOR
 * 1, 2, 4, 8 tagged 0, 1, 2, 3, BYTES each, in both passes (process 5: 4, 7, 1, 13); its
 * receives, completed by the Waitall of their pass, come from the same partners with
 * the same tags, so each pass's 4 receives are, as a set, from p XOR 2^i tagged i,
 * i = 0 to 3. */
Test(scale_butterfly, requests_of_every_stage_completed_after_the_loop_at_16)
{
    static const int counts[] = { 2, 4, 8 };
    static struct requests k;
    struct pz_scale_sink sink = { no_comms, keep_requests, &k };
    struct model md;
    struct pz_scale_program *m;

    memset(&md, 0, sizeof(md));
    for (int i = 0; i < 3; i++)
        record_waitall(counts[i], &md.runs[i]);
    if (!(m = md.m = read_and_build("waitall", counts, 0, &md)))
        m = md.m = read_and_build("waitall", counts, 1, &md);
    cr_assert_not_null(m, "%s", err);
    cr_expect_not_null(butterfly_note(m), "no note of the butterfly");
    memset(&k, 0, sizeof(k));
    cr_assert_eq(pz_scale_synthesize(m, 16, &sink, err, sizeof(err)), 0, "%s", err);
    for (int p = 0; p < 16; p++) {
        cr_expect(k.posted_recvs[p] == 8 && k.posted_sends[p] == 8 && k.recvs_done[p] == 8 &&
                      k.sends_done[p] == 8,
                  "at 16, process %d posts %d receives and %d sends, completes %d and %d, "
                  "expected 8 of each", p, k.posted_recvs[p], k.posted_sends[p],
                  k.recvs_done[p], k.sends_done[p]);
        for (int j = 0; j < k.posted_sends[p] && j < 8; j++) {
            const struct message *g = &k.sends[p][j];
            int q = p ^ (1 << (j % 4));

            cr_expect(g->peer == (uint32_t)q && g->tag == (uint32_t)(j % 4) &&
                          g->bytes == BYTES, "at 16, process %d, send %d: peer %u tag %u "
                      "bytes %lu, expected peer %d tag %d bytes %u", p, j, g->peer, g->tag,
                      (unsigned long)g->bytes, q, j % 4, BYTES);
        }
        for (int pass = 0; pass < 2 && k.recvs_done[p] == 8; pass++) {
            unsigned seen = 0;

            for (int j = 4 * pass; j < 4 * pass + 4; j++) {
                const struct message *g = &k.recvs[p][j];

                if (g->tag < 4 && g->peer == (uint32_t)(p ^ (1 << g->tag)) && g->bytes == BYTES)
                    seen |= 1u << g->tag;
            }
            cr_expect_eq(seen, 0xfu, "at 16, process %d, pass %d: receives of stages %#x "
                         "from their partners, expected all 4 (0xf)", p, pass, seen);
        }
    }
    model_free(&md);
}
