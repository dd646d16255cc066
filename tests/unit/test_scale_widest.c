/* Folding the widest repeats first (replay/scale_fold.c, struct sp_table.widest) on
 * hand-made sequences of steps: a body's copies are found in every run of its period
 * whose windows are rotations of it, and only where they are that body.  Each step is
 * an MPI_Barrier told apart by its tag (one symbol per letter); a barrier has no
 * message, so that no step is open (sp_open) and every repeat may be a loop. */
#include <criterion/criterion.h>
#include <stdint.h>

#include "scale_program_int.h"

static uint32_t step(struct sp_table *t, uint32_t tag)
{
    struct sp_sym proto = {.kind = SP_STEP, .region = "MPI_Barrier", .n = 1};
    struct sp_event ev = {.tag = tag, .poster_sym = SP_NONE};

    return sp_table_step(t, &proto, &ev);
}

/* Folds the letters of word (one symbol each) into s, widest first: the folded length. */
static size_t fold(struct sp_table *t, const char *word, uint32_t *s)
{
    size_t n = 0;

    t->widest = 1;
    for (; word[n]; n++)
        s[n] = step(t, (uint32_t)word[n]);
    cr_assert_eq(sp_fold(t, s, &n, 0), 0);
    return n;
}

/* Loop symbol sym: `count` iterations of the letters of body. */
static void assert_loop(const struct sp_table *t, uint32_t sym, const char *body,
                        uint32_t count)
{
    const struct sp_sym *y = &t->syms[sym];

    cr_assert_eq(y->kind, SP_LOOP);
    cr_assert_eq(y->count, count);
    cr_assert_eq(y->n, strlen(body));
    for (uint32_t i = 0; i < y->n; i++) {
        const struct sp_sym *b = &t->syms[t->bodies[y->first + i]];

        cr_assert_eq(b->kind, SP_STEP);
        cr_assert_eq(t->events[b->first].tag, (uint32_t)body[i]);
    }
}

/* a a a a a c b a b a a (positions 0 to 10).  Runs, positions i with s[i] = s[i + p]:
 * period 1: [0, 3] (a five times from 0, 5 steps) and [9, 9] (a twice, 2 steps);
 * period 2: [0, 2] ((a a)2 from 0, 4 steps) and [6, 7] ((b a)2 from 6, 4 steps); periods
 * 3 to 5: runs of fewer positions than the period (3: [0, 1], [4, 4], [7, 7]; 4: 0 and
 * 3; 5: 2 and 4), no repeat.  The widest, a five times, is kept with its other copy of
 * two or more, a a at 9 in the other run of a; then (a a)2 and (b a)2 overlap what is
 * kept (the latter at 9), and so does a a at 9: left for the next pass, which finds in
 * A5 c b a b A2 no repeat (b at 2 and 4 is one position of period 2).  Folded: (a)5 c b
 * a b (a)2, 6 symbols; had the copy at 9 not been taken with the widest, (b a)2 would
 * have been kept: (a)5 c (b a)2 a, 4. */
Test(scale_widest, copies_of_a_body_in_its_other_runs)
{
    struct sp_table t = {0};
    uint32_t s[16];

    cr_assert_eq(fold(&t, "aaaaacbabaa", s), 6);
    assert_loop(&t, s[0], "a", 5);
    for (int i = 1; i < 5; i++) {
        cr_assert_eq(t.syms[s[i]].kind, SP_STEP);
        cr_assert_eq(t.events[t.syms[s[i]].first].tag, (uint32_t)"cbab"[i - 1]);
    }
    assert_loop(&t, s[5], "a", 2);
    sp_table_free(&t);
}

/* x y x y z y x y x (positions 0 to 8): s[i] = s[i + 2] at 0, 1, 3, 5 and 6, runs [0, 1]
 * (x y twice from 0), [3, 3] (one position, no repeat) and [5, 6] (y x twice from 5);
 * s[i] = s[i + 4] at 1 to 3, 3 positions, fewer than 4: no repeat; periods 1 and 3:
 * none.  Both repeats cover 4 steps and have period 2: the leftmost, x y, first.  Its
 * rotation y x is in the run [5, 6], where x y begins at 6 only once before the run
 * ends (s[8] = x, then nothing): not a copy; x y is (x y)2 at 0.  Then y x from 5,
 * free: (y x)2, and in the run [0, 1] y x begins at 1, taken.  Folded: (x y)2 z (y x)2,
 * two loops of the same steps in two phases. */
Test(scale_widest, a_rotation_of_a_body_is_another_loop)
{
    struct sp_table t = {0};
    uint32_t s[16];

    cr_assert_eq(fold(&t, "xyxyzyxyx", s), 3);
    assert_loop(&t, s[0], "xy", 2);
    cr_assert_eq(t.syms[s[1]].kind, SP_STEP);
    cr_assert_eq(t.events[t.syms[s[1]].first].tag, (uint32_t)'z');
    assert_loop(&t, s[2], "yx", 2);
    sp_table_free(&t);
}

/* Many bodies kept in one pass, each in one run of its own: steps 1 to 4000, each made
 * twice (1 1 2 2 3 3 ...): every position 2k has s[2k] = s[2k + 1], 4000 runs of period
 * 1 (no other period repeats: no step comes back later), each its own loop of 2.  The
 * second pass finds 4000 different loops, no repeat. */
Test(scale_widest, every_pair_its_own_loop)
{
    enum { PAIRS = 4000 };
    struct sp_table t = {.widest = 1};
    static uint32_t s[2 * PAIRS];
    size_t n = 0;

    for (uint32_t k = 1; k <= PAIRS; k++) {
        s[n++] = step(&t, k);
        s[n++] = step(&t, k);
    }
    cr_assert_eq(sp_fold(&t, s, &n, 0), 0);
    cr_assert_eq(n, PAIRS);
    for (size_t k = 0; k < PAIRS; k++) {
        const struct sp_sym *y = &t.syms[s[k]];

        cr_assert_eq(y->kind, SP_LOOP);
        cr_assert_eq(y->count, 2);
        cr_assert_eq(y->n, 1);
        cr_assert_eq(t.events[t.syms[t.bodies[y->first]].first].tag, k + 1);
    }
    sp_table_free(&t);
}
