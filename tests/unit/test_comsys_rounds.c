/* Rounds of collectives grouped in the model's events' queue (comsys_rounds.c) come in
 * the order the events would have come one by one: an event of their time pushed
 * between two of them goes between them, and what a round makes due at once goes
 * before the group's next round.  By hand: a switch, one process a node, Hockney 50 us
 * + bytes / 12.5 MB/s (0 B: 50 us, 8 B: 50.64 us), T = 1 ms; a Barrier is
 * dissemination (round k: an empty message to me + 2^k, one from me - 2^k). */
#include <criterion/criterion.h>

#include "comsys.h"
#include "comsys_int.h"
#include "switch_machine.h"

#define US(x) ((x) * 1e-6)
#define EPS 1e-12
#define T US(1000)

static struct pz_machine m;
static struct pz_comsys *cs;

static void setup(int nprocs)
{
    switch_machine(&m, 1);
    cs = pz_comsys_new(&m, nprocs);
    cr_assert(cs);
}

/* Member me of a Barrier on comm of size members, posted at `at`. */
static int barrier(int comm, int size, int me, double at)
{
    struct pz_coll c = { .op = PZ_COLL_BARRIER, .size = size, .me = me };
    int r = pz_comsys_collective(cs, comm, &c, at);

    cr_assert(r >= 0);
    return r;
}

static void done_at(int request, double want, const char *what)
{
    double got = pz_comsys_wait(cs, 1, &request, 0);

    cr_assert_float_eq(got, want, EPS, "%s: done at %.9f us, not %.9f us", what, got * 1e6,
                       want * 1e6);
}

/* A Barrier of processes 0 and 1, both posting at T, and a send of 8 B from 2 to 0
 * posted at T between them (a Barrier of 3 and 4 at T/2 keeps the model's next event
 * before T, so the send waits as an event of T, pushed after member 0's round and
 * before member 1's).  At T, in that order: member 0's message to 1 on node 0's link
 * out and node 1's in until T + 50 us; the send into node 0 until T + 50.64 (received
 * then); member 1's message to 0 waits for node 0's link in: T + 100.64, member 0's
 * end.  Member 1 finds member 0's message from T + 50.  Were the two rounds one group
 * with the send behind them, member 1's message would take node 0's link first
 * (member 0 done at T + 50) and the send arrive at T + 100.64. */
Test(comsys_rounds, an_event_of_their_time_between_two_rounds_stays_between)
{
    int a = 0, b = 0, recv, send, r0, r1, r3, r4;
    int ab[2] = { 0, 1 }, cd[2] = { 3, 4 };

    setup(5);
    a = pz_comsys_comm(cs, 2, ab);
    b = pz_comsys_comm(cs, 2, cd);
    recv = pz_comsys_recv(cs, 0, 2, 0, 0, 0);
    r3 = barrier(b, 2, 0, T / 2);
    r4 = barrier(b, 2, 1, T / 2);
    r0 = barrier(a, 2, 0, T);
    send = pz_comsys_send(cs, 2, 0, 0, 0, 8, PZ_SEND_STANDARD, T);
    r1 = barrier(a, 2, 1, T);
    cr_assert(recv >= 0 && send >= 0);
    done_at(r3, T / 2 + US(50), "process 3");
    done_at(r4, T / 2 + US(50), "process 4");
    done_at(recv, T + US(50.64), "the send into node 0");
    done_at(r0, T + US(100.64), "member 0");
    done_at(r1, T + US(50), "member 1");
    cr_assert_eq(pz_comsys_pending(cs), 0);
    pz_comsys_free(cs);
}

/* A Barrier A of processes 0 to 3 and a Barrier B of processes 4 and 2.  At 0: A's
 * members 1, 2, 3 and B's process 2 post (in that order); A's member 0 and B's
 * process 4 post at T, their first rounds one after the other in the queue.
 * Before T: A1 -> 2 [0, 50]; A2 -> 3 [0, 50] (A2 has A1's: its round at 50); A3 -> 0
 * [0, 50] (A3 has A2's: at 50); B2 -> 4 waits for node 2's link out: [50, 100].  At 50:
 * A2 -> 0 waits for it too: [100, 150]; A3 -> 1 [50, 100]; both wait for their
 * partners (A0, A1).
 * At T: A0 -> 1 [T, T + 50]; A0 has A3's message: its round 1 is due at once and comes
 * before B4's: A0 -> 2 waits for node 0's link out, [T + 50, T + 100]; it has A2's:
 * done at T.  Then B4 -> 2 waits for node 2's link in: [T + 100, T + 150], B2's end;
 * B4 has B2's: done at T.  A1 at T + 50: A1 -> 3 [T + 50, T + 100], A3's end; A1 has
 * A3's: done at T + 50.  A2 ends with A0's at T + 100.  Were B4's round taken before
 * A0's round 1, B4 -> 2 would be [T, T + 50] and B2 done at T + 50. */
Test(comsys_rounds, what_a_round_makes_due_comes_before_the_groups_next)
{
    int procs_a[4] = { 0, 1, 2, 3 }, procs_b[2] = { 4, 2 }, a, b, ra[4], rb[2];

    setup(5);
    a = pz_comsys_comm(cs, 4, procs_a);
    b = pz_comsys_comm(cs, 2, procs_b);
    ra[1] = barrier(a, 4, 1, 0);
    ra[2] = barrier(a, 4, 2, 0);
    ra[3] = barrier(a, 4, 3, 0);
    rb[1] = barrier(b, 2, 1, 0);
    ra[0] = barrier(a, 4, 0, T);
    rb[0] = barrier(b, 2, 0, T);
    done_at(ra[0], T, "A0");
    done_at(rb[0], T, "B4");
    done_at(ra[1], T + US(50), "A1");
    done_at(ra[2], T + US(100), "A2");
    done_at(ra[3], T + US(100), "A3");
    done_at(rb[1], T + US(150), "B2");
    cr_assert_eq(pz_comsys_pending(cs), 0);
    pz_comsys_free(cs);
}

/* A group's room for agents is given back when the group is freed, beyond the first 8
 * (comsys_rounds.c, FIRST_ROOM): the free list hands groups out again in any order, so
 * each would otherwise keep the largest room it ever had.  A Barrier of 64 members, each
 * posting at T while the model is at 0: their first rounds are pushed at T one after the
 * other, one group of 64 agents (room 64: 8 doubled three times).  Once every member is
 * done (the group's rounds all taken, the later rounds' groups too), no group holds room
 * for more than 8. */
Test(comsys_rounds, a_freed_group_keeps_only_its_first_room)
{
    int procs[64], members[64], comm;

    setup(64);
    for (int i = 0; i < 64; i++)
        procs[i] = i;
    comm = pz_comsys_comm(cs, 64, procs);
    for (int i = 0; i < 64; i++)
        members[i] = barrier(comm, 64, i, T);
    cr_assert_eq(cs->groups.n, 1, "the first rounds are one group");
    cr_assert_eq(cs->groups.all[0].n, 64);
    cr_assert_geq(cs->groups.all[0].cap, 64);
    pz_comsys_wait(cs, 64, members, 0);
    cr_assert_eq(pz_comsys_pending(cs), 0);
    for (int g = 0; g < cs->groups.n; g++)
        cr_assert_leq(cs->groups.all[g].cap, 8, "group %d keeps room for %d agents", g,
                      cs->groups.all[g].cap);
    pz_comsys_free(cs);
}
