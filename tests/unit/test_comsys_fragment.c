/* A rendezvous whose first fragment travels with its request (the machine key
 * rendezvous_first_fragment, Open MPI's ob1), by hand.  The machine: a switch, one
 * process per node, eager up to 64 KiB, and two segments so that the protocols' shapes
 * differ in time (with one Hockney line, t(F) + L + t(B - F) = 3 L + B / bw, MPICH's
 * time):
 *   up to 65536 B:  50 us + bytes / 12.5 MB/s   (60000 B: 4850 us; 40000 B: 3250 us;
 *                                                8 B: 50.64 us; no payload: 50 us)
 *   beyond:         50 us + bytes / 25 MB/s     (100000 B: 4050 us)
 * Control messages (request-to-send, clear-to-send) take the 0-byte time, 50 us.  The
 * first fragment is 60000 B; a message of 100000 B leaves 40000 B for after the
 * clear-to-send. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coll.h"
#include "comsys.h"
#include "switch_machine.h"

#define US(x) ((x) * 1e-6)
#define EPS 1e-12
#define BYTES 100000
#define FRAGMENT 60000

static struct pz_machine m;
static struct pz_comsys *cs;

static void setup(double first_fragment)
{
    switch_machine(&m, 1);
    m.segments.n = 2;
    m.segments.seg[0] = (struct pz_segment){ 65536, 50e-6, 12.5e6 };
    m.segments.seg[1] = (struct pz_segment){ 1e9, 50e-6, 25e6 };
    m.rendezvous_first_fragment = first_fragment;
    cs = pz_comsys_new(&m, 2);
    cr_assert(cs);
}

static void done_at(int request, double want, const char *what)
{
    double got = pz_comsys_wait(cs, 1, &request, 0);

    cr_assert_float_eq(got, want, EPS, "%s: done at %.9f, not %.9f", what, got, want);
}

/* Receive posted first (at 0), send at 0.  With the fragment: the request and 60000 B
 * arrive at 4850 us; the receive is there, so the clear-to-send leaves at once and
 * arrives at 4900; the other 40000 B take 3250 us: both complete at 8150 us.  Key 0
 * (MPICH's): request-to-send at 50, clear-to-send at 100, all 100000 B by the second
 * segment, 4050 us: 4150 us. */
Test(comsys_fragment, the_rest_follows_the_clear_to_send)
{
    const double want[2] = { US(4150), US(8150) };

    for (int k = 0; k < 2; k++) {
        int r, s;

        setup(k ? FRAGMENT : 0);
        r = pz_comsys_recv(cs, 1, 0, 7, 0, 0);
        s = pz_comsys_send(cs, 0, 1, 7, 0, BYTES, PZ_SEND_STANDARD, 0);
        done_at(r, want[k], "receive");
        done_at(s, want[k], "send");
        pz_comsys_free(cs);
    }
}

/* Receive posted late, at 6000 us.  With the fragment: it arrived at 4850 and waited
 * at the receiver; the clear-to-send leaves at 6000, arrives at 6050, and the 40000 B
 * left arrive at 6050 + 3250 = 9300 us.  Key 0: the request waited from 50; the
 * clear-to-send arrives at 6050 and the whole message at 6050 + 4050 = 10100 us. */
Test(comsys_fragment, a_late_receive_finds_the_fragment_there)
{
    const double want[2] = { US(10100), US(9300) };

    for (int k = 0; k < 2; k++) {
        int r, s;

        setup(k ? FRAGMENT : 0);
        s = pz_comsys_send(cs, 0, 1, 7, 0, BYTES, PZ_SEND_STANDARD, 0);
        r = pz_comsys_recv(cs, 1, 0, 7, 0, US(6000));
        done_at(r, want[k], "receive");
        done_at(s, want[k], "send");
        pz_comsys_free(cs);
    }
}

/* The two processes on one node (procs_per_node 2): Open MPI's shared memory sends no
 * fragment ahead, so the message goes as with key 0, through memory, whatever the key:
 * the receive posted late at 6000 us ends at the same time with and without it. */
Test(comsys_fragment, one_node_sends_no_fragment)
{
    double got[2];

    for (int k = 0; k < 2; k++) {
        int r, s;

        switch_machine(&m, 2);
        m.rendezvous_first_fragment = k ? FRAGMENT : 0;
        cr_assert(cs = pz_comsys_new(&m, 2));
        s = pz_comsys_send(cs, 0, 1, 7, 0, BYTES, PZ_SEND_STANDARD, 0);
        r = pz_comsys_recv(cs, 1, 0, 7, 0, US(6000));
        got[k] = pz_comsys_wait(cs, 1, &r, 0);
        pz_comsys_wait(cs, 0, &s, 0);
        pz_comsys_free(cs);
    }
    cr_assert_gt(got[0], US(6000), "the receive ends after it is posted");
    cr_assert_float_eq(got[1], got[0], EPS, "with the key %.9f, without %.9f", got[1], got[0]);
}

/* An exchange both ways (MPI_Sendrecv-like): process 0 posts its receive and its send at
 * 0, process 1 at 1000 us.  The switch's directions share no link.  With the fragment:
 * 0's fragment arrives at 4850 (1's receive is posted), its clear-to-send at 4900, its
 * rest at 8150; 1's fragment leaves at 1000 and arrives at 5850 (0's receive is
 * posted), its clear-to-send at 5900, its rest at 9150.  Key 0: 0's request arrives at
 * 50 and waits for 1's receive (1000): clear-to-send at 1050, data at 1050 + 4050 =
 * 5100; 1's request at 1050, clear-to-send at 1100, data at 5150. */
Test(comsys_fragment, an_exchange_both_ways)
{
    const double want[2][2] = { { US(5100), US(5150) }, { US(8150), US(9150) } };

    for (int k = 0; k < 2; k++) {
        int r0, s0, r1, s1;

        setup(k ? FRAGMENT : 0);
        r0 = pz_comsys_recv(cs, 0, 1, 7, 0, 0);
        s0 = pz_comsys_send(cs, 0, 1, 7, 0, BYTES, PZ_SEND_STANDARD, 0);
        r1 = pz_comsys_recv(cs, 1, 0, 7, 0, US(1000));
        s1 = pz_comsys_send(cs, 1, 0, 7, 0, BYTES, PZ_SEND_STANDARD, US(1000));
        done_at(s0, want[k][0], "process 0's send");
        done_at(r1, want[k][0], "process 1's receive");
        done_at(s1, want[k][1], "process 1's send");
        done_at(r0, want[k][1], "process 0's receive");
        pz_comsys_free(cs);
    }
}

/* Progress only in calls: process 1 posts its receive at 0 inside a call it leaves at
 * once, and computes until it enters its next call at 6000 us.  The fragment still
 * arrives at 4850 (it needs no step of the receiver's), but the clear-to-send is the
 * receiver's step: it goes at 6000, arrives at 6050, and the rest at 9300 us.  Key 0:
 * the request arrived at 50 and the clear-to-send waits for the call as well: 6050 +
 * 4050 = 10100 us. */
Test(comsys_fragment, in_calls_the_clear_to_send_waits_for_the_receivers_call)
{
    const double want[2] = { US(10100), US(9300) };

    for (int k = 0; k < 2; k++) {
        int r, call;

        setup(k ? FRAGMENT : 0);
        m.progress = PZ_PROGRESS_IN_CALLS;
        pz_comsys_free(cs);
        cs = pz_comsys_new(&m, 2);
        cr_assert(cs);
        call = pz_comsys_enter(cs, 1, 0);
        r = pz_comsys_recv(cs, 1, 0, 7, 0, 0);
        pz_comsys_leave(cs, 1, call, 0);
        pz_comsys_send(cs, 0, 1, 7, 0, BYTES, PZ_SEND_STANDARD, 0);
        pz_comsys_enter(cs, 1, US(6000));
        done_at(r, want[k], "receive");
        pz_comsys_free(cs);
    }
}

/* The fragment is data on the links: a second message from 0 to 1 sent at 100 us
 * (eager, 1000 B: 130 us alone) waits for the link until the fragment has arrived at
 * 4850 us and arrives at 4980 us.  Key 0: the request is a control message that holds
 * no link, the eager message arrives at 230 us. */
Test(comsys_fragment, the_fragment_holds_the_link)
{
    const double want[2] = { US(230), US(4980) };

    for (int k = 0; k < 2; k++) {
        int r;

        setup(k ? FRAGMENT : 0);
        pz_comsys_send(cs, 0, 1, 7, 0, BYTES, PZ_SEND_STANDARD, 0);
        pz_comsys_send(cs, 0, 1, 8, 0, 1000, PZ_SEND_STANDARD, US(100));
        r = pz_comsys_recv(cs, 1, 0, 8, 0, US(100));
        done_at(r, want[k], "the eager message behind it");
        pz_comsys_free(cs);
    }
}

/* A synchronous send of 8 B, receive posted first: the fragment holds it whole.  It
 * arrives with the request at 50.64 us, when the receive completes; the clear-to-send
 * tells the sender, which completes when it arrives, at 100.64 us.  Key 0: request 50,
 * clear-to-send 100, data 50.64: both at 150.64 us. */
Test(comsys_fragment, a_message_the_fragment_holds_whole)
{
    const double want[2][2] = { { US(150.64), US(150.64) }, { US(50.64), US(100.64) } };

    for (int k = 0; k < 2; k++) {
        int r, s;

        setup(k ? FRAGMENT : 0);
        r = pz_comsys_recv(cs, 1, 0, 7, 0, 0);
        s = pz_comsys_send(cs, 0, 1, 7, 0, 8, PZ_SEND_SYNCHRONOUS, 0);
        done_at(r, want[k][0], "receive");
        done_at(s, want[k][1], "send");
        pz_comsys_free(cs);
    }
}

/* Eager messages do not change: 1000 B arrive at 50 + 80 = 130 us either way. */
Test(comsys_fragment, eager_messages_are_unchanged)
{
    for (int k = 0; k < 2; k++) {
        setup(k ? FRAGMENT : 0);
        pz_comsys_send(cs, 0, 1, 7, 0, 1000, PZ_SEND_STANDARD, 0);
        done_at(pz_comsys_recv(cs, 1, 0, 7, 0, 0), US(130), "receive");
        pz_comsys_free(cs);
    }
}

/* A collective's rendezvous message takes the same protocol: a binomial broadcast of
 * 100000 B between 2 processes, both at 0, is one message from the root, received at
 * 8150 us with the fragment (as the first test) and 4150 without; the root's part is
 * done when its send is. */
Test(comsys_fragment, a_collectives_message_sends_its_fragment_too)
{
    const double want[2] = { US(4150), US(8150) };
    struct pz_coll c = { .op = PZ_COLL_BCAST, .root = 0, .bytes = BYTES, .size = 2 };
    int procs[2] = { 0, 1 };

    for (int k = 0; k < 2; k++) {
        int comm, parts[2];

        setup(k ? FRAGMENT : 0);
        pz_comsys_force(cs, pz_coll_named(PZ_COLL_BCAST, "binomial"));
        comm = pz_comsys_comm(cs, 2, procs);
        for (c.me = 0; c.me < 2; c.me++)
            parts[c.me] = pz_comsys_collective(cs, comm, &c, 0);
        done_at(parts[1], want[k], "the member's receive");
        done_at(parts[0], want[k], "the root's send");
        pz_comsys_free(cs);
    }
}

/* The key: 0 by default and not written then (a machine without it writes and predicts
 * as before it existed); read in the units of sizes (64KiB = 65536 B), written back
 * when set, and a negative size refused with the file and line. */
Test(comsys_fragment, the_key_is_read_and_written_only_when_set)
{
    char path[] = "/tmp/pz_fragment_XXXXXX", err[512], *text = NULL;
    size_t len = 0;
    FILE *f;
    int fd = mkstemp(path);

    cr_assert_geq(fd, 0);
    switch_machine(&m, 1);
    cr_assert_eq(m.rendezvous_first_fragment, 0, "none by default");
    cr_assert((f = open_memstream(&text, &len)));
    cr_assert_eq(pz_machine_write(f, &m), 0);
    fclose(f);
    cr_assert_null(strstr(text, "rendezvous_first_fragment"), "0: not written");
    free(text);
    cr_assert_eq(write(fd, "rendezvous_first_fragment = 64KiB\n", 34), 34);
    cr_assert_eq(pz_machine_load(path, &m, err, sizeof(err)), 0, "%s", err);
    cr_assert_eq(m.rendezvous_first_fragment, 65536);
    cr_assert((f = open_memstream(&text, &len)));
    cr_assert_eq(pz_machine_write(f, &m), 0);
    fclose(f);
    cr_assert_not_null(strstr(text, "\nrendezvous_first_fragment = 65536 B\n"), "%s", text);
    free(text);
    cr_assert_eq(ftruncate(fd, 0), 0);
    cr_assert_eq(pwrite(fd, "rendezvous_first_fragment = -1B\n", 32, 0), 32);
    cr_assert_neq(pz_machine_load(path, &m, err, sizeof(err)), 0, "a negative size");
    cr_assert_not_null(strstr(err, ":1:"), "%s", err);
    close(fd);
    unlink(path);
}
