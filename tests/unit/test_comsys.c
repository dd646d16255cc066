/* MPI point-to-point protocols over a switch, by hand.  Hockney 50 us + bytes / 12.5
 * MB/s between nodes (1000 B: 50 + 80 = 130 us; 100000 B: 50 + 8000 = 8050 us; no
 * payload: 50 us), eager up to 64 KiB, one process per node unless said otherwise. */
#include <criterion/criterion.h>
#include <math.h>

#include "comsys.h"
#include "switch_machine.h"

#define US(x) ((x) * 1e-6)
#define EPS 1e-12

static struct pz_machine m;
static struct pz_comsys *cs;

static void setup_progress(int procs_per_node, enum pz_progress progress)
{
    switch_machine(&m, procs_per_node);
    m.progress = progress;
    cs = pz_comsys_new(&m, 4);
    cr_assert(cs);
}

static void setup(int procs_per_node)
{
    setup_progress(procs_per_node, PZ_PROGRESS_BACKGROUND);
}

/* Runs the model until request's completion is known. */
static void done_at(int request, double want, const char *what)
{
    double got = pz_comsys_wait(cs, 1, &request, 0);

    cr_assert_float_eq(got, want, EPS, "%s: done at %.9f, not %.9f", what, got, want);
}

/* Processes 0 and 1, the members of comm, both post collective c at `at`: their
 * requests into *a and *b. */
static void post_both(int comm, struct pz_coll c, double at, int *a, int *b)
{
    c.me = 0;
    *a = pz_comsys_collective(cs, comm, &c, at);
    c.me = 1;
    *b = pz_comsys_collective(cs, comm, &c, at);
}

/* Eager: the data arrives at 130 us, the receive posted at 1 ms completes then; the
 * send completed when posted. */
Test(comsys, eager_with_a_late_receiver)
{
    int s, r;

    setup(1);
    s = pz_comsys_send(cs, 0, 1, 7, 0, 1000, PZ_SEND_STANDARD, 0);
    r = pz_comsys_recv(cs, 1, 0, 7, 0, US(1000));
    done_at(s, 0, "send");
    done_at(r, US(1000), "receive");
    pz_comsys_free(cs);
}

/* Eager, receive first: the data leaves at 500 us and arrives at 630 us. */
Test(comsys, eager_with_an_early_receiver)
{
    int s, r;

    setup(1);
    r = pz_comsys_recv(cs, 1, 0, 7, 0, 0);
    cr_assert_lt(pz_comsys_done(cs, r), 0, "unknown until the send is posted");
    s = pz_comsys_send(cs, 0, 1, 7, 0, 1000, PZ_SEND_STANDARD, US(500));
    done_at(r, US(630), "receive");
    done_at(s, US(500), "send");
    pz_comsys_free(cs);
}

/* Rendezvous, receiver late: the request-to-send arrives at 50 us, the clear-to-send
 * leaves when the receive is posted (1000 us) and arrives at 1050 us, the data then
 * takes 8050 us: both complete at 9100 us. */
Test(comsys, rendezvous_waits_for_the_receiver)
{
    int s, r;

    setup(1);
    s = pz_comsys_send(cs, 0, 1, 7, 0, 100000, PZ_SEND_STANDARD, 0);
    r = pz_comsys_recv(cs, 1, 0, 7, 0, US(1000));
    done_at(s, US(9100), "send");
    done_at(r, US(9100), "receive");
    pz_comsys_free(cs);
}

/* An exchange both ways of 100000 B, process 1 late.  Process 0 posts its receive and
 * its send at 0: its request to send arrives at 50 us.  Process 1 posts its receive at
 * 200 us: its clear to send arrives at 250, and process 0's data holds the links
 * 0 -> 1 from 250 to 8300.  Process 1 posts its send at 210: its request to send
 * arrives at 260, and process 0's clear to send, a control message that waits for no
 * transfer, arrives at 310 (not after process 0's data, at 8350); process 1's data
 * then takes the other links, 1 -> 0, from 310 to 8360. */
Test(comsys, a_clear_to_send_does_not_wait_behind_data_on_its_link)
{
    int r0, s0, r1, s1;

    setup(1);
    r0 = pz_comsys_recv(cs, 0, 1, 7, 0, 0);
    s0 = pz_comsys_send(cs, 0, 1, 7, 0, 100000, PZ_SEND_STANDARD, 0);
    r1 = pz_comsys_recv(cs, 1, 0, 7, 0, US(200));
    s1 = pz_comsys_send(cs, 1, 0, 7, 0, 100000, PZ_SEND_STANDARD, US(210));
    done_at(s0, US(8300), "process 0's send");
    done_at(r1, US(8300), "process 1's receive");
    done_at(s1, US(8360), "process 1's send");
    done_at(r0, US(8360), "process 0's receive");
    pz_comsys_free(cs);
}

/* A synchronous send of 8 B goes by rendezvous: 50 (RTS) + 50 (CTS) + 50.64 (data). */
Test(comsys, synchronous_sends_always_rendezvous)
{
    int s;

    setup(1);
    pz_comsys_recv(cs, 1, 0, 7, 0, 0);
    s = pz_comsys_send(cs, 0, 1, 7, 0, 8, PZ_SEND_SYNCHRONOUS, 0);
    done_at(s, US(150.64), "Ssend");
    pz_comsys_free(cs);
}

/* Two processes per node: ranks 0 and 1 share node 0 and exchange through memory:
 * 1 us + 1000 B / 5 GB/s = 1.2 us. */
Test(comsys, one_node_goes_through_memory)
{
    int r;

    setup(2);
    pz_comsys_send(cs, 0, 1, 7, 0, 1000, PZ_SEND_STANDARD, 0);
    r = pz_comsys_recv(cs, 1, 0, 7, 0, 0);
    done_at(r, US(1.2), "receive");
    pz_comsys_free(cs);
}

/* A message a process sends itself: without self_segments as between processes of
 * one node, 1 us + 1000 B / 5 GB/s = 1.2 us; with one segment of 10 us and 1 GB/s for
 * any size, 10 us + 1000 B / 1 GB/s = 11 us. */
Test(comsys, a_message_to_oneself_costs_the_self_segments)
{
    int r;

    setup(1);
    pz_comsys_send(cs, 0, 0, 7, 0, 1000, PZ_SEND_STANDARD, 0);
    r = pz_comsys_recv(cs, 0, 0, 7, 0, 0);
    done_at(r, US(1.2), "receive, the shm_ cost");
    pz_comsys_free(cs);
    setup(1);
    pz_comsys_free(cs);
    m.self_segments = (struct pz_segments){ 1, { { 9007199254740992.0, 10e-6, 1e9 } } };
    cs = pz_comsys_new(&m, 4);
    pz_comsys_send(cs, 0, 0, 7, 0, 1000, PZ_SEND_STANDARD, 0);
    r = pz_comsys_recv(cs, 0, 0, 7, 0, 0);
    done_at(r, US(11), "receive, self_segments");
    pz_comsys_free(cs);
}

/* 100000 B to oneself, above the 64 KiB eager threshold: without self_segments a
 * rendezvous through memory, request-to-send and clear-to-send of 1 us each and the data
 * in 1 us + 100000 B / 5 GB/s = 21 us: 23 us; with the segment of 10 us and 1 GB/s the
 * segment's cost alone, eagerly: 10 us + 100 us = 110 us. */
Test(comsys, a_large_message_to_oneself_goes_eagerly_by_the_self_segments)
{
    int r;

    setup(1);
    pz_comsys_send(cs, 0, 0, 7, 0, 100000, PZ_SEND_STANDARD, 0);
    r = pz_comsys_recv(cs, 0, 0, 7, 0, 0);
    done_at(r, US(23), "receive, a rendezvous");
    pz_comsys_free(cs);
    setup(1);
    pz_comsys_free(cs);
    m.self_segments = (struct pz_segments){ 1, { { 9007199254740992.0, 10e-6, 1e9 } } };
    cs = pz_comsys_new(&m, 4);
    pz_comsys_send(cs, 0, 0, 7, 0, 100000, PZ_SEND_STANDARD, 0);
    r = pz_comsys_recv(cs, 0, 0, 7, 0, 0);
    done_at(r, US(110), "receive, eagerly");
    pz_comsys_free(cs);
}

/* Messages of one sender, receiver, tag and communicator match in order; other tags
 * and communicators are other queues; unmatched requests are counted. */
Test(comsys, order_and_pending)
{
    int first, second, r1, r2;

    setup(1);
    first = pz_comsys_send(cs, 0, 1, 7, 0, 1000, PZ_SEND_STANDARD, 0);
    second = pz_comsys_send(cs, 0, 1, 7, 0, 1000, PZ_SEND_STANDARD, US(200));
    pz_comsys_send(cs, 0, 1, 8, 0, 1000, PZ_SEND_STANDARD, US(300));
    pz_comsys_send(cs, 0, 1, 7, 1, 1000, PZ_SEND_STANDARD, US(300));
    cr_assert_eq(pz_comsys_pending(cs), 4);
    r1 = pz_comsys_recv(cs, 1, 0, 7, 0, US(1000));
    r2 = pz_comsys_recv(cs, 1, 0, 7, 0, US(1000));
    done_at(first, 0, "first send");
    done_at(second, US(200), "second send");
    done_at(r1, US(1000), "first receive");
    done_at(r2, US(1000), "second receive");
    cr_assert_eq(pz_comsys_pending(cs), 2, "tag 8 and communicator 1 are left");
    pz_comsys_free(cs);
}

static void setup_network(enum pz_network_kind kind, int channels)
{
    setup(1);
    m.network = kind;
    m.channels = channels;
    pz_comsys_free(cs);
    cs = pz_comsys_new(&m, 4);
    cr_assert(cs);
}

/* Two transfers of 1000 B ready at once, 0 -> 1 and 2 -> 3 (130 us each): a hub carries
 * one after the other (the second arrives at 260 us); two channels carry both. */
Test(comsys, a_bus_serializes_and_two_channels_do_not)
{
    enum pz_network_kind kinds[] = { PZ_NET_BUS, PZ_NET_CHANNELS };
    double second[] = { US(260), US(130) };

    for (int i = 0; i < 2; i++) {
        int r1, r2;

        setup_network(kinds[i], 2);
        r1 = pz_comsys_recv(cs, 1, 0, 7, 0, 0);
        r2 = pz_comsys_recv(cs, 3, 2, 7, 0, 0);
        pz_comsys_send(cs, 0, 1, 7, 0, 1000, PZ_SEND_STANDARD, 0);
        pz_comsys_send(cs, 2, 3, 7, 0, 1000, PZ_SEND_STANDARD, 0);
        done_at(r1, US(130), "first receive");
        done_at(r2, second[i], "second receive");
        pz_comsys_free(cs);
    }
}

/* One-sided transfers of 1000 B (130 us) on a switch, no receive posted: a Put from 0
 * to 1 at 0 arrives at 130 us; a Get by 2 from 3 at 0 sends its request (50 us) and
 * has the data back at 50 + 130 = 180 us; nothing is left pending. */
Test(comsys, a_put_and_a_get_need_no_receive)
{
    int put, get;

    setup_network(PZ_NET_SWITCH, 1);
    put = pz_comsys_rma(cs, PZ_RMA_PUT, 0, 1, 1000, 0);
    get = pz_comsys_rma(cs, PZ_RMA_GET, 2, 3, 1000, 0);
    done_at(put, US(130), "the Put");
    done_at(get, US(180), "the Get");
    cr_assert_eq(pz_comsys_pending(cs), 0);
    cr_assert_eq(pz_comsys_messages(cs), 3, "the Put, the Get's request and its data");
    pz_comsys_free(cs);
}

/* A Put waiting for its target's post whose arrival is already known leaves then,
 * without moving the model's clock past the other processes: process 1's post signal
 * leaves at 0 and arrives at 50 us (its wait by process 0 completes then); process 0's
 * Put of 1000 B, asked for at 10 us after that post, leaves at 50 us and arrives at
 * 180 us; process 2's send to 3 at 20 us (earlier than the Put's start) is still
 * accepted: eager, complete when posted; its data arrives at 20 + 130 = 150 us. */
Test(comsys, a_put_after_a_known_post_leaves_the_clock_alone)
{
    int post, put, send, recv;

    setup_network(PZ_NET_SWITCH, 1);
    post = pz_comsys_signal_wait(cs, 0, 1, 0, 0);
    pz_comsys_release(cs, pz_comsys_signal(cs, 1, 0, 0, 0));
    put = pz_comsys_rma_after(cs, PZ_RMA_PUT, 0, 1, 1000, US(10), post);
    send = pz_comsys_send(cs, 2, 3, 7, 0, 1000, PZ_SEND_STANDARD, US(20));
    recv = pz_comsys_recv(cs, 3, 2, 7, 0, US(20));
    cr_assert(put >= 0 && send >= 0 && recv >= 0, "every operation is accepted");
    done_at(post, US(50), "the post");
    done_at(put, US(180), "the Put");
    done_at(recv, US(150), "the receive");
    pz_comsys_free(cs);
}

/* A barrier of two processes (dissemination: each sends the other an empty message,
 * 50 us): on a switch both tokens travel at once and both leave at 50 us; on a hub the
 * token of the process that entered first goes first, so that one leaves at 100 us and
 * the other at 50 us. */
Test(comsys, a_barrier_of_two_on_a_switch_and_on_a_bus)
{
    enum pz_network_kind kinds[] = { PZ_NET_SWITCH, PZ_NET_BUS };
    double first[] = { US(50), US(100) };
    struct pz_coll c = { .op = PZ_COLL_BARRIER, .size = 2 };
    int procs[] = { 0, 1 };

    for (int i = 0; i < 2; i++) {
        int comm, a, b;

        setup_network(kinds[i], 1);
        comm = pz_comsys_comm(cs, 2, procs);
        post_both(comm, c, 0, &a, &b);
        cr_assert(a >= 0 && b >= 0);
        done_at(a, first[i], "process 0");
        done_at(b, US(50), "process 1");
        pz_comsys_free(cs);
    }
}

/* A collective call's own work comes first: with collective_overhead = 10 us each
 * member of the barrier of two on a switch (above: both done at 50 us) is busy until 10
 * us, sends its empty message then, and has the other's at 10 + 50 = 60 us. */
Test(comsys, a_collective_call_pays_its_overhead_first)
{
    struct pz_coll c = { .op = PZ_COLL_BARRIER, .size = 2 };
    int procs[] = { 0, 1 }, comm, a, b;

    setup_network(PZ_NET_SWITCH, 1);
    m.collective_overhead = 10e-6;
    comm = pz_comsys_comm(cs, 2, procs);
    post_both(comm, c, 0, &a, &b);
    cr_assert_float_eq(pz_comsys_cpu_free(cs, 0), US(10), EPS, "the call's own work");
    done_at(a, US(60), "process 0");
    done_at(b, US(60), "process 1");
    pz_comsys_free(cs);
}

/* A collective of a communicator of processes 1 and 3 involves them only: a 1000 B
 * broadcast from rank 1 of it (process 3) reaches process 1 at 130 us, and nothing is
 * left pending. */
Test(comsys, a_collective_on_a_sub_communicator)
{
    int procs[] = { 1, 3 }, comm, root, leaf;
    struct pz_coll c = { .op = PZ_COLL_BCAST, .size = 2, .root = 1, .bytes = 1000 };

    setup(1);
    comm = pz_comsys_comm(cs, 2, procs);
    c.me = 1;
    root = pz_comsys_collective(cs, comm, &c, 0);
    c.me = 0;
    leaf = pz_comsys_collective(cs, comm, &c, 0);
    done_at(root, 0, "the root (an eager send)");
    done_at(leaf, US(130), "the other member");
    cr_assert_eq(pz_comsys_pending(cs), 0);
    pz_comsys_free(cs);
}

/* A cancelled receive completes when it is cancelled and is no longer pending; a send
 * posted later finds no receive. */
Test(comsys, cancel)
{
    int r;

    setup(1);
    r = pz_comsys_recv(cs, 1, 0, 7, 0, US(10));
    cr_assert_eq(pz_comsys_pending(cs), 1);
    pz_comsys_cancel(cs, r);
    cr_assert_float_eq(pz_comsys_done(cs, r), US(10), EPS);
    cr_assert_eq(pz_comsys_pending(cs), 0);
    pz_comsys_send(cs, 0, 1, 7, 0, 1000, PZ_SEND_STANDARD, US(20));
    cr_assert_eq(pz_comsys_pending(cs), 1);
    pz_comsys_free(cs);
}

/* Time only moves forward: a post before the simulated time fails. */
Test(comsys, a_post_in_the_past_fails)
{
    int s;

    setup(1);
    s = pz_comsys_send(cs, 0, 1, 7, 0, 100000, PZ_SEND_STANDARD, US(100));
    pz_comsys_wait(cs, 0, NULL, 0);
    pz_comsys_recv(cs, 1, 0, 7, 0, US(200));
    done_at(s, US(200 + 50 + 8050), "the rendezvous send");
    cr_assert_lt(pz_comsys_recv(cs, 1, 0, 7, 0, US(150)), 0);
    pz_comsys_free(cs);
}

/* Every member of a communicator of all nprocs processes posts its part of c at 0;
 * done[i] gets member i's completion. */
static void collective_at_zero(struct pz_coll c, int nprocs, double *done)
{
    int procs[16], parts[16], comm;

    for (int i = 0; i < nprocs; i++)
        procs[i] = i;
    comm = pz_comsys_comm(cs, nprocs, procs);
    c.size = nprocs;
    for (c.me = 0; c.me < nprocs; c.me++)
        parts[c.me] = pz_comsys_collective(cs, comm, &c, 0);
    for (int i = 0; i < nprocs; i++)
        done[i] = pz_comsys_wait(cs, 1, &parts[i], 0);
}

/* A binomial broadcast of 1000 B (130 us a message) from rank 0 of 4: the root sends
 * to 2, then to 1; 2 forwards to 3 when it has the data.  On a hub: 0->2 [0, 130],
 * 0->1 [130, 260], 2->3 waits for the hub [260, 390].  On 2 channels: 0->2 and 0->1 at
 * once [0, 130], 2->3 [130, 260].  The root's sends are eager: it is done at 0, and 2
 * is done when it has forwarded (at 130). */
Test(comsys, binomial_broadcast_of_4_on_a_bus_and_on_channels)
{
    enum pz_network_kind kinds[] = { PZ_NET_BUS, PZ_NET_CHANNELS };
    const double want[2][4] = { { 0, US(260), US(130), US(390) },
                                { 0, US(130), US(130), US(260) } };
    struct pz_coll c = { .op = PZ_COLL_BCAST, .root = 0, .bytes = 1000 };

    for (int k = 0; k < 2; k++) {
        double done[4];

        setup_network(kinds[k], 2);
        pz_comsys_force(cs, pz_coll_named(PZ_COLL_BCAST, "binomial"));
        collective_at_zero(c, 4, done);
        for (int i = 0; i < 4; i++)
            cr_assert_float_eq(done[i], want[k][i], EPS, "%s: rank %d done at %.9f",
                               k ? "channels" : "bus", i, done[i]);
        pz_comsys_free(cs);
    }
}

/* 001's comparison: an allgather of 8 B blocks among 8 processes on a switch (no two
 * messages of a round share an endpoint).  The ring takes 7 rounds of one block:
 * 7 x (50 + 0.64) = 354.48 us; Bruck's algorithm 3 rounds of 1, 2 and 4 blocks:
 * 3 x 50 + 7 x 0.64 = 154.48 us: fewer start-ups, the same bytes. */
Test(comsys, allgather_by_ring_and_by_bruck)
{
    const char *names[] = { "ring", "bruck" };
    const double want[] = { US(354.48), US(154.48) };
    struct pz_coll c = { .op = PZ_COLL_ALLGATHER, .bytes = 8 };

    for (int k = 0; k < 2; k++) {
        double done[8];

        setup_network(PZ_NET_SWITCH, 1);
        pz_comsys_free(cs);
        cs = pz_comsys_new(&m, 8);
        pz_comsys_force(cs, pz_coll_named(PZ_COLL_ALLGATHER, names[k]));
        collective_at_zero(c, 8, done);
        for (int i = 0; i < 8; i++)
            cr_assert_float_eq(done[i], want[k], EPS, "%s: rank %d done at %.9f", names[k], i,
                               done[i]);
        pz_comsys_free(cs);
    }
}

/* MPICH's scattered Alltoall of 1000 B blocks between 2 processes on a switch, with a
 * send overhead of 10 us between nodes: one batch, each member's own block to itself
 * (posted first, i = 0), then its block to the other, then the wait for all.  Without
 * self_segments the message to oneself takes 1 us + 1000 B / 5 GB/s = 1.2 us through
 * memory while the other leaves at 10 us and arrives at 10 + 130 = 140 us: done at 140
 * us, as without the step to oneself.  With a self segment of 200 us and 1 GB/s the
 * message to oneself occupies the process for 201 us: the other leaves after it and its
 * overhead, at 211 us, and arrives at 341 us. */
Test(comsys, a_scattered_alltoall_sends_each_member_its_own_block)
{
    const double want[2] = { US(140), US(341) };
    struct pz_coll c = { .op = PZ_COLL_ALLTOALL, .bytes = 1000 };

    for (int k = 0; k < 2; k++) {
        double done[2];

        setup_network(PZ_NET_SWITCH, 1);
        pz_comsys_free(cs);
        m.overhead.send = 10e-6;
        if (k)
            m.self_segments = (struct pz_segments){ 1, { { 9007199254740992.0, 200e-6, 1e9 } } };
        cs = pz_comsys_new(&m, 2);
        pz_comsys_force(cs, pz_coll_named(PZ_COLL_ALLTOALL, "scattered"));
        collective_at_zero(c, 2, done);
        for (int i = 0; i < 2; i++)
            cr_assert_float_eq(done[i], want[k], EPS, "%s: rank %d done at %.9f",
                               k ? "self_segments" : "none", i, done[i]);
        pz_comsys_free(cs);
    }
}

/* MPICH's pairwise Alltoall copies each member's own block before its exchanges.  An
 * alltoall of 1000 B per block between 2 processes on the switch is one exchange, 130
 * us each way at once: done at 130 us without copy_segments.  With a copy of 5 us +
 * bytes / 1 GB/s (5 + 1 = 6 us) both members copy from 0 to 6 us, then exchange: 136 us.
 * A send overhead of 10 us comes after the copy: 6 + 10 + 130 = 146 us. */
Test(comsys, a_pairwise_alltoall_copies_the_own_block_first)
{
    const double want[3] = { US(130), US(136), US(146) };
    struct pz_coll c = { .op = PZ_COLL_ALLTOALL, .bytes = 1000 };

    for (int k = 0; k < 3; k++) {
        double done[2];

        setup_network(PZ_NET_SWITCH, 1);
        pz_comsys_free(cs);
        if (k)
            m.copy_segments = (struct pz_segments){ 1, { { 9007199254740992.0, 5e-6, 1e9 } } };
        if (k == 2)
            m.overhead.send = 10e-6;
        cs = pz_comsys_new(&m, 2);
        pz_comsys_force(cs, pz_coll_named(PZ_COLL_ALLTOALL, "pairwise"));
        collective_at_zero(c, 2, done);
        for (int i = 0; i < 2; i++)
            cr_assert_float_eq(done[i], want[k], EPS, "case %d: rank %d done at %.9f", k, i,
                               done[i]);
        pz_comsys_free(cs);
    }
}

/* The arithmetic of a reduction costs reduce_byte_time per byte combined: an allreduce
 * of 1000 B between 2 processes by recursive doubling is one exchange (130 us each way,
 * on a switch at once) and one combination of 1000 B at 10 ns a byte (10 us): 140 us. */
Test(comsys, a_reduction_costs_its_arithmetic)
{
    struct pz_coll c = { .op = PZ_COLL_ALLREDUCE, .bytes = 1000 };
    double done[2];

    setup(1);
    m.reduce_byte_time = 10e-9;
    pz_comsys_force(cs, pz_coll_named(PZ_COLL_ALLREDUCE, "recursive_doubling"));
    collective_at_zero(c, 2, done);
    cr_assert_float_eq(done[0], US(140), EPS, "process 0 done at %.9f", done[0]);
    cr_assert_float_eq(done[1], US(140), EPS, "process 1 done at %.9f", done[1]);
    pz_comsys_free(cs);
}

/* A rendezvous with 20 us of the protocol's own handling: the clear-to-send leaves when
 * the receive is posted (1000 us) and arrives at 1050 us, the data leaves 20 us later
 * and takes 8050 us: both complete at 9120 us. */
Test(comsys, the_rendezvous_overhead_delays_the_data)
{
    int s, r;

    setup(1);
    m.rendezvous_overhead = 20e-6;
    s = pz_comsys_send(cs, 0, 1, 7, 0, 100000, PZ_SEND_STANDARD, 0);
    r = pz_comsys_recv(cs, 1, 0, 7, 0, US(1000));
    done_at(s, US(9120), "send");
    done_at(r, US(9120), "receive");
    pz_comsys_free(cs);
}

/* Progress only in calls (the machine's progress = in_calls), 100000 B by rendezvous. */
static void setup_in_calls(void)
{
    setup_progress(1, PZ_PROGRESS_IN_CALLS);
}

/* The sender computes: process 0 posts the send in a call that returns at once (0) and
 * enters its next call at 20000 us; process 1 waits in its receive from 0.  The
 * request-to-send arrives at 50 us, process 1 in a call answers at once, the
 * clear-to-send arrives at 100 us while process 0 computes: the data leaves at 20000 us
 * and arrives at 28050 us.  In the background it would leave at 100 us. */
Test(comsys, in_calls_the_data_waits_for_the_senders_next_call)
{
    int s, r, call;

    setup_in_calls();
    call = pz_comsys_enter(cs, 0, 0);
    s = pz_comsys_send(cs, 0, 1, 7, 0, 100000, PZ_SEND_STANDARD, 0);
    pz_comsys_leave(cs, 0, call, 0);
    pz_comsys_enter(cs, 1, 0);
    r = pz_comsys_recv(cs, 1, 0, 7, 0, 0);
    pz_comsys_enter(cs, 0, US(20000));
    done_at(r, US(28050), "receive");
    done_at(s, US(28050), "send");
    pz_comsys_free(cs);
}

/* The receiver computes: process 1 posts its receive at 0 in a call that returns at once
 * and enters its next call at 5000 us; process 0 sends at 1000 us and waits in the
 * send.  The request-to-send arrives at 1050 us while process 1 computes: the
 * clear-to-send leaves at 5000 us, arrives at 5050 us, the data then arrives at
 * 13100 us. */
Test(comsys, in_calls_the_clear_to_send_waits_for_the_receivers_next_call)
{
    int s, r, call;

    setup_in_calls();
    call = pz_comsys_enter(cs, 1, 0);
    r = pz_comsys_recv(cs, 1, 0, 7, 0, 0);
    pz_comsys_leave(cs, 1, call, 0);
    pz_comsys_enter(cs, 1, US(5000));
    pz_comsys_enter(cs, 0, US(1000));
    s = pz_comsys_send(cs, 0, 1, 7, 0, 100000, PZ_SEND_STANDARD, US(1000));
    done_at(s, US(13100), "send");
    done_at(r, US(13100), "receive");
    pz_comsys_free(cs);
}

/* Processes never said to enter a call count as always in one: the data leaves when the
 * clear-to-send arrives, 100 us, and arrives at 8150 us, as in the background.  With
 * progress = background, enter and leave do nothing. */
Test(comsys, in_calls_without_calls_told_is_the_background)
{
    int s, r;

    setup_in_calls();
    s = pz_comsys_send(cs, 0, 1, 7, 0, 100000, PZ_SEND_STANDARD, 0);
    r = pz_comsys_recv(cs, 1, 0, 7, 0, 0);
    done_at(r, US(8150), "receive");
    done_at(s, US(8150), "send");
    pz_comsys_free(cs);
    setup(1);
    cr_assert_eq(pz_comsys_enter(cs, 0, 0), -1);
    pz_comsys_free(cs);
}

/* --- the CPU overheads of messages
 *
 * Between nodes the sender spends 10 us + 0.01 us/B, the receiver 20 us + 0.02 us/B:
 * for 1000 B, o_s = 20 us and o_r = 40 us; for an empty message 10 us and 20 us; for
 * 100000 B, above the eager threshold (64 KiB), 10 us and 20 us too: the per-byte
 * overheads are an eager message's copies, a rendezvous message's bytes move by its
 * transfer.  Between processes of one node 1 us and 2 us. */
static void setup_overheads(int procs_per_node)
{
    setup(procs_per_node);
    m.overhead = (struct pz_overhead){ 10e-6, 0.01e-6, 20e-6, 0.02e-6 };
    m.shm_overhead = (struct pz_overhead){ 1e-6, 0, 2e-6, 0 };
}

/* A ping-pong of 1000 B: process 0 sends at 0, its message leaves at 20 us (its clock is
 * taken until then) and arrives at 150 us; process 1, in its receive since 0, has the
 * data at 150 + 40 = 190 us.  It answers then: the answer leaves at 210 us, arrives at
 * 340 us, and process 0 (in its receive since 20 us) has it at 380 us: a round trip of
 * 2 x (o_s + 130 us + o_r). */
Test(comsys, a_ping_pong_pays_both_overheads)
{
    int s, r, back, answer;
    double taken;

    setup_overheads(1);
    s = pz_comsys_send(cs, 0, 1, 7, 0, 1000, PZ_SEND_STANDARD, 0);
    cr_assert_float_eq(pz_comsys_cpu_free(cs, 0), US(20), EPS, "the send takes the sender");
    r = pz_comsys_recv(cs, 1, 0, 7, 0, 0);
    back = pz_comsys_recv(cs, 0, 1, 8, 0, US(20));
    done_at(s, US(20), "eager send, once its overhead is spent");
    done_at(r, US(150), "the data arrives");
    taken = pz_comsys_deliver(cs, r, 0);
    cr_assert_float_eq(taken, US(190), EPS);
    cr_assert_float_eq(pz_comsys_cpu_free(cs, 1), US(190), EPS);
    answer = pz_comsys_send(cs, 1, 0, 8, 0, 1000, PZ_SEND_STANDARD, US(190));
    done_at(answer, US(210), "the answer leaves");
    done_at(back, US(340), "the answer arrives");
    taken = pz_comsys_deliver(cs, back, US(20));
    cr_assert_float_eq(taken, US(380), EPS);
    pz_comsys_free(cs);
}

/* A stream of three 1000 B messages posted at once: the sender's overheads follow one
 * another (the messages leave at 20, 40 and 60 us, and its clock is taken until 60 us),
 * its link carries them one after the other (150, 280, 410 us); the receiver, whose
 * receives were posted at 0, takes them in turn: 190, max(190, 280) + 40 = 320 and
 * max(320, 410) + 40 = 450 us. */
Test(comsys, a_stream_of_messages_pays_the_overheads_in_turn)
{
    int r[3], s[3];
    double sent[] = { US(20), US(40), US(60) }, arrived[] = { US(150), US(280), US(410) };
    double taken[] = { US(190), US(320), US(450) }, at = 0;

    setup_overheads(1);
    for (int i = 0; i < 3; i++)
        r[i] = pz_comsys_recv(cs, 1, 0, 7, 0, 0);
    for (int i = 0; i < 3; i++)
        s[i] = pz_comsys_send(cs, 0, 1, 7, 0, 1000, PZ_SEND_STANDARD, 0);
    cr_assert_float_eq(pz_comsys_cpu_free(cs, 0), US(60), EPS);
    for (int i = 0; i < 3; i++) {
        done_at(s[i], sent[i], "send");
        done_at(r[i], arrived[i], "arrival");
        at = pz_comsys_deliver(cs, r[i], at);
        cr_assert_float_eq(at, taken[i], EPS, "message %d taken", i);
    }
    pz_comsys_free(cs);
}

/* The barrier of a_collective_call_pays_its_overhead_first on a machine with message
 * overheads (o_s = 10 us, o_r = 20 us at 0 B): each member is busy with the call until
 * 5 us (collective_overhead), its send leaves at 5 + 10 = 15 us and arrives at 65 us,
 * and it takes the other's message by 65 + 20 = 85 us, 5 us later than without the
 * collective overhead (80 us). */
Test(comsys, a_collective_call_pays_its_overhead_before_its_messages)
{
    struct pz_coll c = { .op = PZ_COLL_BARRIER, .size = 2 };
    int procs[] = { 0, 1 };

    for (int k = 0; k < 2; k++) {
        int comm, a, b;

        setup_overheads(1);
        m.collective_overhead = k ? 5e-6 : 0;
        comm = pz_comsys_comm(cs, 2, procs);
        post_both(comm, c, 0, &a, &b);
        done_at(a, US(k ? 85 : 80), "process 0");
        done_at(b, US(k ? 85 : 80), "process 1");
        pz_comsys_free(cs);
    }
}

/* The send's tail per byte: with send_tail_per_byte = 0.005 us/B a message of 1000 B
 * leaves 5 us before its sender's overhead of 20 us ends, at 15 us, and arrives at 15 +
 * 130 = 145 us, its sender busy until 20 us.  With 0.05 us/B the tail, 50 us, is held
 * at the overhead: it leaves at 0 and arrives at 130 us.  A rendezvous message (100000
 * B) has no per-byte part: its request to send leaves after the whole 10 us, arriving
 * at 60 us, its data at 8160 us as without a tail (below). */
Test(comsys, an_eager_message_leaves_its_tail_per_byte_early)
{
    double tail[] = { 0.005e-6, 0.05e-6 }, arrives[] = { US(145), US(130) };

    for (int i = 0; i < 2; i++) {
        int r;

        setup_overheads(1);
        m.send_tail_per_byte = tail[i];
        pz_comsys_send(cs, 0, 1, 7, 0, 1000, PZ_SEND_STANDARD, 0);
        cr_assert_float_eq(pz_comsys_cpu_free(cs, 0), US(20), EPS, "busy to the end");
        r = pz_comsys_recv(cs, 1, 0, 7, 0, 0);
        done_at(r, arrives[i], "the data arrives");
        pz_comsys_free(cs);
    }
    setup_overheads(1);
    m.send_tail_per_byte = 0.005e-6;
    pz_comsys_send(cs, 0, 1, 7, 0, 100000, PZ_SEND_STANDARD, 0);
    done_at(pz_comsys_recv(cs, 1, 0, 7, 0, 0), US(8160), "rendezvous, no tail per byte");
    pz_comsys_free(cs);
}

/* Rendezvous, 100000 B, receive posted at 0: the request-to-send leaves after o_s =
 * 10 us and arrives at 60 us, the clear-to-send arrives at 110 us, the data at 110 +
 * 8050 = 8160 us; the receiver has it o_r = 20 us later, at 8180 us. */
Test(comsys, a_rendezvous_pays_the_overheads)
{
    int s, r;
    double taken;

    setup_overheads(1);
    s = pz_comsys_send(cs, 0, 1, 7, 0, 100000, PZ_SEND_STANDARD, 0);
    r = pz_comsys_recv(cs, 1, 0, 7, 0, 0);
    done_at(s, US(8160), "send");
    done_at(r, US(8160), "receive");
    taken = pz_comsys_deliver(cs, r, 0);
    cr_assert_float_eq(taken, US(8180), EPS);
    pz_comsys_free(cs);
}

/* Processes 0 and 1 on one node: the shm overheads, 1 us and 2 us; 1000 B through
 * memory take 1 + 1000 / 5e9 s = 1.2 us: sent at 1 us, arrived at 2.2 us, taken at
 * 4.2 us.  A cancelled receive got no message and costs nothing. */
Test(comsys, one_node_pays_its_own_overheads)
{
    int s, r, c;
    double taken;

    setup_overheads(2);
    s = pz_comsys_send(cs, 0, 1, 7, 0, 1000, PZ_SEND_STANDARD, 0);
    r = pz_comsys_recv(cs, 1, 0, 7, 0, 0);
    done_at(s, US(1), "send");
    done_at(r, US(2.2), "arrival");
    taken = pz_comsys_deliver(cs, r, 0);
    cr_assert_float_eq(taken, US(4.2), EPS);
    c = pz_comsys_recv(cs, 1, 0, 9, 0, US(5));
    pz_comsys_cancel(cs, c);
    taken = pz_comsys_deliver(cs, c, US(5));
    cr_assert_float_eq(taken, US(5), EPS);
    pz_comsys_free(cs);
}

/* A message to oneself of 1000 B with the shm overheads (1 us, 2 us): without
 * self_segments it pays them as one between processes of one node does (sent at 1 us,
 * arrived at 2.2 us, taken at 4.2 us); with a segment of 10 us and 1 GB/s the segment
 * is its whole cost, the sender's work: the process is occupied until 11 us, when the
 * send completes and the message has arrived and is taken. */
Test(comsys, self_segments_are_a_message_to_oneselfs_whole_cost)
{
    int s, r;
    double taken;

    setup_overheads(1);
    s = pz_comsys_send(cs, 0, 0, 7, 0, 1000, PZ_SEND_STANDARD, 0);
    r = pz_comsys_recv(cs, 0, 0, 7, 0, 0);
    done_at(s, US(1), "send, the shm_ overhead");
    done_at(r, US(2.2), "arrival");
    taken = pz_comsys_deliver(cs, r, 0);
    cr_assert_float_eq(taken, US(4.2), EPS);
    pz_comsys_free(cs);
    m.self_segments = (struct pz_segments){ 1, { { 9007199254740992.0, 10e-6, 1e9 } } };
    cs = pz_comsys_new(&m, 4);
    s = pz_comsys_send(cs, 0, 0, 7, 0, 1000, PZ_SEND_STANDARD, 0);
    r = pz_comsys_recv(cs, 0, 0, 7, 0, 0);
    done_at(s, US(11), "send, the process's own work");
    done_at(r, US(11), "arrival");
    taken = pz_comsys_deliver(cs, r, 0);
    cr_assert_float_eq(taken, US(11), EPS);
    cr_assert_float_eq(pz_comsys_cpu_free(cs, 0), US(11), EPS);
    pz_comsys_free(cs);
}

/* A barrier of two on a switch (dissemination, one empty message each way): each token
 * leaves after o_s = 10 us and arrives at 60 us; each process takes it 20 us later:
 * both complete at 80 us.  Then a broadcast of 1000 B from process 0 to 1, posted at
 * 80 us: the root is done once its message has left (80 + 20 = 100 us), the leaf when it
 * has taken it, at 100 + 130 + 40 = 270 us. */
Test(comsys, a_collectives_messages_pay_the_overheads)
{
    struct pz_coll barrier = { .op = PZ_COLL_BARRIER, .size = 2 };
    struct pz_coll bcast = { .op = PZ_COLL_BCAST, .size = 2, .bytes = 1000 };
    int procs[] = { 0, 1 }, comm, a, b;
    double at;

    setup_overheads(1);
    comm = pz_comsys_comm(cs, 2, procs);
    post_both(comm, barrier, 0, &a, &b);
    done_at(a, US(80), "process 0");
    done_at(b, US(80), "process 1");
    at = pz_comsys_now(cs);   /* 80 us, to the bit the simulation reached */
    post_both(comm, bcast, at, &a, &b);
    done_at(a, US(100), "the root");
    done_at(b, US(270), "the leaf");
    pz_comsys_free(cs);
}

/* --- the resume overhead
 *
 * 5 us in full after computing resume_after = 100 us or more, between nodes; 1 us
 * between processes of one node; no other overhead.  A process computes between the
 * calls it is said to leave and enter. */
static void setup_resume(int procs_per_node)
{
    setup(procs_per_node);
    m.resume_overhead = 5e-6;
    m.shm_resume_overhead = 1e-6;
    m.resume_after = 100e-6;
    pz_comsys_free(cs);
    cs = pz_comsys_new(&m, 4);
    cr_assert(cs);
}

/* Process proc in an MPI call from `from` to `to`. */
static void call(int proc, double from, double to)
{
    pz_comsys_leave(cs, proc, pz_comsys_enter(cs, proc, from), to);
}

/* Process 0 leaves a call at 0 and computes 200 us, beyond resume_after: its send of
 * 1000 B at 200 us pays the 5 us in full and leaves at 205 us, arriving at 205 + 130 =
 * 335 us.  Its second send, in the same call, owes nothing, but on a machine with a
 * resume overhead a message waits for its process's CPU even without an overhead of
 * its own: it leaves after the first, at 205 us, and arrives after it on the link, at
 * 335 + 130 = 465 us. */
Test(comsys, a_send_after_computing_pays_the_resume_overhead)
{
    int r1, r2;

    setup_resume(1);
    call(0, 0, 0);
    r1 = pz_comsys_recv(cs, 1, 0, 7, 0, 0);
    r2 = pz_comsys_recv(cs, 1, 0, 8, 0, 0);
    pz_comsys_enter(cs, 0, US(200));
    pz_comsys_send(cs, 0, 1, 7, 0, 1000, PZ_SEND_STANDARD, US(200));
    cr_assert_float_eq(pz_comsys_cpu_free(cs, 0), US(205), EPS);
    pz_comsys_send(cs, 0, 1, 8, 0, 1000, PZ_SEND_STANDARD, US(200));
    cr_assert_float_eq(pz_comsys_cpu_free(cs, 0), US(205), EPS, "owed once");
    done_at(r1, US(335), "the first message");
    done_at(r2, US(465), "the second message");
    pz_comsys_free(cs);
}

/* 40 us of computation, under resume_after, pay in proportion: 5 x 40 / 100 = 2 us, so
 * the send at 40 us leaves at 42 us and arrives at 172 us. */
Test(comsys, a_shorter_computation_pays_in_proportion)
{
    int r;

    setup_resume(1);
    call(0, 0, 0);
    r = pz_comsys_recv(cs, 1, 0, 7, 0, 0);
    pz_comsys_enter(cs, 0, US(40));
    pz_comsys_send(cs, 0, 1, 7, 0, 1000, PZ_SEND_STANDARD, US(40));
    done_at(r, US(172), "receive");
    pz_comsys_free(cs);
}

/* Two stretches out of MPI with a call between them and no message add up: 30 us (0 to
 * 30) and 30 us (40 to 70) owe 5 x 60 / 100 = 3 us at the receive posted at 70 us. */
Test(comsys, stretches_out_of_mpi_add_up)
{
    setup_resume(1);
    call(1, 0, 0);
    call(1, US(30), US(40));
    pz_comsys_enter(cs, 1, US(70));
    pz_comsys_recv(cs, 1, 0, 9, 0, US(70));
    cr_assert_float_eq(pz_comsys_cpu_free(cs, 1), US(73), EPS);
    pz_comsys_free(cs);
}

/* The receiver computed 300 us: its receive posted at 300 us pays 5 us then; the
 * message, sent at 0 by a process never said to compute (nothing owed), has arrived at
 * 130 us, and the receiver has it once its CPU is free, at 305 us (the engine keeps
 * the call until then).  With a receiver's overhead of 20 us, that follows: 325 us. */
Test(comsys, a_receive_after_computing_pays_the_resume_overhead)
{
    int r;
    double taken;

    setup_resume(1);
    m.overhead.recv = 20e-6;
    pz_comsys_free(cs);
    cs = pz_comsys_new(&m, 4);
    call(1, 0, 0);
    pz_comsys_send(cs, 0, 1, 7, 0, 1000, PZ_SEND_STANDARD, 0);
    cr_assert_float_eq(pz_comsys_cpu_free(cs, 0), 0, EPS, "never said to compute");
    pz_comsys_enter(cs, 1, US(300));
    r = pz_comsys_recv(cs, 1, 0, 7, 0, US(300));
    cr_assert_float_eq(pz_comsys_cpu_free(cs, 1), US(305), EPS);
    done_at(r, US(300), "the data had arrived");
    taken = pz_comsys_deliver(cs, r, US(300));
    cr_assert_float_eq(taken, US(325), EPS);
    pz_comsys_free(cs);
}

/* Processes 0 and 1 on one node pay the shm_ resume overhead, 1 us: a send at 200 us
 * leaves at 201 us and arrives 1.2 us later (shm: 1 us + 1000 B / 5 GB/s), at 202.2 us. */
Test(comsys, one_node_pays_its_own_resume_overhead)
{
    int r;

    setup_resume(2);
    call(0, 0, 0);
    r = pz_comsys_recv(cs, 1, 0, 7, 0, 0);
    pz_comsys_enter(cs, 0, US(200));
    pz_comsys_send(cs, 0, 1, 7, 0, 1000, PZ_SEND_STANDARD, US(200));
    done_at(r, US(202.2), "receive");
    pz_comsys_free(cs);
}

/* A barrier of two (one empty message each way) entered at 100 us by both processes,
 * each after computing 100 us: each token leaves after the 5 us owed, at 105 us, and
 * arrives at 155 us; both complete then.  On a bus the two tokens share the one
 * medium: process 0's, posted first, arrives at 155 us and completes process 1; process
 * 1's waits for the medium and arrives at 155 + 50 = 205 us, completing process 0. */
Test(comsys, a_collectives_first_message_pays_the_resume_overhead)
{
    struct pz_coll barrier = { .op = PZ_COLL_BARRIER, .size = 2 };
    int procs[] = { 0, 1 }, comm, a, b;

    for (int bus = 0; bus <= 1; bus++) {
        setup_resume(1);
        if (bus) {
            m.network = PZ_NET_BUS;
            pz_comsys_free(cs);
            cs = pz_comsys_new(&m, 4);
        }
        comm = pz_comsys_comm(cs, 2, procs);
        call(0, 0, 0);
        call(1, 0, 0);
        pz_comsys_enter(cs, 0, US(100));
        pz_comsys_enter(cs, 1, US(100));
        post_both(comm, barrier, US(100), &a, &b);
        done_at(a, US(bus ? 205 : 155), "process 0");
        done_at(b, US(155), "process 1");
        pz_comsys_free(cs);
    }
}

/* Without a resume overhead (the default) computing costs nothing: the send at 200 us
 * leaves at once. */
Test(comsys, no_resume_overhead_by_default)
{
    setup(1);
    call(0, 0, 0);
    pz_comsys_enter(cs, 0, US(200));
    pz_comsys_send(cs, 0, 1, 7, 0, 1000, PZ_SEND_STANDARD, US(200));
    cr_assert_float_eq(pz_comsys_cpu_free(cs, 0), 0, EPS);
    pz_comsys_free(cs);
}

/* --- the duplex overhead
 *
 * The overheads above (a send of 1000 B: 10 + 0.01 x 1000 = 20 us; its data arrives
 * 130 us after it left) and a duplex overhead of 6 us: a send whose 20 us all run while
 * its receiver's message to it is on its way (from the start of that message's
 * overhead until its data arrives) takes 26 us; in part, in proportion. */
static void setup_duplex(void)
{
    setup_overheads(1);
    m.duplex_overhead = 6e-6;
    pz_comsys_free(cs);
    cs = pz_comsys_new(&m, 4);
    cr_assert(cs);
}

/* Both send 1000 B to each other at 0: process 0's send, posted first, leaves at 20 us;
 * process 1's overlaps it entirely and leaves at 20 + 6 = 26 us, arriving at 26 + 130 =
 * 156 us.  Without the duplex overhead both leave at 20 us. */
Test(comsys, sends_both_ways_at_once_pay_the_duplex_overhead)
{
    for (int duplex = 0; duplex <= 1; duplex++) {
        int r;

        if (duplex)
            setup_duplex();
        else
            setup_overheads(1);
        pz_comsys_send(cs, 0, 1, 7, 0, 1000, PZ_SEND_STANDARD, 0);
        cr_assert_float_eq(pz_comsys_cpu_free(cs, 0), US(20), EPS, "the first pays nothing");
        pz_comsys_send(cs, 1, 0, 7, 0, 1000, PZ_SEND_STANDARD, 0);
        cr_assert_float_eq(pz_comsys_cpu_free(cs, 1), US(duplex ? 26 : 20), EPS);
        r = pz_comsys_recv(cs, 0, 1, 7, 0, 0);
        done_at(r, US(duplex ? 156 : 150), "the later send's data");
        pz_comsys_free(cs);
    }
}

/* Process 0's send is posted first, at 15 us, and is on its way from then; process 1's,
 * posted next at 0, runs its overhead from 0 to 20 us: 5 of its 20 us overlap, and it
 * grows by 6 x 5 / 20 = 1.5 us: it leaves at 21.5 us.  A rendezvous send (100000 B,
 * above the eager threshold; overhead 10 us, no per-byte part) pays the same way: the
 * other's request to send is on its way over all of it, 10 + 6 = 16 us. */
Test(comsys, a_partial_overlap_pays_in_proportion)
{
    setup_duplex();
    pz_comsys_send(cs, 0, 1, 7, 0, 1000, PZ_SEND_STANDARD, US(15));
    pz_comsys_send(cs, 1, 0, 7, 0, 1000, PZ_SEND_STANDARD, 0);
    cr_assert_float_eq(pz_comsys_cpu_free(cs, 1), US(21.5), EPS);
    pz_comsys_free(cs);
    setup_duplex();
    pz_comsys_send(cs, 2, 3, 7, 0, 100000, PZ_SEND_STANDARD, 0);
    pz_comsys_send(cs, 3, 2, 7, 0, 100000, PZ_SEND_STANDARD, 0);
    cr_assert_float_eq(pz_comsys_cpu_free(cs, 3), US(16), EPS);
    pz_comsys_free(cs);
}

/* Only a send back to the sender counts: process 1's send to 0 at 0 overlaps process
 * 0's to 2 and process 2's to 0, and pays nothing (20 us). */
Test(comsys, only_a_send_back_overlapping_pays)
{
    setup_duplex();
    pz_comsys_send(cs, 0, 2, 7, 0, 1000, PZ_SEND_STANDARD, 0);
    pz_comsys_send(cs, 2, 0, 7, 0, 1000, PZ_SEND_STANDARD, 0);
    cr_assert_float_eq(pz_comsys_cpu_free(cs, 2), US(26), EPS, "2 and 0 overlap");
    pz_comsys_send(cs, 1, 0, 7, 0, 1000, PZ_SEND_STANDARD, 0);
    cr_assert_float_eq(pz_comsys_cpu_free(cs, 1), US(20), EPS, "0 sends to 2, not to 1");
    pz_comsys_free(cs);
}

/* Process 0 sends to 1 at 0: its data leaves at 20 us and arrives at 150 us, and
 * process 1, in its receive since 0, has it at 150 + 40 = 190 us.  Process 1's answer
 * at 190 us comes after the data arrived and pays nothing: it leaves at 210 us, as in
 * the ping-pong above.  A send of process 1 at 100 us instead, once the simulation has
 * sent process 0's data (overhead 100 to 120 us, within 0 to 150 us), pays: 126 us,
 * where the overheads alone (0 to 20 us, 100 to 120 us) do not overlap. */
Test(comsys, a_send_pays_only_while_the_message_back_is_on_its_way)
{
    double taken;
    int r;

    setup_duplex();
    pz_comsys_send(cs, 0, 1, 7, 0, 1000, PZ_SEND_STANDARD, 0);
    r = pz_comsys_recv(cs, 1, 0, 7, 0, 0);
    done_at(r, US(150), "process 0's data arrives");
    taken = pz_comsys_deliver(cs, r, 0);
    cr_assert_float_eq(taken, US(190), EPS, "and process 1 has it");
    pz_comsys_send(cs, 1, 0, 7, 0, 1000, PZ_SEND_STANDARD, US(190));
    cr_assert_float_eq(pz_comsys_cpu_free(cs, 1), US(210), EPS, "arrived: no overhead");
    pz_comsys_free(cs);
    setup_duplex();
    done_at(pz_comsys_send(cs, 0, 1, 7, 0, 1000, PZ_SEND_STANDARD, 0), US(20), "it leaves");
    pz_comsys_send(cs, 1, 0, 7, 0, 1000, PZ_SEND_STANDARD, US(100));
    cr_assert_float_eq(pz_comsys_cpu_free(cs, 1), US(126), EPS, "on its way");
    pz_comsys_free(cs);
}

/* A barrier of two begun together at 0 (an empty message each way, send overhead 10
 * us, receive overhead 20 us): process 0's token leaves at 10 us, arrives at 60 us, and
 * process 1 has it at 60 + 20 = 80 us; process 1's send overlaps it whole and leaves at
 * 10 + 6 = 16 us, arrives at 66 us, and process 0 has it at 86 us (both 80 us without
 * the duplex overhead, as above). */
Test(comsys, a_collectives_sends_pay_the_duplex_overhead)
{
    struct pz_coll barrier = { .op = PZ_COLL_BARRIER, .size = 2 };
    int procs[] = { 0, 1 }, comm, a, b;

    setup_duplex();
    comm = pz_comsys_comm(cs, 2, procs);
    post_both(comm, barrier, 0, &a, &b);
    done_at(a, US(86), "process 0");
    done_at(b, US(80), "process 1");
    pz_comsys_free(cs);
}

/* A send tail of 15 us (the overheads above: 1000 B cost the sender 20 us, the
 * receiver 40 us; latency 50 us, 1000 B in 130 us): process 0's send of 1000 B at 0
 * occupies it until 20 us, but the message leaves 15 us before, at 5 us, arrives at
 * 135 us, and process 1 has it at 135 + 40 = 175 us (190 without the tail).  An empty
 * message costs 10 us, less than the tail: posted at 0, it leaves as its overhead
 * begins, at 0, arrives at 50 us, and its sender is free at 10 us. */
Test(comsys, a_send_tail_lets_the_message_leave_before_its_sender_is_free)
{
    int s, r;
    double taken;

    setup_overheads(1);
    m.send_tail = US(15);
    s = pz_comsys_send(cs, 0, 1, 7, 0, 1000, PZ_SEND_STANDARD, 0);
    cr_assert_float_eq(pz_comsys_cpu_free(cs, 0), US(20), EPS, "the whole overhead");
    r = pz_comsys_recv(cs, 1, 0, 7, 0, 0);
    done_at(s, US(5), "the message leaves before the end of its overhead");
    done_at(r, US(135), "it arrives");
    taken = pz_comsys_deliver(cs, r, 0);
    cr_assert_float_eq(taken, US(175), EPS);
    pz_comsys_free(cs);
    setup_overheads(1);
    m.send_tail = US(15);
    s = pz_comsys_send(cs, 0, 1, 8, 0, 0, PZ_SEND_STANDARD, 0);
    r = pz_comsys_recv(cs, 1, 0, 8, 0, 0);
    cr_assert_float_eq(pz_comsys_cpu_free(cs, 0), US(10), EPS);
    done_at(s, 0, "no earlier than its overhead began");
    done_at(r, US(50), "the empty message arrives");
    pz_comsys_free(cs);
}

/* --- the duplex factors by size
 *
 * The switch above, no overheads, and duplex_factors 2 KiB: 1.5, any larger: 3.  A
 * message of 1000 B is on its way 130 us; one the other way at its nodes while it is
 * makes the later one arrive later by (1.5 - 1) x the overlap. */
static void setup_factors(int procs_per_node)
{
    setup(procs_per_node);
    m.duplex_factors = (struct pz_size_factors){ 2, { { 2048, 1.5 }, { 4096, 3 } } };
    pz_comsys_free(cs);
    cs = pz_comsys_new(&m, 4);
    cr_assert(cs);
}

/* Both send 1000 B to each other at 0: process 0's, sent first, arrives at 130 us;
 * process 1's, on its way from 0 to 130 us with it, at 130 + 0.5 x 130 = 195 us.  Sent
 * at 100 us instead, it overlaps 30 us: 100 + 130 + 15 = 245 us. */
Test(comsys, a_message_both_ways_arrives_later_by_its_factor)
{
    for (int at = 0; at <= 100; at += 100) {
        int r0, r1;

        setup_factors(1);
        r1 = pz_comsys_recv(cs, 1, 0, 7, 0, 0);
        pz_comsys_send(cs, 0, 1, 7, 0, 1000, PZ_SEND_STANDARD, 0);
        r0 = pz_comsys_recv(cs, 0, 1, 7, 0, 0);
        pz_comsys_send(cs, 1, 0, 7, 0, 1000, PZ_SEND_STANDARD, US(at));
        done_at(r1, US(130), "the first, alone on its way");
        done_at(r0, US(at ? 245 : 195), "the one the other way");
        pz_comsys_free(cs);
    }
}

/* A ping-pong overlaps nothing: the answer, sent at 130 us when the first message
 * arrived, arrives at 260 us.  Nor do messages that share no node: 0 to 1 and 2 to 3 at
 * once both arrive at 130 us.  A message into a node that is sending counts as the other
 * way even from another peer: 2 to 0 while 0 sends to 1 arrives at 195 us. */
Test(comsys, only_messages_the_other_way_at_a_node_overlap)
{
    int r, back;

    setup_factors(1);
    r = pz_comsys_recv(cs, 1, 0, 7, 0, 0);
    pz_comsys_send(cs, 0, 1, 7, 0, 1000, PZ_SEND_STANDARD, 0);
    done_at(r, US(130), "the ping");
    back = pz_comsys_recv(cs, 0, 1, 8, 0, US(130));
    pz_comsys_send(cs, 1, 0, 8, 0, 1000, PZ_SEND_STANDARD, US(130));
    done_at(back, US(260), "the pong");
    pz_comsys_free(cs);
    setup_factors(1);
    r = pz_comsys_recv(cs, 1, 0, 7, 0, 0);
    back = pz_comsys_recv(cs, 3, 2, 7, 0, 0);
    pz_comsys_send(cs, 0, 1, 7, 0, 1000, PZ_SEND_STANDARD, 0);
    pz_comsys_send(cs, 2, 3, 7, 0, 1000, PZ_SEND_STANDARD, 0);
    done_at(r, US(130), "0 to 1");
    done_at(back, US(130), "2 to 3");
    pz_comsys_free(cs);
    setup_factors(1);
    pz_comsys_send(cs, 0, 1, 7, 0, 1000, PZ_SEND_STANDARD, 0);
    r = pz_comsys_recv(cs, 0, 2, 7, 0, 0);
    pz_comsys_send(cs, 2, 0, 7, 0, 1000, PZ_SEND_STANDARD, 0);
    done_at(r, US(195), "2 to 0 while 0 sends to 1");
    pz_comsys_free(cs);
}

/* Rendezvous, 100000 B both ways, receives posted at 0: request to send 0 to 50 us,
 * clear to send 50 to 100 us, data 100 to 8150 us for each; both on their way from 0
 * (both ends posted), so the later arrives at 8150 + (3 - 1) x 8150 = 24450 us (the step
 * for any size larger than the last bound is the last).  Between two processes of one
 * node nothing stretches: 1000 B through memory take 1 + 0.2 = 1.2 us both ways. */
Test(comsys, a_rendezvous_is_on_its_way_from_both_ends_posted)
{
    double a, b;
    int r0, r1;

    setup_factors(1);
    r0 = pz_comsys_recv(cs, 0, 1, 7, 0, 0);
    r1 = pz_comsys_recv(cs, 1, 0, 7, 0, 0);
    pz_comsys_send(cs, 0, 1, 7, 0, 100000, PZ_SEND_STANDARD, 0);
    pz_comsys_send(cs, 1, 0, 7, 0, 100000, PZ_SEND_STANDARD, 0);
    a = pz_comsys_wait(cs, 1, &r0, 0);
    b = pz_comsys_wait(cs, 1, &r1, 0);
    cr_assert_float_eq(fmin(a, b), US(8150), EPS, "the first");
    cr_assert_float_eq(fmax(a, b), US(24450), EPS, "the later");
    pz_comsys_free(cs);
    setup_factors(2);
    r0 = pz_comsys_recv(cs, 0, 1, 7, 0, 0);
    r1 = pz_comsys_recv(cs, 1, 0, 7, 0, 0);
    pz_comsys_send(cs, 0, 1, 7, 0, 1000, PZ_SEND_STANDARD, 0);
    pz_comsys_send(cs, 1, 0, 7, 0, 1000, PZ_SEND_STANDARD, 0);
    done_at(r0, US(1.2), "through memory");
    done_at(r1, US(1.2), "through memory");
    pz_comsys_free(cs);
}

/* A message of exactly a step's bound takes that step's factor, one byte more the next
 * step's: 2048 B on its way 50 + 163.84 = 213.84 us, both ways at once the later arrives
 * at 1.5 x 213.84 = 320.76 us; 2049 B, 213.92 us, at 3 x 213.92 = 641.76 us. */
Test(comsys, a_size_on_a_bound_takes_that_steps_factor)
{
    static const double bytes[] = { 2048, 2049 }, later[] = { 320.76, 641.76 };

    for (int i = 0; i < 2; i++) {
        int r0;

        setup_factors(1);
        pz_comsys_send(cs, 0, 1, 7, 0, bytes[i], PZ_SEND_STANDARD, 0);
        r0 = pz_comsys_recv(cs, 0, 1, 7, 0, 0);
        pz_comsys_send(cs, 1, 0, 7, 0, bytes[i], PZ_SEND_STANDARD, 0);
        done_at(r0, US(later[i]), "the later of the two");
        pz_comsys_free(cs);
    }
}
