/* Networks: when transfers arrive, computed by hand.  Every case: 1250 B messages on
 * Hockney 50 us + 1250 B / 12.5 MB/s = 150 us on an idle link. */
#include <criterion/criterion.h>

#include "network.h"

#define US(x) ((x) * 1e-6)
#define EPS 1e-12

/* Criterion's float assertions evaluate their arguments twice: a transfer, which
 * reserves links, is made once here. */
static void arrives(struct pz_network *n, int src, int dst, double ready, double want,
                    const char *why)
{
    double got = pz_network_transfer(n, src, dst, 1250, ready);

    cr_assert_float_eq(got, want, EPS, "%d -> %d ready at %g: arrives at %g, not %g%s%s", src,
                       dst, ready, got, want, why[0] ? ": " : "", why);
}

static struct pz_machine machine(enum pz_network_kind kind, int channels)
{
    struct pz_machine m;

    pz_machine_defaults(&m);
    m.network = kind;
    m.channels = channels;
    m.latency = 50e-6;
    m.bandwidth = 12.5e6;
    m.shm_latency = 1e-6;
    m.shm_bandwidth = 1.25e9;
    return m;
}

/* Two transfers ready at once on a hub: the second waits for the first. */
Test(network, a_bus_serializes)
{
    struct pz_machine m = machine(PZ_NET_BUS, 1);
    struct pz_network *n = pz_network_new(&m, 4);

    arrives(n, 0, 1, 0, US(150), "");
    arrives(n, 2, 3, 0, US(300), "");
    arrives(n, 1, 0, US(400), US(550), "an idle bus again");
    pz_network_free(n);
}

/* Two channels carry two transfers at once; the third waits for the first to free. */
Test(network, channels_carry_transfers_at_once)
{
    struct pz_machine m = machine(PZ_NET_CHANNELS, 2);
    struct pz_network *n = pz_network_new(&m, 4);

    arrives(n, 0, 1, 0, US(150), "");
    arrives(n, 2, 3, 0, US(150), "");
    arrives(n, 1, 2, US(10), US(300), "");
    pz_network_free(n);
}

/* A switch: disjoint pairs at once; a shared sender or a shared receiver waits. */
Test(network, a_switch_contends_only_at_endpoints)
{
    struct pz_machine m = machine(PZ_NET_SWITCH, 1);
    struct pz_network *n = pz_network_new(&m, 4);

    arrives(n, 0, 1, 0, US(150), "");
    arrives(n, 2, 3, 0, US(150), "disjoint");
    arrives(n, 0, 2, 0, US(300), "node 0's link out is busy until 150");
    arrives(n, 3, 1, US(100), US(300), "node 1's link in is busy until 150");
    arrives(n, 1, 0, 0, US(150), "full duplex: node 0 receives while it sends");
    pz_network_free(n);
}

/* Node 0 sends to node 1, whose link in is busy with node 2's message until 150 us, then
 * to node 3, all ready at 0.  With the message waiting at its sender (switch_queue
 * sender, the default) node 0's link is held until its first message goes: 150-300 us,
 * then the second 300-450 us.  Waiting in the switch, node 0's link sends the first
 * 0-150 us, stored until node 1's link takes it 150-300 us (the same arrival), and the
 * second 150-300 us, at once after it. */
Test(network, a_switch_queues_at_the_sender_or_in_the_switch)
{
    for (int in_switch = 0; in_switch < 2; in_switch++) {
        struct pz_machine m = machine(PZ_NET_SWITCH, 1);
        struct pz_network *n;

        m.switch_queue = in_switch ? PZ_QUEUE_SWITCH : PZ_QUEUE_SENDER;
        n = pz_network_new(&m, 4);
        cr_assert_not_null(n);
        arrives(n, 2, 1, 0, US(150), "node 1's link busy until then");
        arrives(n, 0, 1, 0, US(300), "after node 2's, wherever it waits");
        arrives(n, 0, 3, 0, in_switch ? US(300) : US(450),
                in_switch ? "node 0's link free once the first is sent"
                          : "node 0's link held by the first until it went");
        pz_network_free(n);
    }
}

/* Processes of one node exchange through memory: 1 us + 1250 B / 1.25 GB/s = 2 us, and
 * take no link: a bus transfer at the same time is not delayed. */
Test(network, one_node_goes_through_memory)
{
    struct pz_machine m = machine(PZ_NET_BUS, 1);
    struct pz_network *n = pz_network_new(&m, 2);

    arrives(n, 1, 1, US(5), US(7), "");
    arrives(n, 0, 1, US(5), US(155), "");
    pz_network_free(n);
}

/* A switch whose two directions slow each other (duplex_factor 1.6): a transfer takes
 * 0.6 times longer for the time it overlaps traffic the other way at either node. */
Test(network, a_switch_with_a_duplex_factor)
{
    struct pz_machine m = machine(PZ_NET_SWITCH, 1);
    struct pz_network *n;

    m.duplex_factor = 1.6;
    n = pz_network_new(&m, 4);
    arrives(n, 0, 1, 0, US(150), "alone");
    arrives(n, 1, 0, 0, US(240), "150 us against 0 -> 1: 150 + 0.6 x 150");
    arrives(n, 2, 3, 0, US(150), "other nodes: no overlap");
    arrives(n, 0, 2, US(200), US(374), "node 0 receives until 240: 150 + 0.6 x 40");
    arrives(n, 3, 0, US(240), US(470.4), "node 0 sends until 374, from 240: 150 + 0.6 x 134");
    arrives(n, 1, 3, US(500), US(650), "node 3 sends no more: alone");
    pz_network_free(n);
}

/* With segments, each network takes a message's cost from its size's segment: up to
 * 1000 B 10 us + bytes / 100 MB/s, up to 2000 B 20 us + bytes / 50 MB/s.  1250 B fall
 * in the second: 20 + 25 = 45 us (not 150); 500 B in the first: 10 + 5 = 15 us.  On a
 * bus the second transfer waits for the first: 45 + 15 = 60 us; on a switch between
 * other nodes it does not: 15 us.  Through memory, shm_segments: up to 2000 B 0.5 us +
 * bytes / 2.5 GB/s: 1250 B in 0.5 + 0.5 = 1 us. */
Test(network, every_network_takes_the_cost_of_the_size_segment)
{
    enum pz_network_kind kinds[] = { PZ_NET_BUS, PZ_NET_CHANNELS, PZ_NET_SWITCH };
    double second[] = { US(60), US(60), US(15) };

    for (int i = 0; i < 3; i++) {
        struct pz_machine m = machine(kinds[i], 1);
        struct pz_network *n;
        double got;

        m.segments = (struct pz_segments){ 2, { { 1000, 10e-6, 100e6 }, { 2000, 20e-6, 50e6 } } };
        m.shm_segments = (struct pz_segments){ 1, { { 2000, 0.5e-6, 2.5e9 } } };
        n = pz_network_new(&m, 4);
        arrives(n, 0, 1, 0, US(45), "the second segment");
        got = pz_network_transfer(n, 2, 3, 500, 0);
        cr_assert_float_eq(got, second[i], EPS, "network %d: 500 B at %g", i, got);
        arrives(n, 2, 2, 0, US(1), "through memory");
        pz_network_free(n);
    }
}

/* With link_hold bytes and link_gap 10 us, a message holds each link for 10 us + 1250 B
 * / 12.5 MB/s = 110 us and still arrives 150 us after it starts (its 50 us of latency
 * are spent off the links).  On a bus a second transfer ready at 0 starts at 110 and
 * arrives at 260 (not 300); on two channels the third, ready at 10, takes the first
 * channel at 110 and arrives at 260; on a switch node 0's second message, to another
 * node, leaves at 110 and arrives at 260, and one into the busy node 1 from node 3,
 * ready at 100, waits for node 1's link until 110: 260. */
Test(network, links_held_for_the_bytes_let_the_latency_overlap)
{
    struct {
        enum pz_network_kind kind;
        int channels;
    } nets[] = { { PZ_NET_BUS, 1 }, { PZ_NET_CHANNELS, 2 }, { PZ_NET_SWITCH, 1 } };

    for (int i = 0; i < 3; i++) {
        struct pz_machine m = machine(nets[i].kind, nets[i].channels);
        struct pz_network *n;

        m.link_hold = PZ_HOLD_BYTES;
        m.link_gap = 10e-6;
        n = pz_network_new(&m, 4);
        cr_assert_not_null(n);
        arrives(n, 0, 1, 0, US(150), "alone: the whole time");
        if (nets[i].kind == PZ_NET_BUS) {
            arrives(n, 2, 3, 0, US(260), "the bus free at 110");
        } else if (nets[i].kind == PZ_NET_CHANNELS) {
            arrives(n, 2, 3, 0, US(150), "the second channel");
            arrives(n, 1, 2, US(10), US(260), "the first channel free at 110");
        } else {
            arrives(n, 0, 2, 0, US(260), "node 0's link out free at 110");
            arrives(n, 3, 1, US(100), US(260), "node 1's link in free at 110");
        }
        pz_network_free(n);
    }
}

/* The packet model's link time is its packets' bytes at the bandwidth: 1250 B in one
 * packet of 1500 B (78 B of header) hold the link link_gap 2 us + (1250 + 78) B / 12.5
 * MB/s = 108.24 us; two 1250 B messages from node 0 to nodes 1 and 2 of a switch arrive
 * the second 108.24 us after the first. */
Test(network, the_packet_model_holds_the_links_for_its_packets)
{
    struct pz_machine m = machine(PZ_NET_SWITCH, 1);
    struct pz_network *n;
    double first;

    m.cost_model = PZ_COST_PACKET;
    m.link_hold = PZ_HOLD_BYTES;
    m.link_gap = 2e-6;
    n = pz_network_new(&m, 3);
    first = pz_network_transfer(n, 0, 1, 1250, 0);
    arrives(n, 0, 2, 0, first + US(108.24), "after the first's packet");
    pz_network_free(n);
}
