/* The match table of the communication model (model/match.h): a request matches
 * the oldest of its key when that one is of the other kind, else waits behind it; keys
 * that differ in any field never match; a removed request is skipped; the order holds
 * through the table's growth, through runs of slots that wrap around its end, and over
 * a long mixed sequence against per-key lists kept apart. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"

static struct pz_match_item item(int request, int is_send)
{
    return (struct pz_match_item){ request, is_send, request * 0.5 };
}

/* Posts request of key; returns the partner's request, or -1 if it waits. */
static int post(struct pz_match *m, struct pz_match_key key, int request, int is_send)
{
    struct pz_match_item partner = { -7, -7, -7 };
    int rc = pz_match_take_or_add(m, key, item(request, is_send), &partner);

    cr_assert_geq(rc, 0, "out of memory");
    if (rc == 0)
        return -1;
    cr_assert_eq(partner.is_send, !is_send);
    cr_assert_eq(partner.value, partner.request * 0.5);
    return partner.request;
}

Test(match, the_oldest_of_the_other_kind)
{
    struct pz_match m;
    struct pz_match_key k = { 1, 2, 3, 4 };

    cr_assert_eq(pz_match_init(&m, 4), 0);
    cr_assert_eq(post(&m, k, 10, 1), -1);
    cr_assert_eq(post(&m, k, 11, 1), -1);   /* behind 10 */
    cr_assert_eq(post(&m, k, 20, 0), 10);
    cr_assert_eq(post(&m, k, 21, 0), 11);
    cr_assert_eq(post(&m, k, 22, 0), -1);   /* no send left: the receive waits */
    cr_assert_eq(post(&m, k, 12, 1), 22);
    cr_assert_eq(m.n, 0);
    pz_match_release(&m);
}

Test(match, every_field_of_the_key_counts)
{
    struct pz_match m;
    struct pz_match_key k = { 1, 2, 3, 4 };
    struct pz_match_key others[] = { { 0, 2, 3, 4 }, { 1, 0, 3, 4 }, { 1, 2, 0, 4 },
                                     { 1, 2, 3, 0 } };

    cr_assert_eq(pz_match_init(&m, 4), 0);
    cr_assert_eq(post(&m, k, 1, 1), -1);
    for (int i = 0; i < 4; i++)
        cr_assert_eq(post(&m, others[i], 100 + i, 0), -1, "key %d matched", i);
    cr_assert_eq(post(&m, k, 2, 0), 1);
    for (int i = 0; i < 4; i++)
        cr_assert_eq(post(&m, others[i], 200 + i, 1), 100 + i);
    pz_match_release(&m);
}

Test(match, a_removed_request_is_skipped)
{
    struct pz_match m;
    struct pz_match_key k = { 0, 5, 6, 7 }, other = { 0, 5, 6, 8 };

    cr_assert_eq(pz_match_init(&m, 1), 0);
    cr_assert_eq(post(&m, k, 1, 0), -1);
    cr_assert_eq(post(&m, k, 2, 0), -1);
    cr_assert_eq(post(&m, k, 3, 0), -1);
    cr_assert_eq(pz_match_remove(&m, &k, 2), 0);
    cr_assert_eq(pz_match_remove(&m, &k, 2), -1);       /* no longer there */
    cr_assert_eq(pz_match_remove(&m, &other, 1), -1);   /* not of that key */
    cr_assert_eq(post(&m, k, 4, 1), 1);
    cr_assert_eq(post(&m, k, 5, 1), 3);
    cr_assert_eq(post(&m, k, 6, 1), -1);
    pz_match_release(&m);
}

/* 30 requests of one key fill a run of 30 slots from their home; removing from its
 * middle and start keeps the others in order, the run wrapping around the end of the
 * 64 slots or not. */
Test(match, a_long_run_keeps_its_order)
{
    for (int tag = 0; tag < 64; tag++) {
        struct pz_match m;
        struct pz_match_key k = { 3, 1, 2, tag };

        cr_assert_eq(pz_match_init(&m, 1), 0);
        cr_assert_eq(m.mask, 63);
        for (int r = 0; r < 30; r++)
            cr_assert_eq(post(&m, k, r, 1), -1);
        cr_assert_eq(pz_match_remove(&m, &k, 15), 0);
        cr_assert_eq(pz_match_remove(&m, &k, 0), 0);
        for (int r = 1; r < 30; r++)
            if (r != 15)
                cr_assert_eq(post(&m, k, 100 + r, 0), r, "tag %d", tag);
        cr_assert_eq(m.n, 0);
        pz_match_release(&m);
    }
}

/* Three sends of each of 1000 keys, posted key after key round after round, so that the
 * table grows with every key's sends in it; then the receives take them in order. */
Test(match, the_order_holds_through_growth)
{
    struct pz_match m;

    cr_assert_eq(pz_match_init(&m, 1), 0);
    for (int round = 0; round < 3; round++)
        for (int key = 0; key < 1000; key++)
            cr_assert_eq(post(&m, (struct pz_match_key){ key % 7, key, key / 3, 0 },
                              round * 1000 + key, 1), -1);
    cr_assert_gt(m.mask + 1, 6000);
    for (int round = 0; round < 3; round++)
        for (int key = 999; key >= 0; key--)
            cr_assert_eq(post(&m, (struct pz_match_key){ key % 7, key, key / 3, 0 },
                              5000, 0), round * 1000 + key);
    cr_assert_eq(m.n, 0);
    pz_match_release(&m);
}

/* The definition itself: per key a list in posting order; a request matches its head
 * if that is of the other kind, else goes to its end; a removal takes a random one. */
#define KEYS 40
#define MAXQ 2000

struct model {
    int req[KEYS][MAXQ], send[KEYS][MAXQ], n[KEYS];
};

static struct pz_match_key key_of(int k)
{
    return (struct pz_match_key){ k % 3, k % 5, k % 7 + (k >= 35), k / 9 };
}

static int model_post(struct model *md, int k, int request, int is_send)
{
    int partner;

    if (md->n[k] == 0 || md->send[k][0] == is_send) {
        md->req[k][md->n[k]] = request;
        md->send[k][md->n[k]++] = is_send;
        return -1;
    }
    partner = md->req[k][0];
    md->n[k]--;
    memmove(md->req[k], md->req[k] + 1, (size_t)md->n[k] * sizeof(int));
    memmove(md->send[k], md->send[k] + 1, (size_t)md->n[k] * sizeof(int));
    return partner;
}

static int model_remove_nth(struct model *md, int k, int i)
{
    int request = md->req[k][i];

    md->n[k]--;
    memmove(md->req[k] + i, md->req[k] + i + 1, (size_t)(md->n[k] - i) * sizeof(int));
    memmove(md->send[k] + i, md->send[k] + i + 1, (size_t)(md->n[k] - i) * sizeof(int));
    return request;
}

Test(match, a_long_mixed_sequence_as_the_definition)
{
    static struct model md;
    struct pz_match m;

    srand(12345);
    cr_assert_eq(pz_match_init(&m, 2), 0);
    for (int request = 0; request < 40000; request++) {
        int k = rand() % KEYS;
        /* keys lean to one kind for a while, so that queues build up */
        int is_send = (rand() % 10 < 7) == ((request / 3000 + k) % 2);

        if (rand() % 8 == 0 && md.n[k] > 0) {
            int gone = model_remove_nth(&md, k, rand() % md.n[k]);
            struct pz_match_key key = key_of(k);

            cr_assert_eq(pz_match_remove(&m, &key, gone), 0, "request %d", gone);
            continue;
        }
        if (md.n[k] == MAXQ)
            continue;
        cr_assert_eq(post(&m, key_of(k), request, is_send), model_post(&md, k, request, is_send),
                     "request %d", request);
    }
    pz_match_release(&m);
}
