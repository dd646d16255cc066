/* The spool gives back every record of every process exactly as it was appended:
 * usual and unusual field values, times that go back, the largest numbers, processes
 * without records, and more records than one read buffer holds. */
#include <criterion/criterion.h>
#include <string.h>

#include "spool.h"

/* Record i of process p: fields cycle through zero, small, usual-none and huge values. */
static struct pz_rec record(int p, int i)
{
    static const uint64_t values[] = { 0, 1, 127, 128, 300, PZ_NONE32, PZ_NONE64,
                                       (uint64_t)1 << 40 };
    struct pz_rec r = { .time = 1000000000ull + (uint64_t)i * 37 - (i % 5 == 4 ? 90 : 0),
                        .kind = (uint8_t)(i % 15), .coll_op = (uint8_t)(i % 17) };
    uint64_t v = values[(i + p) % 8];

    r.region = (uint32_t)v;
    r.comm = (uint32_t)(i * 3);
    r.peer = i % 2 ? PZ_NONE32 : (uint32_t)p;
    r.tag = (uint32_t)values[i % 8];
    r.bytes = values[(i + 1) % 8];
    r.bytes2 = values[(i + 2) % 8];
    r.request = (uint64_t)i * 1000003;
    r.callsite = i % 3 ? PZ_NONE32 : (uint32_t)i;
    r.send_list = i % 4 ? PZ_NONE32 : 7;
    r.recv_list = i % 6 ? PZ_NONE32 : 9;
    r.cpu = i % 2 ? PZ_NONE64 : (uint64_t)i * 999;
    r.any_source = (uint8_t)(i % 5 == 1);
    return r;
}

static int same(const struct pz_rec *a, const struct pz_rec *b)
{
    return a->time == b->time && a->kind == b->kind && a->coll_op == b->coll_op &&
           a->region == b->region && a->comm == b->comm && a->peer == b->peer &&
           a->tag == b->tag && a->bytes == b->bytes && a->bytes2 == b->bytes2 &&
           a->request == b->request && a->callsite == b->callsite &&
           a->send_list == b->send_list && a->recv_list == b->recv_list && a->cpu == b->cpu &&
           a->any_source == b->any_source;
}

Test(spool, every_record_comes_back_per_process)
{
    const int counts[4] = { 5000, 0, 1, 70000 };
    char err[256];
    struct pz_spool *s = pz_spool_new(4, err, sizeof(err));
    struct pz_rec got;

    cr_assert(s, "%s", err);
    for (int p = 0; p < 4; p++)
        for (int i = 0; i < counts[p]; i++) {
            struct pz_rec r = record(p, i);

            cr_assert_eq(pz_spool_append(s, p, &r), 0);
        }
    cr_assert_eq(pz_spool_finish(s), 0);
    cr_assert_lt(pz_spool_bytes(s), (size_t)75001 * 40, "compact: under 40 bytes a record");
    /* read the processes interleaved, as the replay does */
    for (int i = 0; i < 70000; i++)
        for (int p = 3; p >= 0; p--) {
            struct pz_rec want = record(p, i);

            if (i >= counts[p]) {
                cr_assert_eq(pz_spool_next(s, p, &got), 0, "process %d ends at %d", p, i);
                continue;
            }
            cr_assert_eq(pz_spool_next(s, p, &got), 1, "process %d record %d", p, i);
            cr_assert(same(&got, &want), "process %d record %d differs", p, i);
        }
    pz_spool_free(s);
}

/* Added in any interleaving (a round adds one record to each process still going, the
 * last first, and the process of 70000 records six), each process's records come
 * back in its order: 70000 records of 7 to 40 bytes fill its 4 KiB buffer hundreds of
 * times, so that they lie in many extents between the others'. */
Test(spool, records_added_interleaved_come_back_per_process)
{
    const int counts[4] = { 5000, 0, 1, 70000 };
    int added[4] = { 0 };
    char err[256];
    struct pz_spool *s = pz_spool_new(4, err, sizeof(err));
    struct pz_rec got;
    int left = 1;

    cr_assert(s, "%s", err);
    while (left) {
        left = 0;
        for (int p = 3; p >= 0; p--)
            for (int k = 0; k < (p == 3 ? 6 : 1) && added[p] < counts[p]; k++, added[p]++) {
                struct pz_rec r = record(p, added[p]);

                cr_assert_eq(pz_spool_add(s, p, &r), 0);
                left = 1;
            }
    }
    cr_assert_eq(pz_spool_finish(s), 0);
    for (int p = 0; p < 4; p++) {
        for (int i = 0; i < counts[p]; i++) {
            struct pz_rec want = record(p, i);

            cr_assert_eq(pz_spool_next(s, p, &got), 1, "process %d record %d", p, i);
            cr_assert(same(&got, &want), "process %d record %d differs", p, i);
        }
        cr_assert_eq(pz_spool_next(s, p, &got), 0, "process %d ends at %d", p, counts[p]);
    }
    pz_spool_free(s);
}

Test(spool, an_unusable_directory_is_named)
{
    char err[512];
    struct pz_spool *s;

    setenv("TMPDIR", "/nonexistent/dir", 1);
    s = pz_spool_new(1, err, sizeof(err));
    unsetenv("TMPDIR");
    cr_assert_null(s);
    cr_assert(strstr(err, "/nonexistent/dir"), "%s", err);
}
