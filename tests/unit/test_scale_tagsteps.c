/* Loops whose tags advance with the iteration, run once or twice at the smallest counts
 * (scale_tags.c, struct sp_tag_learned): two iterations tell no progression alone, but
 * the body a longer run of the same steps taught is that loop.  Recorded by hand
 * (trace_builder.h), the grid inferred from the messages as prognoz scale reads
 * recordings:
 *
 * - an odd-even transposition sort at 2, 4 and 8 processes: in phase ph = 0 .. P - 1,
 *   MPI_Sendrecv with rank + 1 where ph + rank is even, else with rank - 1 (the ends
 *   skip the phases without a partner), tag ph; then an MPI_Sendrecv of 4 bytes to rank
 *   + 1 from rank - 1 (MPI_PROC_NULL past the ends), tag 99, and MPI_Reduce to rank 0.
 *   At 4 each process has 2 phases of each parity (tags 0, 2 and 1, 3), at 2 one;
 * - a ring pipeline at 3, 6 and 12: twice, P - 1 steps of MPI_Sendrecv_replace to rank +
 *   1 from rank - 1 (around the ring), tag the step, then MPI_Allreduce.  At 3 the steps
 *   are 2 (tags 0, 1).
 *
 * The runs synthesized at 16 and 64 make, process by process, the program's messages
 * (plan()) in order: kind, peer, tag and bytes.  The sort at 5, whose last iteration
 * of two phases is one, is refused.  The same sort tagged ph * ph (no progression) is
 * refused as recordings that differ, without naming the transpose partner of NPB CG
 * that the steps of other processes at the same index exchange with
 * (scale_transpose.c). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "scale_messages.h"
#include "scale_program.h"
#include "scale_run.h"
#include "tempdir_fixture.h"
#include "trace.h"
#include "trace_builder.h"

#define MS TB_MS
#define SORTED 262144u        /* bytes of the odd-even sort's data, over P processes */
#define BLOCK 12288u          /* bytes of the ring's blocks, over P processes */
#define OUTER 2               /* the ring's passes */
#define FINAL_TAG 99u

TestSuite(scale_tagsteps, .init = setup, .fini = cleanup);

enum shape {
    ODD_EVEN,       /* tag ph */
    ODD_EVEN_SQ,    /* tag ph * ph */
    RING            /* MPI_Sendrecv_replace, tag the step */
};

/* One call of the program: an MPI_Sendrecv (or MPI_Sendrecv_replace) sending to `to`
 * and receiving from `from` (-1: MPI_PROC_NULL), or a collective (coll). */
struct call {
    int coll, to, from;
    uint32_t tag;
    uint64_t bytes;
};

/* The odd-even sort's calls of process p at nprocs into out; their number. */
static int odd_even(enum shape shape, int nprocs, int p, struct call *out)
{
    int n = 0;

    for (int ph = 0; ph < nprocs; ph++) {
        int partner = (ph + p) % 2 == 0 ? p + 1 : p - 1;
        uint32_t tag = shape == ODD_EVEN ? (uint32_t)ph : (uint32_t)(ph * ph);

        if (partner >= 0 && partner < nprocs)
            out[n++] = (struct call){0, partner, partner, tag, SORTED / (uint32_t)nprocs};
    }
    out[n++] = (struct call){0, p + 1 < nprocs ? p + 1 : -1, p > 0 ? p - 1 : -1, FINAL_TAG, 4};
    out[n++] = (struct call){1, -1, -1, 0, 4};
    return n;
}

/* The ring's calls of process p at nprocs into out; their number. */
static int ring(int nprocs, int p, struct call *out)
{
    int n = 0;

    for (int pass = 0; pass < OUTER; pass++) {
        for (int s = 0; s + 1 < nprocs; s++)
            out[n++] = (struct call){0, (p + 1) % nprocs, (p + nprocs - 1) % nprocs,
                                     (uint32_t)s, BLOCK / (uint32_t)nprocs};
        out[n++] = (struct call){1, -1, -1, 0, 8};
    }
    return n;
}

#define MAX_CALLS 160

static int plan(enum shape shape, int nprocs, int p, struct call *out)
{
    return shape == RING ? ring(nprocs, p, out) : odd_even(shape, nprocs, p, out);
}

/* The program recorded at nprocs into DIR/NAME<nprocs>, each call 1 ms after 1 ms of
 * computation. */
static void record(const char *name, enum shape shape, int nprocs, char *dir, size_t len)
{
    const char *exchange = shape == RING ? "MPI_Sendrecv_replace" : "MPI_Sendrecv";
    const char *coll = shape == RING ? "MPI_Allreduce" : "MPI_Reduce";
    struct tb *b;
    uint32_t call, collective;

    snprintf(dir, len, "%s/%s%d", top, name, nprocs);
    cr_assert_not_null(b = tb_open(dir, nprocs), "cannot open a trace in %s", dir);
    call = tb_mpi(b, exchange);
    collective = tb_mpi(b, coll);
    for (int p = 0; p < nprocs; p++) {
        struct call c[MAX_CALLS];
        int n = plan(shape, nprocs, p, c);
        uint64_t t = MS(1);

        for (int i = 0; i < n; i++, t += MS(2)) {
            if (c[i].coll) {
                tb_enter(b, p, t, collective);
                tb_collective_begin(b, p, t);
                tb_collective_end(b, p, t + MS(1), shape == RING ? OTF2_COLLECTIVE_OP_ALLREDUCE
                                                                 : OTF2_COLLECTIVE_OP_REDUCE,
                                  TB_WORLD, shape == RING ? TB_NO_ROOT : 0, c[i].bytes,
                                  shape == RING || p == 0 ? c[i].bytes : 0);
                tb_leave(b, p, t + MS(1), collective);
                continue;
            }
            tb_enter(b, p, t, call);
            if (c[i].to >= 0)
                tb_mpi_send(b, p, t, TB_WORLD, (uint32_t)c[i].to, c[i].tag, c[i].bytes);
            if (c[i].from >= 0)
                tb_mpi_recv(b, p, t + MS(1), TB_WORLD, (uint32_t)c[i].from, c[i].tag,
                            c[i].bytes);
            tb_leave(b, p, t + MS(1), call);
        }
    }
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
}

static char why[4096];

static void model_of(const char *name, enum shape shape, const int *counts,
                     struct st_model *md)
{
    char dirs[3][4200];

    for (int i = 0; i < 3; i++)
        record(name, shape, counts[i], dirs[i], sizeof(dirs[i]));
    sm_model_read(md, (const char *const[]){dirs[0], dirs[1], dirs[2]}, why, sizeof(why));
}

static struct sm_run got;

/* The run synthesized at nprocs is the program's: at every process, each exchange's
 * send then receive (those that exist) in order, and its collectives. */
static void expect_run(const struct pz_scale_program *m, enum shape shape, int nprocs)
{
    sm_synthesize(m, nprocs, &got, why, sizeof(why));
    for (int p = 0; p < nprocs; p++) {
        struct call c[MAX_CALLS];
        int n = plan(shape, nprocs, p, c), j = 0, colls = 0;

        for (int i = 0; i < n; i++) {
            colls += c[i].coll;
            if (!c[i].coll && c[i].to >= 0)
                sm_expect_message(&got, nprocs, p, j++,
                                  &(struct sm_message){PZ_REC_SEND, c[i].to, c[i].tag,
                                                       c[i].bytes});
            if (!c[i].coll && c[i].from >= 0)
                sm_expect_message(&got, nprocs, p, j++,
                                  &(struct sm_message){PZ_REC_RECV, c[i].from, c[i].tag,
                                                       c[i].bytes});
        }
        cr_assert_eq(got.n[p], j, "at %d, process %d: %d messages, expected %d", nprocs, p,
                     got.n[p], j);
        cr_expect_eq(got.collectives[p], colls, "at %d, process %d: %d collectives", nprocs,
                     p, got.collectives[p]);
    }
}

/* The odd-even sort recorded at 2, 4 and 8: at 4, process 0 exchanges with 1 in phases
 * 0 and 2 (tags 0, 2), process 1 with 0, 2, 0, 2 (tags 0 to 3), process 3 with 2 in
 * phases 0 and 2; at 2 process 0 with 1 once, tag 0.  At 16, process 5 exchanges with 4
 * (tag 0), 6 (tag 1), 4 (tag 2) ... 6 (tag 15), then sends 4 bytes to 6 tagged 99 and
 * receives them from 4; process 15 exchanges with 14 in the even phases (tags 0, 2 ..
 * 14) and only receives from 14 at the end; process 0 with 1 in the even phases and
 * only sends at the end.  At 64 likewise with 64 phases (4096 bytes each way). */
Test(scale_tagsteps, an_odd_even_transposition_from_2_4_8_is_synthesized_at_16_and_64)
{
    static const int counts[] = { 2, 4, 8 };
    struct st_model md;

    model_of("oe", ODD_EVEN, counts, &md);
    cr_assert_not_null(md.m, "%s", why);
    expect_run(md.m, ODD_EVEN, 16);
    sm_expect_message(&got, 16, 5, 2, &(struct sm_message){PZ_REC_SEND, 6, 1, 16384});
    sm_expect_message(&got, 16, 15, 2, &(struct sm_message){PZ_REC_SEND, 14, 2, 16384});
    sm_expect_message(&got, 16, 15, 16, &(struct sm_message){PZ_REC_RECV, 14, 99, 4});
    expect_run(md.m, ODD_EVEN, 64);
    st_model_free(&md);
}

/* At 5 the program makes 5 phases: process 0 exchanges with 1 in phases 0, 2 and 4,
 * process 4 with 3 in phases 1 and 3; the loop of the recordings, two phases an
 * iteration, runs P / 2 = 2.5 times, which no recording of an even count tells how to
 * cut: refused in one line naming the loop and 2.5. */
Test(scale_tagsteps, an_odd_even_transposition_at_an_odd_count_is_refused)
{
    static const int counts[] = { 2, 4, 8 };
    struct st_model md;

    model_of("oeodd", ODD_EVEN, counts, &md);
    cr_assert_not_null(md.m, "%s", why);
    cr_expect_null(pz_scale_synth_new(md.m, 5, why, sizeof(why)), "synthesized at 5");
    cr_expect(strstr(why, "the loop around MPI_Sendrecv") != NULL &&
                  strstr(why, "2.5 times at 5 processes") != NULL && !strchr(why, '\n'),
              "error '%s'", why);
    st_model_free(&md);
}

/* The ring recorded at 3, 6 and 12 (2, 5 and 11 steps a pass): at 16 every process
 * makes 15 steps a pass, process 0 sending to 1 and receiving from 15 with tags 0 to 14,
 * 768 bytes; at 64, 63 steps, 192 bytes. */
Test(scale_tagsteps, a_ring_tagged_by_step_from_3_6_12_is_synthesized_at_16_and_64)
{
    static const int counts[] = { 3, 6, 12 };
    struct st_model md;

    model_of("ring", RING, counts, &md);
    cr_assert_not_null(md.m, "%s", why);
    expect_run(md.m, RING, 16);
    sm_expect_message(&got, 16, 0, 29, &(struct sm_message){PZ_REC_RECV, 15, 14, 768});
    expect_run(md.m, RING, 64);
    st_model_free(&md);
}

/* Tagged ph * ph (0, 1, 4, 9 ...), no progression: the recordings differ.  At 4, the
 * fourth step of process 0 is its MPI_Reduce, while processes 1 and 2 exchange with each
 * other there, as NPB CG's transpose partners do; the refusal names no transpose. */
Test(scale_tagsteps, an_odd_even_sort_without_a_progression_is_refused_without_a_transpose)
{
    static const int counts[] = { 2, 4, 8 };
    struct st_model md;

    model_of("oesq", ODD_EVEN_SQ, counts, &md);
    cr_expect_null(md.m, "the model was built");
    cr_expect(strstr(why, "recordings differ") != NULL &&
                  strstr(why, "transpose partner") == NULL && !strchr(why, '\n'),
              "error '%s'", why);
    st_model_free(&md);
}
