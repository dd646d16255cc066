/* One-sided communication extrapolated (replay/scale_run.c reads a window as its
 * communicator's class with a slot, a target as an offset in the grid; scale_synth.c
 * makes the windows and their records at P): programs recorded by hand
 * (trace_builder.h) at three counts, synthesized at 16 and 64, and every process's MPI
 * calls and one-sided records compared with what the program makes at that count,
 * written out by plain arithmetic from its definition (expected_*); the comments work
 * out some processes by hand.  And the refusals, in one line. */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scale_program.h"
#include "scale_run.h"
#include "scale_traces.h"
#include "trace.h"
#include "tempdir_fixture.h"
#include "trace_builder.h"

TestSuite(scale_rma, .init = setup, .fini = cleanup);

#define MAXP 64
#define LOG 16384

/* --- what a process does, as a line of tokens: "MPI_Put" for a call's Enter, and per
 * one-sided record "put T B", "rput T B #K" (a request-based put, K its request's place
 * among the process's), "done #K" (its completion), "get T B", "acc T SENT RECEIVED",
 * "lock T", "unlock T", "flush T" (T the target's rank, -1 every process), "create",
 * "fence", "free", each followed by ";" */

struct log {
    char text[MAXP][LOG];
    size_t len[MAXP];
};

static void say(struct log *g, int p, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    g->len[p] += (size_t)vsnprintf(g->text[p] + g->len[p], LOG - g->len[p], fmt, ap);
    va_end(ap);
    cr_assert_lt(g->len[p], LOG, "process %d's log is too long", p);
}

static int rank_or_all(uint32_t target)
{
    return target == PZ_NONE32 ? -1 : (int)target;
}

/* --- the synthesized run into a log, with its windows */

/* Which window process p's records are on at nprocs (the run's numbering: communicator
 * after communicator), and the name of the communicator window w is made on. */
struct windows {
    int (*of)(int p, int nprocs);
    const char *(*comm)(uint32_t w, char *buf, size_t len);
};

struct synth {
    struct log log;
    uint64_t ids[MAXP][64];    /* the request ids of each process, in the order posted */
    int nids[MAXP], wrong_id;
    const struct pz_scale_run *recording;   /* the regions' names */
    const struct windows *want;
    int name_windows;          /* the log names the window of creations, frees, puts and
                                  flushes ("put 3 64 w1;") */
    int nprocs;
    uint32_t windows;
    int wrong_window, wrong_lock;
};

static int keep_windows(void *ctx, const struct pz_synth_comm *comms, uint32_t n)
{
    struct synth *s = ctx;
    char name[64];

    s->windows = 0;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t k = 0; k < comms[i].windows; k++, s->windows++)
            cr_expect_str_eq(comms[i].name, s->want->comm(s->windows, name, sizeof(name)),
                             "at %d, window %u is on %s, expected %s", s->nprocs, s->windows,
                             comms[i].name, name);
    return 0;
}

/* A creation, free, put or flush with its window. */
static void named(struct log *g, int p, const struct pz_rec *r, int t)
{
    if (r->kind == PZ_REC_RMA_WIN_CREATE || r->kind == PZ_REC_RMA_WIN_DESTROY)
        say(g, p, "%s w%u;", r->kind == PZ_REC_RMA_WIN_CREATE ? "create" : "free", r->comm);
    else if (r->kind == PZ_REC_RMA_PUT)
        say(g, p, "put %d %llu w%u;", t, (unsigned long long)r->bytes, r->comm);
    else
        say(g, p, "flush %d w%u;", t, r->comm);
}

static int put(void *ctx, int p, const struct pz_rec *r)
{
    struct synth *s = ctx;
    struct log *g = &s->log;
    int t = rank_or_all(r->peer);

    if (pz_rec_is_rma(r->kind) && r->kind != PZ_REC_RMA_COLL_BEGIN && s->want->of)
        s->wrong_window += r->comm != (uint32_t)s->want->of(p, s->nprocs);
    if (s->name_windows && (r->kind == PZ_REC_RMA_WIN_CREATE ||
                            r->kind == PZ_REC_RMA_WIN_DESTROY || r->kind == PZ_REC_RMA_PUT ||
                            r->kind == PZ_REC_RMA_SYNC)) {
        named(g, p, r, t);
        return 0;
    }
    switch (r->kind) {
    case PZ_REC_ENTER:
        if (!strncmp(s->recording->names[r->region], "MPI_", 4))
            say(g, p, "%s;", s->recording->names[r->region]);
        break;
    case PZ_REC_RMA_WIN_CREATE: say(g, p, "create;"); break;
    case PZ_REC_RMA_WIN_DESTROY: say(g, p, "free;"); break;
    case PZ_REC_RMA_COLL_END:
        if (r->coll_op == OTF2_COLLECTIVE_OP_BARRIER)
            say(g, p, "fence;");
        break;
    case PZ_REC_RMA_PUT:
        if (r->request) {   /* MPI_Rput: a new id, named by its place among the process's */
            for (int i = 0; i < s->nids[p]; i++)
                s->wrong_id += s->ids[p][i] == r->request;
            cr_assert_lt(s->nids[p], 64, "too many requests");
            s->ids[p][s->nids[p]++] = r->request;
            say(g, p, "rput %d %llu #%d;", t, (unsigned long long)r->bytes, s->nids[p]);
        } else {
            say(g, p, "put %d %llu;", t, (unsigned long long)r->bytes);
        }
        break;
    case PZ_REC_RMA_OP_COMPLETE: {
        int k = 0;

        while (k < s->nids[p] && s->ids[p][k] != r->request)
            k++;
        say(g, p, "done #%d;", k < s->nids[p] ? k + 1 : 0);
        break;
    }
    case PZ_REC_RMA_GET: say(g, p, "get %d %llu;", t, (unsigned long long)r->bytes); break;
    case PZ_REC_RMA_ATOMIC:
        say(g, p, "acc %d %llu %llu;", t, (unsigned long long)r->bytes,
            (unsigned long long)r->bytes2);
        break;
    case PZ_REC_RMA_LOCK:
    case PZ_REC_RMA_RELEASE:
        /* a lock's id: its target's rank, every process's undefined, as recorded */
        s->wrong_lock += r->request != (t < 0 ? UINT64_MAX : (uint64_t)t);
        say(g, p, "%s %d;", r->kind == PZ_REC_RMA_LOCK ? "lock" : "unlock", t);
        break;
    case PZ_REC_RMA_SYNC: say(g, p, "flush %d;", t); break;
    default: break;
    }
    return 0;
}

/* One window, on the world. */
static int window_0(int p, int nprocs)
{
    (void)p, (void)nprocs;
    return 0;
}

static const char *on_world(uint32_t w, char *buf, size_t len)
{
    snprintf(buf, len, "%s", w == 0 ? "MPI_COMM_WORLD" : "no window");
    return buf;
}

static const struct windows world_window = { window_0, on_world };

/* Synthesizes md at nprocs and compares every process with expect(p, nprocs), and the
 * windows with w, count of them. */
typedef void expect_fn(struct log *g, int p, int nprocs);

static void check_windows_at(struct st_model *md, int nprocs, expect_fn *expect,
                             const struct windows *w, uint32_t count)
{
    static struct synth s;
    static struct log want;
    struct pz_scale_sink sink = { keep_windows, put, &s };

    memset(&s, 0, sizeof(s));
    memset(&want, 0, sizeof(want));
    s.recording = &md->runs[2];
    s.want = w;
    s.name_windows = !w->of;
    s.nprocs = nprocs;
    cr_assert_eq(pz_scale_synthesize(md->m, nprocs, &sink, err, sizeof(err)), 0, "%s", err);
    cr_expect_eq(s.windows, count, "at %d: %u windows, expected %u", nprocs, s.windows, count);
    cr_expect_eq(s.wrong_window, 0, "at %d: %d one-sided records not on their window",
                 nprocs, s.wrong_window);
    cr_expect_eq(s.wrong_lock, 0, "at %d: %d locks whose id is not their target", nprocs,
                 s.wrong_lock);
    cr_expect_eq(s.wrong_id, 0, "at %d: %d request ids given twice in a process", nprocs,
                 s.wrong_id);
    for (int p = 0; p < nprocs; p++) {
        expect(&want, p, nprocs);
        cr_expect_str_eq(s.log.text[p], want.text[p], "at %d, process %d:\n  made %s\n  want %s",
                         nprocs, p, s.log.text[p], want.text[p]);
    }
}

/* One window, on the world, every one-sided record on it. */
static void check_at(struct st_model *md, int nprocs, expect_fn *expect)
{
    check_windows_at(md, nprocs, expect, &world_window, 1);
}

/* --- programs: each makes its process p's calls at nprocs into b from t ns on */

#define MS TB_MS

struct clock {
    uint64_t t;
};

static uint64_t tick(struct clock *c)
{
    return c->t += MS(1);
}

/* A call of one one-sided record (kind: 'p' put, 'g' get, 'a' accumulate, 'l' lock, 'u'
 * unlock, 'f' flush) on window 0: a transfer's at its enter, the others' at its leave. */
static void rma_call(struct tb *b, int p, struct clock *c, const char *name, char kind,
                     uint32_t target, uint64_t bytes, uint64_t received)
{
    uint32_t r = tb_mpi(b, name);
    uint64_t enter = tick(c), leave = tick(c);

    tb_enter(b, p, enter, r);
    if (kind == 'p')
        tb_rma_put(b, p, enter, target, bytes);
    else if (kind == 'g')
        tb_rma_get(b, p, enter, target, bytes);
    else if (kind == 'a')
        tb_rma_atomic(b, p, enter, target, bytes, received);
    else if (kind == 'l')
        tb_rma_lock_type(b, p, leave, target, OTF2_LOCK_SHARED);
    else if (kind == 'u')
        tb_rma_unlock(b, p, leave, target);
    else
        tb_rma_flush(b, p, leave, target);
    tb_leave(b, p, leave, r);
}

typedef void program_fn(struct tb *b, int p, int nprocs, struct clock *c);

/* Where the program makes its window: on the world, or on each row of MPI_Dims_create's
 * 2-D grid (dims2 below), every row a communicator of MPI_Comm_split. */
enum made_on { ON_WORLD, ON_ROWS };

static void dims2(int nprocs, int *dims);

/* The windows of the rows at nprocs, each on its row's communicator, into win[row]. */
static void row_windows(struct tb *b, int nprocs, uint32_t *win)
{
    int dims[2], members[64];

    dims2(nprocs, dims);
    for (int r = 0; r < dims[0]; r++) {
        char name[64];

        for (int c = 0; c < dims[1]; c++)
            members[c] = r * dims[1] + c;
        snprintf(name, sizeof(name), "Comm %d (MPI_Comm_split)", r + 2);
        win[r] = tb_rma_window_on(b, tb_comm(b, name, dims[1], members));
    }
}

/* Records program at nprocs: MPI_Win_create, the program, MPI_Win_free. */
static void record(const char *dir, int nprocs, program_fn *program, enum made_on on)
{
    uint32_t win[64];
    int dims[2];
    struct tb *b;

    cr_assert_not_null(b = tb_open(dir, nprocs), "cannot open a trace in %s", dir);
    if (on == ON_ROWS)
        row_windows(b, nprocs, win);
    else
        tb_rma_window(b);
    for (int p = 0; p < nprocs; p++) {
        struct clock c = { MS(1) };
        uint64_t at;

        if (on == ON_ROWS) {
            dims2(nprocs, dims);
            tb_rma_use(b, win[p / dims[1]]);
        }
        at = tick(&c);
        tb_win_create_call(b, p, at, tick(&c));
        program(b, p, nprocs, &c);
        at = tick(&c);
        tb_win_free_call(b, p, at, tick(&c));
    }
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
}

static void model_on(struct st_model *md, const int counts[3], int ndims, program_fn *program,
                     enum made_on on)
{
    char dirs[3][4200];
    const char *const list[3] = { dirs[0], dirs[1], dirs[2] };

    for (int i = 0; i < 3; i++) {
        snprintf(dirs[i], sizeof(dirs[i]), "%s/rec%d", top, counts[i]);
        record(dirs[i], counts[i], program, on);
    }
    st_model_read(md, list, ndims, 0, err, sizeof(err));
    cr_assert_not_null(md->m, "%s", err);
}

static void model_of(struct st_model *md, const int counts[3], int ndims, program_fn *program)
{
    model_on(md, counts, ndims, program, ON_WORLD);
}

/* The program recorded at counts, read in ndims dimensions (0: as inferred), synthesized
 * at 16 and 64 processes: every process's calls are expected's (check_at). */
static void expect_at_16_and_64(const int counts[3], int ndims, program_fn *program,
                                expect_fn *expected)
{
    struct st_model md;

    model_of(&md, counts, ndims, program);
    check_at(&md, 16, expected);
    check_at(&md, 64, expected);
    st_model_free(&md);
}

/* --- a 1-D halo exchange by MPI_Put between fences, not periodic: ITER1 times, a fence,
 * 512 bytes to the left neighbour, 512 to the right one (those that exist), a fence */

#define ITER1 3

static void halo1d(struct tb *b, int p, int nprocs, struct clock *c)
{
    for (int it = 0; it < ITER1; it++) {
        uint64_t at = tick(c);

        tb_fence_call(b, p, at, tick(c));
        if (p > 0)
            rma_call(b, p, c, "MPI_Put", 'p', (uint32_t)(p - 1), 512, 0);
        if (p < nprocs - 1)
            rma_call(b, p, c, "MPI_Put", 'p', (uint32_t)(p + 1), 512, 0);
        at = tick(c);
        tb_fence_call(b, p, at, tick(c));
    }
}

/* What halo1d makes at nprocs.  At 16: process 0 "MPI_Win_create; create; fence" then 3
 * times "MPI_Win_fence; fence; MPI_Put; put 1 512; MPI_Win_fence; fence;", then
 * "MPI_Win_free; free; fence": 1 put to 1 per iteration, 3 in all; process 15 3 puts to
 * 14; process 7 3 to 6 and 3 to 8, left first.  At 64 the same with 63 the last. */
static void expected_halo1d(struct log *g, int p, int nprocs)
{
    say(g, p, "MPI_Win_create;create;");
    for (int it = 0; it < ITER1; it++) {
        say(g, p, "MPI_Win_fence;fence;");
        if (p > 0)
            say(g, p, "MPI_Put;put %d 512;", p - 1);
        if (p < nprocs - 1)
            say(g, p, "MPI_Put;put %d 512;", p + 1);
        say(g, p, "MPI_Win_fence;fence;");
    }
    say(g, p, "MPI_Win_free;free;");
}

/* Recorded at 2, 4, 8: a chain of processes, the grid inferred 1-D and not periodic (no
 * put crosses the ends). */
Test(scale_rma, a_1d_halo_of_puts_between_fences)
{
    static const int counts[3] = { 2, 4, 8 };
    struct st_model md;

    model_of(&md, counts, 0, halo1d);
    cr_expect_eq(md.runs[2].grid.ndims, 1, "the grid has %d dimensions, expected 1",
                 md.runs[2].grid.ndims);
    cr_expect_eq(md.runs[2].grid.periodic[0], 0, "the grid is periodic");
    check_at(&md, 16, expected_halo1d);
    check_at(&md, 64, expected_halo1d);
    st_model_free(&md);
}

/* --- a 2-D halo by MPI_Get under a shared lock of each neighbour, in MPI_Dims_create's
 * grid (row-major, rank = row * dims[1] + column), not periodic: ITER2 times, for the
 * north (row - 1), south (row + 1), west (column - 1) and east (column + 1) neighbours
 * that exist, MPI_Win_lock, MPI_Get of 32768 / P bytes (a block's edge shrinking with
 * the processes), MPI_Win_unlock */

#define ITER2 2

static void dims2(int nprocs, int *dims)
{
    /* MPI_Dims_create(nprocs, 2) for the counts used: 4 2x2, 8 4x2, 16 4x4, 64 8x8 */
    dims[0] = nprocs == 4 ? 2 : nprocs == 8 ? 4 : nprocs == 16 ? 4 : 8;
    dims[1] = nprocs / dims[0];
}

/* The neighbours of p in order north, south, west, east, -1 where there is none. */
static void neighbours2(int p, int nprocs, int *nb)
{
    int dims[2], row, col;

    dims2(nprocs, dims);
    row = p / dims[1];
    col = p % dims[1];
    nb[0] = row > 0 ? p - dims[1] : -1;
    nb[1] = row < dims[0] - 1 ? p + dims[1] : -1;
    nb[2] = col > 0 ? p - 1 : -1;
    nb[3] = col < dims[1] - 1 ? p + 1 : -1;
}

static void halo2d(struct tb *b, int p, int nprocs, struct clock *c)
{
    int nb[4];

    neighbours2(p, nprocs, nb);
    for (int it = 0; it < ITER2; it++)
        for (int k = 0; k < 4; k++) {
            if (nb[k] < 0)
                continue;
            rma_call(b, p, c, "MPI_Win_lock", 'l', (uint32_t)nb[k], 0, 0);
            rma_call(b, p, c, "MPI_Get", 'g', (uint32_t)nb[k], 32768 / (uint64_t)nprocs, 0);
            rma_call(b, p, c, "MPI_Win_unlock", 'u', (uint32_t)nb[k], 0, 0);
        }
}

/* At 16 (4 x 4) a get moves 32768 / 16 = 2048 bytes: process 0 (a corner) locks, gets
 * from and unlocks 4 (south) then 1 (east), twice; process 5 (row 1, column 1) 1, 9, 4,
 * 6; process 15 11 then 14.  At 64 (8 x 8) 512 bytes: process 9 (row 1, column 1) 1,
 * 17, 8, 10; process 63 55 then 62. */
static void expected_halo2d(struct log *g, int p, int nprocs)
{
    int nb[4];

    neighbours2(p, nprocs, nb);
    say(g, p, "MPI_Win_create;create;");
    for (int it = 0; it < ITER2; it++)
        for (int k = 0; k < 4; k++)
            if (nb[k] >= 0)
                say(g, p, "MPI_Win_lock;lock %d;MPI_Get;get %d %d;MPI_Win_unlock;unlock %d;",
                    nb[k], nb[k], 32768 / nprocs, nb[k]);
    say(g, p, "MPI_Win_free;free;");
}

/* Recorded at 4, 8, 16 (2 x 2, 4 x 2, 4 x 4), read in 2 dimensions. */
Test(scale_rma, a_2d_halo_of_gets_under_locks_of_the_neighbours)
{
    static const int counts[3] = { 4, 8, 16 };

    expect_at_16_and_64(counts, 2, halo2d, expected_halo2d);
}

/* --- passive target synchronization of every process at once, on a periodic ring:
 * MPI_Win_lock_all, ITER3 times MPI_Put of 256 bytes to the right neighbour ((p + 1) mod
 * P), MPI_Win_flush of it, MPI_Get_accumulate of 8 P bytes each way with the left one
 * ((p - 1) mod P: a counter per process), MPI_Win_flush_all, then MPI_Win_unlock_all */

#define ITER3 2

static void ring_all(struct tb *b, int p, int nprocs, struct clock *c)
{
    uint32_t right = (uint32_t)((p + 1) % nprocs), left = (uint32_t)((p + nprocs - 1) % nprocs);
    uint64_t counters = 8 * (uint64_t)nprocs;

    rma_call(b, p, c, "MPI_Win_lock_all", 'l', TB_NO_ROOT, 0, 0);
    for (int it = 0; it < ITER3; it++) {
        rma_call(b, p, c, "MPI_Put", 'p', right, 256, 0);
        rma_call(b, p, c, "MPI_Win_flush", 'f', right, 0, 0);
        rma_call(b, p, c, "MPI_Get_accumulate", 'a', left, counters, counters);
        rma_call(b, p, c, "MPI_Win_flush_all", 'f', TB_NO_ROOT, 0, 0);
    }
    rma_call(b, p, c, "MPI_Win_unlock_all", 'u', TB_NO_ROOT, 0, 0);
}

/* At 16: process 0 "lock -1" (every process), then twice "put 1 256; flush 1; acc 15
 * 128 128; flush -1", then "unlock -1"; process 15 puts to 0 and accumulates with 14.
 * At 64: 8 * 64 = 512 bytes each way; process 63 puts to 0, process 0 accumulates with
 * 63. */
static void expected_ring_all(struct log *g, int p, int nprocs)
{
    int right = (p + 1) % nprocs, left = (p + nprocs - 1) % nprocs;

    say(g, p, "MPI_Win_create;create;MPI_Win_lock_all;lock -1;");
    for (int it = 0; it < ITER3; it++)
        say(g, p, "MPI_Put;put %d 256;MPI_Win_flush;flush %d;MPI_Get_accumulate;acc %d %d %d;"
            "MPI_Win_flush_all;flush -1;", right, right, left, 8 * nprocs, 8 * nprocs);
    say(g, p, "MPI_Win_unlock_all;unlock -1;MPI_Win_free;free;");
}

/* Recorded at 2, 4, 8: the grid inferred 1-D and periodic (the puts of the last process
 * cross to the first). */
Test(scale_rma, lock_all_and_flushes_on_a_periodic_ring)
{
    static const int counts[3] = { 2, 4, 8 };
    struct st_model md;

    model_of(&md, counts, 0, ring_all);
    cr_expect_eq(md.runs[2].grid.ndims, 1, "the grid has %d dimensions, expected 1",
                 md.runs[2].grid.ndims);
    cr_expect(md.runs[2].grid.periodic[0], "the grid is not periodic");
    check_at(&md, 16, expected_ring_all);
    check_at(&md, 64, expected_ring_all);
    st_model_free(&md);
}

/* --- a window on each row of the 2-D grid: ITER1 times a fence, MPI_Put of 256 bytes to
 * the west and east neighbours in the row (ranks of the row: column - 1, column + 1),
 * a fence, all on the row's window */

static void row_halo(struct tb *b, int p, int nprocs, struct clock *c)
{
    int dims[2], col;

    dims2(nprocs, dims);
    col = p % dims[1];
    for (int it = 0; it < ITER1; it++) {
        uint64_t at = tick(c);

        tb_fence_call(b, p, at, tick(c));
        if (col > 0)
            rma_call(b, p, c, "MPI_Put", 'p', (uint32_t)(col - 1), 256, 0);
        if (col < dims[1] - 1)
            rma_call(b, p, c, "MPI_Put", 'p', (uint32_t)(col + 1), 256, 0);
        at = tick(c);
        tb_fence_call(b, p, at, tick(c));
    }
}

/* Process p's calls: its targets are ranks of its row.  At 16 (4 x 4) process 5 (row 1,
 * column 1) puts to 0 and 2 of row 1, process 4 (row 1, column 0) to 1, process 7 to 2;
 * at 64 (8 x 8) process 9 to 0 and 2 of row 1. */
static void expected_row_halo(struct log *g, int p, int nprocs)
{
    int dims[2], col;

    dims2(nprocs, dims);
    col = p % dims[1];
    say(g, p, "MPI_Win_create;create;");
    for (int it = 0; it < ITER1; it++) {
        say(g, p, "MPI_Win_fence;fence;");
        if (col > 0)
            say(g, p, "MPI_Put;put %d 256;", col - 1);
        if (col < dims[1] - 1)
            say(g, p, "MPI_Put;put %d 256;", col + 1);
        say(g, p, "MPI_Win_fence;fence;");
    }
    say(g, p, "MPI_Win_free;free;");
}

/* The synthesized run's communicators are the world, the process alone, then the rows
 * in order (scale_synth.c): the windows, numbered communicator after communicator, are
 * one per row, window r on row r, and process p's on its row, p / dims[1]. */
static int window_of_row(int p, int nprocs)
{
    int dims[2];

    dims2(nprocs, dims);
    return p / dims[1];
}

static const char *on_row(uint32_t w, char *buf, size_t len)
{
    snprintf(buf, len, "row %u", (unsigned)w);
    return buf;
}

static const struct windows row_window = { window_of_row, on_row };

/* Recorded at 4, 8, 16 (2 x 2, 4 x 2, 4 x 4: rows of 2, 2 and 4), read in 2 dimensions:
 * at 16 (4 x 4) 4 windows, at 64 (8 x 8) 8. */
Test(scale_rma, a_window_on_each_row_of_the_grid)
{
    static const int counts[3] = { 4, 8, 16 };
    struct st_model md;

    model_on(&md, counts, 2, row_halo, ON_ROWS);
    check_windows_at(&md, 16, expected_row_halo, &row_window, 4);
    check_windows_at(&md, 64, expected_row_halo, &row_window, 8);
    st_model_free(&md);
}

/* --- every process accumulating into rank 0's window under MPI_Win_lock_all: ITER3
 * times MPI_Accumulate of 64 bytes to rank 0 and MPI_Win_flush of it (rank 0 too, into
 * its own window) */

static void to_first(struct tb *b, int p, int nprocs, struct clock *c)
{
    (void)nprocs;
    rma_call(b, p, c, "MPI_Win_lock_all", 'l', TB_NO_ROOT, 0, 0);
    for (int it = 0; it < ITER3; it++) {
        rma_call(b, p, c, "MPI_Accumulate", 'a', 0, 64, 0);
        rma_call(b, p, c, "MPI_Win_flush", 'f', 0, 0, 0);
    }
    rma_call(b, p, c, "MPI_Win_unlock_all", 'u', TB_NO_ROOT, 0, 0);
}

/* Every process, whatever its place, targets rank 0: at 16 process 15 accumulates into
 * rank 0 (not 15 back along a dimension of 4 x 4 where the recording at 4 showed 3 back),
 * twice, and flushes it. */
static void expected_to_first(struct log *g, int p, int nprocs)
{
    (void)nprocs;
    say(g, p, "MPI_Win_create;create;MPI_Win_lock_all;lock -1;");
    for (int it = 0; it < ITER3; it++)
        say(g, p, "MPI_Accumulate;acc 0 64 0;MPI_Win_flush;flush 0;");
    say(g, p, "MPI_Win_unlock_all;unlock -1;MPI_Win_free;free;");
}

/* Recorded at 2, 4, 8: the k-th target of every process is rank 0 in each recording, a
 * rank of the window's communicator rather than an offset. */
Test(scale_rma, a_target_the_same_for_every_process_is_a_rank)
{
    static const int counts[3] = { 2, 4, 8 };

    expect_at_16_and_64(counts, 0, to_first, expected_to_first);
}

/* --- request-based puts in a 1-D halo, not periodic, under MPI_Win_lock_all: ITER1
 * times MPI_Rput of 128 bytes to the left neighbour and to the right one (those that
 * exist), MPI_Waitall completing them, then MPI_Win_flush_all; MPI_Win_unlock_all */

static void rput_halo(struct tb *b, int p, int nprocs, struct clock *c)
{
    uint32_t waitall = tb_mpi(b, "MPI_Waitall"), rput = tb_mpi(b, "MPI_Rput");
    uint64_t id = 100 + (uint64_t)p * 1000;   /* the recorder's ids: any, unique in the process */

    rma_call(b, p, c, "MPI_Win_lock_all", 'l', TB_NO_ROOT, 0, 0);
    for (int it = 0; it < ITER1; it++) {
        uint64_t first = id, at;

        for (int side = -1; side <= 1; side += 2) {
            if (p + side < 0 || p + side >= nprocs)
                continue;
            at = tick(c);
            tb_enter(b, p, at, rput);
            tb_rma_put_request(b, p, at, (uint32_t)(p + side), 128, id++);
            tb_leave(b, p, tick(c), rput);
        }
        at = tick(c);
        tb_enter(b, p, at, waitall);
        at = tick(c);
        for (uint64_t k = first; k < id; k++)
            tb_rma_op_complete(b, p, at, k);
        tb_leave(b, p, at, waitall);
        rma_call(b, p, c, "MPI_Win_flush_all", 'f', TB_NO_ROOT, 0, 0);
    }
    rma_call(b, p, c, "MPI_Win_unlock_all", 'u', TB_NO_ROOT, 0, 0);
}

/* At 16: process 0 puts to 1 with request #1, completes #1 in MPI_Waitall, then #2 in
 * the next iteration ...; process 7 puts to 6 (#1) and 8 (#2) and completes #1 and #2,
 * then #3 and #4 ...: each put's id new in its process, each completion that of a put
 * the process made and has not completed. */
static void expected_rput_halo(struct log *g, int p, int nprocs)
{
    int id = 0;

    say(g, p, "MPI_Win_create;create;MPI_Win_lock_all;lock -1;");
    for (int it = 0; it < ITER1; it++) {
        int first = id + 1;

        if (p > 0)
            say(g, p, "MPI_Rput;rput %d 128 #%d;", p - 1, ++id);
        if (p < nprocs - 1)
            say(g, p, "MPI_Rput;rput %d 128 #%d;", p + 1, ++id);
        say(g, p, "MPI_Waitall;");
        for (int k = first; k <= id; k++)
            say(g, p, "done #%d;", k);
        say(g, p, "MPI_Win_flush_all;flush -1;");
    }
    say(g, p, "MPI_Win_unlock_all;unlock -1;MPI_Win_free;free;");
}

/* Recorded at 2, 4, 8. */
Test(scale_rma, request_based_puts_completed_by_a_waitall)
{
    static const int counts[3] = { 2, 4, 8 };

    expect_at_16_and_64(counts, 0, rput_halo, expected_rput_halo);
}

/* --- refusals */

/* A put to the process two further along a chain of 4 read in 1 dimension (no
 * neighbour, and not the same for every process; in 2 x 2 it would be one): refused in
 * one line naming the process, the call and the target. */
Test(scale_rma, a_target_neither_a_neighbour_nor_common_is_refused_in_one_line)
{
    char dir[4200];
    struct pz_scale_run run;
    struct tb *b;

    snprintf(dir, sizeof(dir), "%s/far", top);
    cr_assert_not_null(b = tb_open(dir, 4));
    tb_rma_window(b);
    for (int p = 0; p < 4; p++) {
        struct clock c = { MS(1) };

        tb_win_create_call(b, p, MS(1), MS(2));
        c.t = MS(3);
        if (p < 2)
            rma_call(b, p, &c, "MPI_Put", 'p', (uint32_t)(p + 2), 64, 0);
    }
    cr_assert_eq(tb_close(b), 0);
    cr_assert_eq(pz_scale_run_read_grid(dir, 1, &run, err, sizeof(err)), -1,
                 "the run was read");
    cr_expect(strstr(err, "process 0, MPI_Put: its target, process 2, is neither next to "
                     "it in the process grid nor the same process for every process") != NULL,
              "unexpected message: %s", err);
    cr_expect(strchr(err, '\n') == NULL, "more than one line: %s", err);
}

/* Post-start-complete-wait whose groups are {0} at every process (the first process
 * exposes its window to everyone, every process accesses it): refused when read, in one
 * line naming the process and the call. */
Test(scale_rma, post_start_complete_wait_is_refused_in_one_line)
{
    char dir[4200];
    struct pz_scale_run run;
    struct tb *b;
    uint32_t group;
    static const int first[1] = { 0 };

    snprintf(dir, sizeof(dir), "%s/pscw", top);
    cr_assert_not_null(b = tb_open(dir, 4));
    tb_rma_window(b);
    group = tb_group(b, 1, first);
    for (int p = 0; p < 4; p++) {
        tb_win_create_call(b, p, MS(1), MS(2));
        tb_epoch_call(b, p, "MPI_Win_start", MS(3), MS(4), OTF2_RMA_SYNC_LEVEL_PROCESS, group);
        tb_epoch_call(b, p, "MPI_Win_complete", MS(5), MS(6),
                      OTF2_RMA_SYNC_LEVEL_PROCESS | OTF2_RMA_SYNC_LEVEL_MEMORY, group);
    }
    cr_assert_eq(tb_close(b), 0);
    cr_assert_eq(pz_scale_run_read(dir, &run, err, sizeof(err)), -1, "the run was read");
    cr_expect(strstr(err, "process 0, MPI_Win_start: post-start-complete-wait") != NULL,
              "unexpected message: %s", err);
    cr_expect(strstr(err, "grid") != NULL, "the reason is not given: %s", err);
    cr_expect(strchr(err, '\n') == NULL, "more than one line: %s", err);
}

/* Three windows on the world made one after another and kept: put to the next process
 * (none from the last) and flush on each in turn, ITER1 times, then free them in the
 * order made.  Each is a window of its own at any count: at 16, every process creates
 * w0, w1 and w2, puts 64 bytes to p + 1 on w0, w1, w2 and flushes each (every target:
 * -1), 3 times, and frees w0, w1, w2.  (Their slots once advanced like a loop's tags,
 * and every creation, put and free went to w0.) */
static uint32_t three[3];

static void three_windows(struct tb *b, int p, int nprocs, struct clock *c)
{
    for (int i = 0; i < 3; i++) {
        uint64_t at = tick(c);

        tb_rma_use(b, three[i]);
        tb_win_create_call(b, p, at, tick(c));
    }
    for (int it = 0; it < ITER1; it++)
        for (int i = 0; i < 3; i++) {
            tb_rma_use(b, three[i]);
            if (p + 1 < nprocs)
                rma_call(b, p, c, "MPI_Put", 'p', (uint32_t)p + 1, 64, 0);
            rma_call(b, p, c, "MPI_Win_flush_all", 'f', TB_NO_ROOT, 0, 0);
        }
    for (int i = 0; i < 3; i++) {
        uint64_t at = tick(c);

        tb_rma_use(b, three[i]);
        tb_win_free_call(b, p, at, tick(c));
    }
}

static void expected_three_windows(struct log *g, int p, int nprocs)
{
    for (int i = 0; i < 3; i++)
        say(g, p, "MPI_Win_create;create w%d;", i);
    for (int it = 0; it < ITER1; it++)
        for (int i = 0; i < 3; i++) {
            if (p + 1 < nprocs)
                say(g, p, "MPI_Put;put %d 64 w%d;", p + 1, i);
            say(g, p, "MPI_Win_flush_all;flush -1 w%d;", i);
        }
    for (int i = 0; i < 3; i++)
        say(g, p, "MPI_Win_free;free w%d;", i);
}

static const char *three_on_world(uint32_t w, char *buf, size_t len)
{
    snprintf(buf, len, "%s", w < 3 ? "MPI_COMM_WORLD" : "no window");
    return buf;
}

Test(scale_rma, windows_made_one_after_another_stay_apart)
{
    static const int counts[3] = { 2, 4, 8 };
    static const struct windows each_its_own = { NULL, three_on_world };
    struct st_model md;
    char dirs[3][4200];
    const char *const list[3] = { dirs[0], dirs[1], dirs[2] };

    for (int i = 0; i < 3; i++) {
        struct tb *b;

        snprintf(dirs[i], sizeof(dirs[i]), "%s/rec%d", top, counts[i]);
        cr_assert_not_null(b = tb_open(dirs[i], counts[i]));
        for (int w = 0; w < 3; w++)
            three[w] = tb_rma_window_on(b, TB_WORLD);
        for (int p = 0; p < counts[i]; p++) {
            struct clock c = { MS(1) };

            three_windows(b, p, counts[i], &c);
        }
        cr_assert_eq(tb_close(b), 0);
    }
    st_model_read(&md, list, 0, 0, err, sizeof(err));
    cr_assert_not_null(md.m, "refused: %s", err);
    check_windows_at(&md, 16, expected_three_windows, &each_its_own, 3);
    st_model_free(&md);
}
