/* The messages of collectives wait unmatched in their receiver's home agent (its box),
 * by hand.  A switch, one process per node, Hockney 50 us + bytes / 12.5 MB/s (0 B:
 * 50 us; 8 B: 50.64 us), MPICH 4's algorithms. */
#include <criterion/criterion.h>

#include "comsys.h"
#include "switch_machine.h"

#define US(x) ((x) * 1e-6)
#define EPS 1e-12

static struct pz_machine m;
static struct pz_comsys *cs;

static void setup(int nprocs)
{
    switch_machine(&m, 1);
    cs = pz_comsys_new(&m, nprocs);
    cr_assert(cs);
}

/* A communicator of processes 0 to n - 1. */
static int world(int n)
{
    int procs[128];

    for (int i = 0; i < n; i++)
        procs[i] = i;
    return pz_comsys_comm(cs, n, procs);
}

static void done_at(int request, double want, const char *what)
{
    double got = pz_comsys_wait(cs, 1, &request, 0);

    cr_assert_float_eq(got, want, EPS, "%s: done at %.9f, not %.9f", what, got, want);
}

/* Runs the model's events of the time it has reached (not beyond). */
static void step_now(void)
{
    while (pz_comsys_next(cs) <= pz_comsys_now(cs))
        pz_comsys_step(cs);
}

/* A barrier of 2 (dissemination: one round, each member sends 0 B to the other and
 * receives from it).  Member 0 posts at 0: its message arrives at 50 us and waits for
 * member 1, which has posted nothing (so has no agent yet); member 0's receive waits
 * too: 2 pending.  Member 1 posts at 1 ms: it finds the message there and is done at
 * once, 1 ms; its own message arrives at 1.05 ms, when member 0 is done; nothing is left
 * pending. */
Test(comsys_box, a_message_waits_for_a_member_that_has_not_posted)
{
    struct pz_coll c = { .op = PZ_COLL_BARRIER, .size = 2 };
    int comm, a, b;

    setup(2);
    comm = world(2);
    c.me = 0;
    a = pz_comsys_collective(cs, comm, &c, 0);
    cr_assert(a >= 0);
    step_now();
    cr_assert_eq(pz_comsys_pending(cs), 2);
    c.me = 1;
    b = pz_comsys_collective(cs, comm, &c, US(1000));
    cr_assert(b >= 0);
    done_at(b, US(1000), "member 1");
    done_at(a, US(1050), "member 0");
    cr_assert_eq(pz_comsys_pending(cs), 0);
    pz_comsys_free(cs);
}

/* Two barriers of 2 at once (nonblocking): member 0 posts both at 0, the second in an
 * agent of its own since its home one runs the first.  Both its messages leave node 0
 * at 0 on one link: the first arrives at 50 us, the second at 100 us, each waiting in
 * member 1's box with its instance.  Member 1 posts the first at 1 ms (done then; its
 * message reaches member 0 at 1.05 ms, which ends member 0's first) and the second at
 * 2 ms (done then; member 0's second ends at 2.05 ms). */
Test(comsys_box, two_instances_at_once_keep_their_messages_apart)
{
    struct pz_coll c = { .op = PZ_COLL_BARRIER, .size = 2 };
    int comm, a1, a2, b1, b2;

    setup(2);
    comm = world(2);
    c.me = 0;
    a1 = pz_comsys_collective(cs, comm, &c, 0);
    a2 = pz_comsys_collective(cs, comm, &c, 0);
    step_now();
    cr_assert_eq(pz_comsys_pending(cs), 4);
    c.me = 1;
    b1 = pz_comsys_collective(cs, comm, &c, US(1000));
    done_at(b1, US(1000), "member 1, first");
    done_at(a1, US(1050), "member 0, first");
    b2 = pz_comsys_collective(cs, comm, &c, US(2000));
    done_at(b2, US(2000), "member 1, second");
    done_at(a2, US(2050), "member 0, second");
    cr_assert_eq(pz_comsys_pending(cs), 0);
    pz_comsys_free(cs);
}

/* A ring Allgather of 8 B blocks among 100 members, a walked round (no schedule): every
 * round each member sends one block to the next and receives one from the one before,
 * no two messages of a round on one link: 99 rounds of 50.64 us, 5013.36 us for all.
 * The first 64 members post at 0 and run their first round before the others post:
 * member 63's message makes member 64's home agent while member 63's round is walked,
 * and the agents' array grows then (from 64 agents to 128), under the round.  A round
 * that read its instance from the moved agent would read freed memory: the times may
 * not show it, AddressSanitizer or valgrind do (a heap use after free, checked). */
Test(comsys_box, a_walked_round_survives_the_agents_growing_under_it)
{
    struct pz_coll c = { .op = PZ_COLL_ALLGATHER, .size = 100, .bytes = 8 };
    int comm, parts[100];

    setup(100);
    pz_comsys_force(cs, pz_coll_named(PZ_COLL_ALLGATHER, "ring"));
    comm = world(100);
    for (c.me = 0; c.me < 64; c.me++)
        parts[c.me] = pz_comsys_collective(cs, comm, &c, 0);
    step_now();
    for (c.me = 64; c.me < 100; c.me++)
        parts[c.me] = pz_comsys_collective(cs, comm, &c, 0);
    for (int i = 0; i < 100; i++) {
        cr_assert(parts[i] >= 0);
        done_at(parts[i], 99 * US(50.64), "a member");
    }
    cr_assert_eq(pz_comsys_pending(cs), 0);
    pz_comsys_free(cs);
}
