/* Butterflies (scale_xor.c, scale_xor_law.c): stage i of log2(P) exchanges with the
 * process whose rank is the caller's XOR 2^i, as the NAS benchmarks' reductions and
 * every recursive doubling do.  Recorded by hand (trace_builder.h) at 2, 4 and 8
 * processes, where the partners are also the neighbours of 2 x 1 x 1, 2 x 2 x 1 and
 * 2 x 2 x 2 grids, and at 4, 8 and 16, where they fit no grid; synthesized at 16 and
 * 64, every process's calls, partners, tags and bytes are the program's, worked out in
 * the comments from its definition; counts that are not powers of two are refused, and
 * stages that do not grow as log2(P) are not taken for a butterfly. */
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
 * to log2(nprocs) - 1, a send to p XOR 2^i (2^(log2(nprocs) - 1 - i) with DOWN) and a
 * receive from it, of BYTES bytes, tagged i (7 with sendrecv 1): with MPI_Irecv,
 * MPI_Send and MPI_Wait, the receive's request, then the send, then the completion (an
 * IRECV record); with MPI_Sendrecv, the send and then the receive (a RECV record). */
static void expect_butterfly(const struct pz_scale_program *m, int nprocs, int sendrecv)
{
    static struct messages k;
    struct pz_scale_sink sink = { no_comms, keep, &k };
    int stages = log2_of(nprocs);

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

/* NPB CG's row sums: 1, 1 and 2 stages at 2, 4 and 8, not log2(P): no butterfly of the
 * rank's bits (at 16 CG makes 2 stages, a butterfly 4), and no note says one is. */
Test(scale_butterfly, stages_not_growing_as_log2_p_are_no_butterfly)
{
    static const int counts[] = { 2, 4, 8 };
    struct pz_scale_run runs[3];
    const struct pz_scale_run *list[3];
    struct pz_scale_program *m;

    for (int i = 0; i < 3; i++) {
        record("rows", counts[i], row_bits, 0, &runs[i]);
        list[i] = &runs[i];
    }
    m = pz_scale_program_build(list, 3, 0, err, sizeof(err));
    if (m)
        cr_expect_null(butterfly_note(m), "note '%s'", butterfly_note(m));
    pz_scale_program_free(m);
    for (int i = 0; i < 3; i++)
        pz_scale_run_free(&runs[i]);
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
