/* The request table: what a post remembers must come back exactly once at completion,
 * persistent requests survive completion, and deletions keep the others reachable. */
#include <criterion/criterion.h>

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

Test(requests, completion_returns_the_post_once)
{
    struct pz_request in = recv_from(3, 7), out;

    pz_requests_post(table, handle(1), &in);
    cr_assert(in.active);
    cr_assert(pz_requests_find(table, handle(1), &out));
    cr_assert_eq(out.peer, 3);
    cr_assert(pz_requests_complete(table, handle(1), &out));
    cr_assert_eq(out.id, in.id);
    cr_assert_eq(out.tag, 7);
    cr_assert_not(pz_requests_complete(table, handle(1), &out));
    cr_assert_not(pz_requests_find(table, handle(1), &out));
}

Test(requests, ids_are_distinct)
{
    struct pz_request a = recv_from(0, 0), b = recv_from(0, 0);

    pz_requests_post(table, handle(2), &a);
    pz_requests_post(table, handle(3), &b);
    cr_assert_neq(a.id, b.id);
}

/* Each thread's table takes ids from the process in blocks: still one id per request,
 * never one twice, whichever table posts it. */
Test(requests, ids_of_two_tables_are_distinct)
{
    struct pz_request_table *other = pz_request_table_new();
    uint64_t seen[64];

    for (int i = 0; i < 64; i++) {
        struct pz_request r = recv_from(0, 0);

        pz_requests_post(i % 2 ? other : table, handle(100 + i), &r);
        for (int j = 0; j < i; j++)
            cr_assert_neq(r.id, seen[j], "request %d has the id of request %d", i, j);
        seen[i] = r.id;
    }
}

/* MPICH gives every send that completed at once the same prebuilt handle. */
Test(requests, one_handle_for_two_requests_completes_both_in_order)
{
    struct pz_request first = recv_from(1, 1), second = recv_from(2, 2), out;

    pz_requests_post(table, handle(5), &first);
    pz_requests_post(table, handle(5), &second);
    cr_assert(pz_requests_complete(table, handle(5), &out));
    cr_assert_eq(out.id, first.id);
    cr_assert(pz_requests_complete(table, handle(5), &out));
    cr_assert_eq(out.id, second.id);
    cr_assert_not(pz_requests_complete(table, handle(5), &out));
}

Test(requests, persistent_requests_live_until_freed)
{
    struct pz_request p = { .kind = PZ_REQ_SEND, .persistent = 1, .peer = 4, .bytes = 80 }, out;
    uint64_t first;

    pz_requests_add(table, handle(9), &p);
    cr_assert_not(pz_requests_find(table, handle(9), &out), "inactive before MPI_Start");
    cr_assert(pz_requests_start(table, handle(9), &out));
    first = out.id;
    cr_assert(pz_requests_complete(table, handle(9), &out));
    cr_assert_eq(out.id, first);
    cr_assert_eq(out.bytes, 80);
    cr_assert_not(pz_requests_complete(table, handle(9), &out), "inactive after completion");
    cr_assert(pz_requests_start(table, handle(9), &out));
    cr_assert_neq(out.id, first, "each activation has its own id");
    pz_requests_remove(table, handle(9));
    cr_assert_not(pz_requests_start(table, handle(9), &out));
}

Test(requests, cancel_is_remembered)
{
    struct pz_request r = recv_from(0, 0), out;

    pz_requests_post(table, handle(11), &r);
    pz_requests_cancel(table, handle(11));
    cr_assert(pz_requests_complete(table, handle(11), &out));
    cr_assert(out.cancelled);
}

/* Many requests force the table to grow; removing every other one must leave the rest
 * reachable (deletion moves entries back along their probe sequence). */
Test(requests, thousands_survive_growth_and_deletion)
{
    enum { N = 5000 };
    struct pz_request out;

    for (int i = 0; i < N; i++) {
        struct pz_request r = recv_from(i, i % 100);

        pz_requests_post(table, handle(1000 + i), &r);
    }
    for (int i = 0; i < N; i += 2)
        pz_requests_remove(table, handle(1000 + i));
    for (int i = 0; i < N; i++) {
        int found = pz_requests_find(table, handle(1000 + i), &out);

        cr_assert_eq(found, i % 2, "request %d", i);
        if (found)
            cr_assert_eq(out.peer, i);
    }
    for (int i = 1; i < N; i += 2)
        cr_assert(pz_requests_complete(table, handle(1000 + i), &out));
    cr_assert_not(pz_requests_find(table, handle(1001), &out));
}
