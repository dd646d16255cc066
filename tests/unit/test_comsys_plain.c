/* A collective's messages on a plain machine (no overheads, no per-process protocol
 * states: comsys_coll.c, plain_machine) take only their transfers and their matches,
 * and those on other machines, or too large to go eagerly, fall back to the protocols;
 * the times by hand.  A switch, Hockney 50 us + bytes / 12.5 MB/s (8 B: 50.64 us, 0 B:
 * 50 us), processes of one node through memory at 1 us + bytes / 5 GB/s (8 B:
 * 1.0016 us), eager up to 64 KiB, every member posting at 0. */
#include <criterion/criterion.h>

#include "comsys.h"
#include "switch_machine.h"

#define US(x) ((x) * 1e-6)
#define EPS 1e-12

static struct pz_machine m;
static struct pz_comsys *cs;


/* The model of m for n processes, with op run by algorithm name. */
static void start(int n, enum pz_coll_op op, const char *name)
{
    cs = pz_comsys_new(&m, n);
    cr_assert(cs);
    pz_comsys_force(cs, pz_coll_named(op, name));
}

/* Every member of a communicator of processes 0 to n - 1 posts c at 0; each member's
 * completion time must be want[member]. */
static void run_all(int n, struct pz_coll c, const double *want, const char *what)
{
    int procs[8], parts[8], comm;

    for (int i = 0; i < n; i++)
        procs[i] = i;
    comm = pz_comsys_comm(cs, n, procs);
    for (int i = 0; i < n; i++) {
        c.me = i;
        parts[i] = pz_comsys_collective(cs, comm, &c, 0);
        cr_assert(parts[i] >= 0);
    }
    for (int i = 0; i < n; i++) {
        double got = pz_comsys_wait(cs, 1, &parts[i], 0);

        cr_assert_float_eq(got, want[i], EPS, "%s, member %d: done at %.9f us, not %.9f us",
                           what, i, got * 1e6, want[i] * 1e6);
    }
    cr_assert_eq(pz_comsys_pending(cs), 0, "%s: messages left unmatched", what);
    pz_comsys_free(cs);
}

/* Recursive doubling of 8 B among 4, one process a node: at distance 1 (0-1, 2-3) every
 * message leaves at 0 on links of its own, arriving at 50.64 us, which ends every
 * member's round; at distance 2 (0-2, 1-3) the same from 50.64 us: all done at
 * 101.28 us.  A ring Allgather of 8 B blocks (walked rounds, no schedule): 3 rounds in
 * which each member sends to the next on links of its own, 3 x 50.64 = 151.92 us. */
Test(comsys_plain, every_member_there_on_links_of_its_own)
{
    struct pz_coll c = { .op = PZ_COLL_ALLREDUCE, .size = 4, .bytes = 8 };
    const double rd[4] = { US(101.28), US(101.28), US(101.28), US(101.28) };
    const double ring[4] = { US(151.92), US(151.92), US(151.92), US(151.92) };

    switch_machine(&m, 1);
    start(4, PZ_COLL_ALLREDUCE, "recursive_doubling");
    run_all(4, c, rd, "recursive doubling");
    c.op = PZ_COLL_ALLGATHER;
    start(4, PZ_COLL_ALLGATHER, "ring");
    run_all(4, c, ring, "ring");
}

/* The same recursive doubling with two processes a node (0 and 1 on node 0, 2 and 3 on
 * node 1): the first round goes through memory, every member's done at s = 1.0016 us,
 * the rounds' events at s in the order 0, 1, 2, 3 (each pushed when its round ended:
 * member 0's when member 1's message matched its receive, member 1's at the end of its
 * own posting, then 2 and 3 alike).  At s member 0's message to 2 takes node 0's link
 * out and node 1's in until s + 50.64 us; member 1's to 3 waits for them and arrives at
 * s + 101.28 us; member 2's to 0 takes node 1's out and node 0's in until s + 50.64,
 * member 3's to 1 waits: 0 and 2 are done at 51.6416 us, 1 and 3 at 102.2816 us.  Done
 * in another order the links would give other members the later time: the order of the
 * events is kept. */
Test(comsys_plain, members_of_one_node_share_its_links_in_the_events_order)
{
    struct pz_coll c = { .op = PZ_COLL_ALLREDUCE, .size = 4, .bytes = 8 };
    const double want[4] = { US(51.6416), US(102.2816), US(51.6416), US(102.2816) };

    switch_machine(&m, 2);
    start(4, PZ_COLL_ALLREDUCE, "recursive_doubling");
    run_all(4, c, want, "two a node");
}

/* A send overhead of 10 us makes the machine not plain: each message leaves 10 us after
 * its round begins (its sender's CPU free at once) and arrives 50.64 us later: rounds
 * of 60.64 us, all done at 121.28 us (101.28 if the overhead were skipped). */
Test(comsys_plain, a_send_overhead_falls_back_to_the_protocols)
{
    struct pz_coll c = { .op = PZ_COLL_ALLREDUCE, .size = 4, .bytes = 8 };
    const double want[4] = { US(121.28), US(121.28), US(121.28), US(121.28) };

    switch_machine(&m, 1);
    m.overhead.send = 10e-6;
    start(4, PZ_COLL_ALLREDUCE, "recursive_doubling");
    run_all(4, c, want, "send overhead");
}

/* With eager messages up to 4 B the 8 B ones go by rendezvous on a plain machine: the
 * request to send takes 50 us (0 B), the clear to send back 50 us (control messages,
 * on no link's turn), the data 50.64 us: rounds of 150.64 us, all done at 301.28 us (101.28 if they went eagerly). */
Test(comsys_plain, a_rendezvous_falls_back_to_the_protocols)
{
    struct pz_coll c = { .op = PZ_COLL_ALLREDUCE, .size = 4, .bytes = 8 };
    const double want[4] = { US(301.28), US(301.28), US(301.28), US(301.28) };

    switch_machine(&m, 1);
    m.eager_threshold = 4;
    start(4, PZ_COLL_ALLREDUCE, "recursive_doubling");
    run_all(4, c, want, "rendezvous");
}
