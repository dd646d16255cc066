/* The request table: what a post remembers must come back exactly once at completion,
 * persistent requests survive completion, deletions keep the others reachable, and the
 * slots of a wait over requests of one handle take them by the program's variables. */
#include <criterion/criterion.h>
#include <string.h>

#include "requests.h"

static struct pz_request recv_from(int peer, int tag)
{
    return (struct pz_request){ .kind = PZ_REQ_RECV, .peer = peer, .tag = tag };
}

static struct pz_request_table *table;

static void new_table(void)
{
    table = pz_request_table_new();
}

TestSuite(requests, .init = new_table);

static MPI_Request handle(int i)
{
    return (MPI_Request)(0x2c000000 + i);
}

/* A call on the program's variable v alone (MPI_Wait, MPI_Start...). */
static struct pz_request_slots *alone(const MPI_Request *v)
{
    static struct pz_request_slots s;

    s = (struct pz_request_slots){ v, v, 1 };
    return &s;
}

static int find(const MPI_Request *v, struct pz_request *out)
{
    return pz_requests_find(table, alone(v), 0, out);
}

static int complete(const MPI_Request *v, struct pz_request *out)
{
    return pz_requests_complete(table, alone(v), 0, out);
}

Test(requests, completion_returns_the_post_once)
{
    struct pz_request in = recv_from(3, 7), out;
    MPI_Request v = handle(1);

    pz_requests_post(table, &v, &in);
    cr_assert(in.active);
    cr_assert(find(&v, &out));
    cr_assert_eq(out.peer, 3);
    cr_assert(complete(&v, &out));
    cr_assert_eq(out.id, in.id);
    cr_assert_eq(out.tag, 7);
    cr_assert_not(complete(&v, &out));
    cr_assert_not(find(&v, &out));
}

Test(requests, ids_are_distinct)
{
    struct pz_request a = recv_from(0, 0), b = recv_from(0, 0);
    MPI_Request va = handle(2), vb = handle(3);

    pz_requests_post(table, &va, &a);
    pz_requests_post(table, &vb, &b);
    cr_assert_neq(a.id, b.id);
}

/* Each thread's table takes ids from the process in blocks: still one id per request,
 * never one twice, whichever table posts it. */
Test(requests, ids_of_two_tables_are_distinct)
{
    struct pz_request_table *other = pz_request_table_new();
    uint64_t seen[64];
    MPI_Request v[64];

    for (int i = 0; i < 64; i++) {
        struct pz_request r = recv_from(0, 0);

        v[i] = handle(100 + i);
        pz_requests_post(i % 2 ? other : table, &v[i], &r);
        for (int j = 0; j < i; j++)
            cr_assert_neq(r.id, seen[j], "request %d has the id of request %d", i, j);
        seen[i] = r.id;
    }
}

/* MPICH gives every send that completed at once the same prebuilt handle; two posts at
 * one variable (an MPI_Isendrecv's halves) complete oldest first. */
Test(requests, one_handle_for_two_requests_completes_both_in_order)
{
    struct pz_request first = recv_from(1, 1), second = recv_from(2, 2), out;
    MPI_Request v = handle(5);

    pz_requests_post(table, &v, &first);
    pz_requests_post(table, &v, &second);
    cr_assert(complete(&v, &out));
    cr_assert_eq(out.id, first.id);
    cr_assert(complete(&v, &out));
    cr_assert_eq(out.id, second.id);
    cr_assert_not(complete(&v, &out));
}

Test(requests, persistent_requests_live_until_freed)
{
    struct pz_request p = { .kind = PZ_REQ_SEND, .persistent = 1, .peer = 4, .bytes = 80 }, out;
    uint64_t first;
    MPI_Request v = handle(9), moved;

    pz_requests_add(table, &v, &p);
    cr_assert_not(find(&v, &out), "inactive before MPI_Start");
    cr_assert(pz_requests_start(table, alone(&v), 0, &out));
    first = out.id;
    cr_assert(complete(&v, &out));
    cr_assert_eq(out.id, first);
    cr_assert_eq(out.bytes, 80);
    cr_assert_not(complete(&v, &out), "inactive after completion");
    moved = v;
    cr_assert(pz_requests_start(table, alone(&moved), 0, &out), "started from elsewhere");
    cr_assert_neq(out.id, first, "each activation has its own id");
    cr_assert(complete(&moved, &out));
    pz_requests_remove(table, alone(&v), 0);
    cr_assert_not(pz_requests_start(table, alone(&v), 0, &out));
}

Test(requests, cancel_is_remembered)
{
    struct pz_request r = recv_from(0, 0), out;
    MPI_Request v = handle(11);

    pz_requests_post(table, &v, &r);
    pz_requests_cancel(table, alone(&v), 0);
    cr_assert(complete(&v, &out));
    cr_assert(out.cancelled);
}

/* Many requests force the table to grow; removing every other one must leave the rest
 * reachable (deletion moves entries back along their probe sequence). */
Test(requests, thousands_survive_growth_and_deletion)
{
    enum { N = 5000 };
    static MPI_Request v[N];
    struct pz_request out;

    for (int i = 0; i < N; i++) {
        struct pz_request r = recv_from(i, i % 100);

        v[i] = handle(1000 + i);
        pz_requests_post(table, &v[i], &r);
    }
    for (int i = 0; i < N; i += 2)
        pz_requests_remove(table, alone(&v[i]), 0);
    for (int i = 0; i < N; i++) {
        int found = find(&v[i], &out);

        cr_assert_eq(found, i % 2, "request %d", i);
        if (found)
            cr_assert_eq(out.peer, i);
    }
    for (int i = 1; i < N; i += 2)
        cr_assert(complete(&v[i], &out));
    cr_assert_not(find(&v[1], &out));
}

/* The halo exchange of a stencil at the grid's edge, MPI_Waitall over [Irecv from
 * MPI_PROC_NULL, Isend to MPI_PROC_NULL, Irecv, Isend]: MPICH gives the send to
 * MPI_PROC_NULL and the real send, completed at once, one handle H (the recorder keeps
 * nothing for MPI_PROC_NULL).  Slot 1 holds H but nothing was posted at req[1], and
 * the only request of H was posted at req[3], which holds H too: slot 3 claims it, slot
 * 1 takes nothing, and the completions follow the array: the receive, then the send. */
Test(requests, a_proc_null_slot_leaves_the_request_of_its_handle_to_its_own_slot)
{
    MPI_Request h = handle(40), req[4] = { handle(41), h, handle(42), h }, kept[4];
    struct pz_request recv = recv_from(1, 0), send = { .kind = PZ_REQ_SEND, .peer = 1 }, out;
    struct pz_request_slots s = { req, kept, 4 };

    pz_requests_post(table, &req[2], &recv);
    pz_requests_post(table, &req[3], &send);
    memcpy(kept, req, sizeof(req));
    cr_assert_not(pz_requests_complete(table, &s, 0, &out));
    cr_assert_not(pz_requests_complete(table, &s, 1, &out), "slot 3 claims H's request");
    cr_assert(pz_requests_complete(table, &s, 2, &out));
    cr_assert_eq(out.id, recv.id);
    cr_assert(pz_requests_complete(table, &s, 3, &out));
    cr_assert_eq(out.id, send.id);
}

/* MPI_Waitany returns slot 1 alone (complete from the start): slot 3, not completed by
 * this call, still claims the request posted at its variable. */
Test(requests, a_slot_not_completed_keeps_its_claim)
{
    MPI_Request h = handle(43), req[4] = { MPI_REQUEST_NULL, h, MPI_REQUEST_NULL, h };
    struct pz_request send = { .kind = PZ_REQ_SEND, .peer = 1 }, out;
    struct pz_request_slots s = { req, req, 4 };

    pz_requests_post(table, &req[3], &send);
    cr_assert_not(pz_requests_complete(table, &s, 1, &out));
    cr_assert(pz_requests_complete(table, &s, 3, &out));
    cr_assert_eq(out.id, send.id);
}

/* Two sends of handle H posted at a[0] then a[1]; the program waits on a copy b of its
 * array: no request was posted at b's variables, none is claimed, and b's slots take
 * H's requests oldest first, as if matched by handle alone. */
Test(requests, copied_handles_complete_oldest_first)
{
    MPI_Request h = handle(44), a[2] = { h, h }, b[2];
    struct pz_request first = recv_from(1, 1), second = recv_from(2, 2), out;
    struct pz_request_slots s = { b, b, 2 };

    pz_requests_post(table, &a[0], &first);
    pz_requests_post(table, &a[1], &second);
    memcpy(b, a, sizeof(a));
    cr_assert(pz_requests_complete(table, &s, 0, &out));
    cr_assert_eq(out.id, first.id);
    cr_assert(pz_requests_complete(table, &s, 1, &out));
    cr_assert_eq(out.id, second.id);
}

/* Posted at req[1] first and req[0] second: each slot takes the one at its variable,
 * not the oldest of the handle. */
Test(requests, a_slot_takes_the_request_posted_at_its_variable)
{
    MPI_Request h = handle(45), req[2] = { h, h };
    struct pz_request first = recv_from(1, 1), second = recv_from(2, 2), out;
    struct pz_request_slots s = { req, req, 2 };

    pz_requests_post(table, &req[1], &first);
    pz_requests_post(table, &req[0], &second);
    cr_assert(pz_requests_complete(table, &s, 0, &out));
    cr_assert_eq(out.id, second.id);
    cr_assert(pz_requests_complete(table, &s, 1, &out));
    cr_assert_eq(out.id, first.id);
}

/* Two requests of H posted at one variable that is now slot 1 of a call whose slot 0
 * holds H too (a binding that posts through one local variable, whose address a later
 * array reuses): slot 1 claims the oldest alone, so slot 0 takes the second and none is
 * left behind. */
Test(requests, a_slot_claims_only_the_oldest_request_at_its_variable)
{
    MPI_Request h = handle(46), req[2] = { h, h };
    struct pz_request first = recv_from(1, 1), second = recv_from(2, 2), out;
    struct pz_request_slots s = { req, req, 2 };

    pz_requests_post(table, &req[1], &first);
    pz_requests_post(table, &req[1], &second);
    cr_assert(pz_requests_complete(table, &s, 0, &out));
    cr_assert_eq(out.id, second.id);
    cr_assert(pz_requests_complete(table, &s, 1, &out));
    cr_assert_eq(out.id, first.id);
}

/* MPI_Request_free of one of two sends of handle H frees the one of its variable. */
Test(requests, free_removes_the_request_of_its_variable)
{
    MPI_Request h = handle(47), a = h, b = h;
    struct pz_request first = recv_from(1, 1), second = recv_from(2, 2), out;

    pz_requests_post(table, &a, &first);
    pz_requests_post(table, &b, &second);
    pz_requests_remove(table, alone(&b), 0);
    cr_assert(complete(&a, &out));
    cr_assert_eq(out.id, first.id);
    cr_assert_not(complete(&b, &out));
}
