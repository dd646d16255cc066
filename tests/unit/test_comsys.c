/* MPI point-to-point protocols over a switch, by hand.  Hockney 50 us + bytes / 12.5
 * MB/s between nodes (1000 B: 50 + 80 = 130 us; 100000 B: 50 + 8000 = 8050 us; no
 * payload: 50 us), eager up to 64 KiB, one process per node unless said otherwise. */
#include <criterion/criterion.h>

#include "comsys.h"

#define US(x) ((x) * 1e-6)
#define EPS 1e-12

static struct pz_machine m;
static struct pz_comsys *cs;

static void setup(int procs_per_node)
{
    pz_machine_defaults(&m);
    m.network = PZ_NET_SWITCH;
    m.latency = 50e-6;
    m.bandwidth = 12.5e6;
    m.eager_threshold = 65536;
    m.procs_per_node = procs_per_node;
    m.shm_latency = 1e-6;
    m.shm_bandwidth = 5e9;
    cs = pz_comsys_new(&m, 4);
    cr_assert(cs);
}

static void done_at(int request, double want, const char *what)
{
    double got = pz_comsys_done(cs, request);

    cr_assert_float_eq(got, want, EPS, "%s: done at %.9f, not %.9f", what, got, want);
}

/* Eager: the data arrives at 130 us, the receive posted at 1 ms completes then; the
 * send completed when posted. */
Test(comsys, eager_with_a_late_receiver)
{
    int s, r;

    setup(1);
    s = pz_comsys_send(cs, 0, 1, 7, 0, 1000, 0, 0);
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
    s = pz_comsys_send(cs, 0, 1, 7, 0, 1000, 0, US(500));
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
    s = pz_comsys_send(cs, 0, 1, 7, 0, 100000, 0, 0);
    r = pz_comsys_recv(cs, 1, 0, 7, 0, US(1000));
    done_at(s, US(9100), "send");
    done_at(r, US(9100), "receive");
    pz_comsys_free(cs);
}

/* A synchronous send of 8 B goes by rendezvous: 50 (RTS) + 50 (CTS) + 50.64 (data). */
Test(comsys, synchronous_sends_always_rendezvous)
{
    int s;

    setup(1);
    pz_comsys_recv(cs, 1, 0, 7, 0, 0);
    s = pz_comsys_send(cs, 0, 1, 7, 0, 8, 1, 0);
    done_at(s, US(150.64), "Ssend");
    pz_comsys_free(cs);
}

/* Two processes per node: ranks 0 and 1 share node 0 and exchange through memory:
 * 1 us + 1000 B / 5 GB/s = 1.2 us. */
Test(comsys, one_node_goes_through_memory)
{
    int r;

    setup(2);
    pz_comsys_send(cs, 0, 1, 7, 0, 1000, 0, 0);
    r = pz_comsys_recv(cs, 1, 0, 7, 0, 0);
    done_at(r, US(1.2), "receive");
    pz_comsys_free(cs);
}

/* Messages of one sender, receiver, tag and communicator match in order; other tags
 * and communicators are other queues; unmatched requests are counted. */
Test(comsys, order_and_pending)
{
    int first, second, r1, r2;

    setup(1);
    first = pz_comsys_send(cs, 0, 1, 7, 0, 1000, 0, 0);
    second = pz_comsys_send(cs, 0, 1, 7, 0, 1000, 0, US(200));
    pz_comsys_send(cs, 0, 1, 8, 0, 1000, 0, US(300));
    pz_comsys_send(cs, 0, 1, 7, 1, 1000, 0, US(300));
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
