/* The per-thread record buffer, without MPI: a struct pz_thread built by hand (as in
 * test_markers.c) with a buffer the test allocates, followed by guard bytes that must
 * stay untouched.  Records are appended by pz_thread_commit and by the inline path of
 * every wrapper (pz_call_enter ... pz_call_leave of hooks.h).  No archive is open in
 * this process, so the thread's writer stays NULL and a flush writes nothing: what does
 * not fit is dropped and counted (thread.h).  One test gives the thread a real OTF2
 * writer to see a flush happen.
 *
 * Sizes by hand (x86_64): a record header is 24 bytes (enter 8, leave 8, call 2,
 * nitems 2, aux 4), an item 48 (kind 1, collective 1, flags 2, comm 4, peer 4, tag 4,
 * request 8, bytes 8, bytes_received 8, send_counts 4, recv_counts 4), a call site 8. */
#include <criterion/criterion.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <otf2/otf2.h>

#include "calls_gen.h"
#include "hooks.h"
#include "record.h"
#include "thread.h"

#define HDR 24
#define ITEM 48
#define SITE 8
#define GUARD 256

static struct pz_thread t;

/* A thread whose buffer holds cap bytes; GUARD bytes of 0xA5 follow it. */
static void fresh(size_t cap)
{
    memset(&t, 0, sizeof(t));
    t.buf = malloc(cap + GUARD);
    cr_assert_not_null(t.buf);
    memset(t.buf, 0xA5, cap + GUARD);
    t.cap = cap;
    t.items_cap = 8;
    t.items = malloc(t.items_cap * sizeof(struct pz_item));
    cr_assert_not_null(t.items);
    pz_thread_current = &t;
    pz_record_sites = 0;
}

static int guard_intact(void)
{
    for (size_t i = 0; i < GUARD; i++)
        if (t.buf[t.cap + i] != 0xA5)
            return 0;
    return 1;
}

static const struct pz_record *at(size_t off)
{
    return (const struct pz_record *)(t.buf + off);
}

/* The records of the buffer as "CALL@ENTER-LEAVE/NITEMS" (F for a flush mark), and
 * checks that they end exactly at t.used. */
static void expect_records(const char *want)
{
    char got[1024] = "";
    size_t pos = 0, len = 0;

    while (pos < t.used) {
        const struct pz_record *r = at(pos);

        if (r->call == PZ_RECORD_FLUSH)
            len += (size_t)snprintf(got + len, sizeof(got) - len, "%sF@%lu-%lu",
                                    len ? " " : "", (unsigned long)r->enter,
                                    (unsigned long)r->leave);
        else
            len += (size_t)snprintf(got + len, sizeof(got) - len, "%s%u@%lu-%lu/%u",
                                    len ? " " : "", r->call, (unsigned long)r->enter,
                                    (unsigned long)r->leave, r->nitems);
        pos += pz_record_size(r);
    }
    cr_assert_eq(pos, t.used, "the records end at %zu, the buffer at %zu", pos, t.used);
    cr_assert_str_eq(got, want);
}

/* Commits a record of call from enter to leave with n items of kind SEND whose tag is
 * their index. */
static void commit(uint16_t call, uint64_t enter, uint64_t leave, uint16_t n)
{
    struct pz_record r = { .enter = enter, .leave = leave, .call = call, .nitems = n };

    t.nitems = 0;
    for (uint16_t i = 0; i < n; i++) {
        struct pz_item *it = pz_thread_new_item(&t);

        cr_assert_not_null(it);
        memset(it, 0, sizeof(*it));
        it->kind = PZ_ITEM_SEND;
        it->tag = i;
    }
    pz_thread_commit(&t, &r);
}

Test(thread, record_and_item_sizes)
{
    struct pz_record r = { .call = PZ_CALL_MPI_Send, .nitems = 2 };

    cr_assert_eq(sizeof(struct pz_record), HDR);
    cr_assert_eq(sizeof(struct pz_item), ITEM);
    cr_expect_eq(pz_record_size(&r), 120, "24 + 2 x 48");
    r.aux = PZ_AUX_SITE;
    cr_expect_eq(pz_record_size(&r), 128, "24 + 2 x 48 + 8");
    r.nitems = 0;
    cr_expect_eq(pz_record_size(&r), 32, "24 + 8");
    r.aux = 0;
    cr_expect_eq(pz_record_size(&r), 24);
    /* aux of an interval boundary is its interval number, never a call site */
    r = (struct pz_record){ .call = PZ_RECORD_BEGIN, .aux = 1 };
    cr_expect_eq(pz_record_size(&r), 24);
    r.call = PZ_RECORD_END;
    cr_expect_eq(pz_record_size(&r), 24);
    r.call = PZ_RECORD_FLUSH;
    cr_expect_eq(pz_record_size(&r), 24);
}

Test(thread, commit_appends_the_record_and_its_items)
{
    const struct pz_item *items;

    fresh(4096);
    commit(PZ_CALL_MPI_Send, 10, 20, 2);
    cr_assert_eq(t.used, 120);
    commit(PZ_CALL_MPI_Barrier, 30, 40, 0);
    cr_assert_eq(t.used, 144);
    items = (const struct pz_item *)(t.buf + HDR);
    cr_expect_eq(items[0].kind, PZ_ITEM_SEND);
    cr_expect_eq(items[0].tag, 0);
    cr_expect_eq(items[1].tag, 1);
    cr_expect_eq(at(0)->aux, 0);
    expect_records("5@10-20/2 40@30-40/0");
    cr_expect_eq(PZ_CALL_MPI_Barrier, 40, "MPI_Barrier is MPI_ row 40 of the table");
    cr_expect_eq(t.dropped, 0);
    cr_expect(guard_intact());
}

Test(thread, items_beyond_the_initial_eight_are_kept)
{
    const struct pz_item *items;

    fresh(4096);
    commit(PZ_CALL_MPI_Waitall, 1, 2, 20);
    cr_assert_geq(t.items_cap, 20);
    cr_assert_eq(t.used, HDR + 20 * ITEM);
    items = (const struct pz_item *)(t.buf + HDR);
    for (int i = 0; i < 20; i++)
        cr_expect_eq(items[i].tag, i);
    cr_expect(guard_intact());
}

Test(thread, the_inline_path_of_a_wrapper)
{
    struct pz_call c, nested;
    struct pz_item *it;
    const struct pz_item *kept;

    fresh(4096);
    cr_assert_eq(pz_call_enter(&c, PZ_CALL_MPI_Isend), 1);
    cr_assert_eq(t.busy, 1);
    cr_assert_eq(pz_call_enter(&nested, PZ_CALL_MPI_Send), 0, "a call inside a traced one "
                                                              "is not traced");
    it = pz_call_item(&c, PZ_ITEM_ISEND);
    cr_assert_not_null(it);
    cr_expect_eq(it->send_counts, PZ_NO_COUNTS);
    cr_expect_eq(it->recv_counts, PZ_NO_COUNTS);
    it->peer = 3;
    it->tag = 4;
    it->bytes = 80;
    it->request = 9;
    c.enter = 1000;
    c.leave = 2000;
    c.ret = 7;
    cr_assert_eq(pz_call_leave(&c), 7);
    cr_expect_eq(t.busy, 0);
    cr_assert_eq(t.used, HDR + ITEM);
    cr_expect_eq(at(0)->aux, 0, "no call site without PROGNOZ_CALLSITES");
    kept = (const struct pz_item *)(t.buf + HDR);
    cr_expect_eq(kept->kind, PZ_ITEM_ISEND);
    cr_expect_eq(kept->peer, 3);
    cr_expect_eq(kept->tag, 4);
    cr_expect_eq(kept->bytes, 80);
    cr_expect_eq(kept->request, 9);
    expect_records("12@1000-2000/1");
    cr_expect(guard_intact());
}

Test(thread, the_inline_path_keeps_the_call_site_after_the_items)
{
    struct pz_call c;
    uintptr_t site;

    fresh(4096);
    pz_record_sites = 1;
    cr_assert_eq(pz_call_enter(&c, PZ_CALL_MPI_Send), 1);
    cr_assert_not_null(pz_call_item(&c, PZ_ITEM_SEND));
    c.enter = 5;
    c.leave = 6;
    c.site = 0x12345678;
    pz_call_leave(&c);
    cr_assert_eq(t.used, HDR + ITEM + SITE);
    cr_expect_eq(at(0)->aux, PZ_AUX_SITE);
    memcpy(&site, t.buf + HDR + ITEM, sizeof(site));
    cr_expect_eq(site, 0x12345678);
    /* and without items */
    cr_assert_eq(pz_call_enter(&c, PZ_CALL_MPI_Barrier), 1);
    c.enter = 7;
    c.leave = 8;
    c.site = 0x9abc;
    pz_call_leave(&c);
    cr_assert_eq(t.used, HDR + ITEM + SITE + HDR + SITE);
    memcpy(&site, t.buf + HDR + ITEM + SITE + HDR, sizeof(site));
    cr_expect_eq(site, 0x9abc);
    expect_records("5@5-6/1 40@7-8/0");
    cr_expect(guard_intact());
}

Test(thread, the_inline_path_times_a_call_that_did_not_return_and_skips_markers)
{
    struct pz_call c;

    fresh(4096);
    /* a pre hook that handled the call itself: no leave time was taken */
    cr_assert_eq(pz_call_enter(&c, PZ_CALL_MPI_Recv), 1);
    pz_call_leave(&c);
    cr_assert_eq(t.used, HDR);
    cr_expect_geq(at(0)->leave, at(0)->enter);
    cr_expect_neq(at(0)->leave, 0);
    /* a marker half: consumed, not recorded */
    cr_assert_eq(pz_call_enter(&c, PZ_CALL_MPI_Send), 1);
    c.id = PZ_NCALLS;
    c.ret = 3;
    cr_expect_eq(pz_call_leave(&c), 3);
    cr_expect_eq(t.used, HDR);
    cr_expect_eq(t.busy, 0);
}

Test(thread, make_room_leaves_room_for_the_flush_mark)
{
    /* room for three headers: two records, and the third would leave none for a mark */
    fresh(3 * HDR);
    commit(PZ_CALL_MPI_Barrier, 1, 2, 0);
    commit(PZ_CALL_MPI_Barrier, 3, 4, 0);
    cr_assert_eq(t.used, 2 * HDR);
    cr_expect_eq(pz_thread_make_room(&t, HDR), 0);
    cr_expect_eq(t.dropped, 1);
    cr_expect_eq(pz_thread_make_room(&t, 0), 1, "a mark alone still fits");
    cr_expect_eq(t.dropped, 1);
}

Test(thread, with_no_writer_what_does_not_fit_is_dropped_and_counted)
{
    struct pz_call c;

    fresh(3 * HDR);
    commit(PZ_CALL_MPI_Barrier, 1, 2, 0);
    commit(PZ_CALL_MPI_Barrier, 3, 4, 0);
    commit(PZ_CALL_MPI_Barrier, 5, 6, 0);
    commit(PZ_CALL_MPI_Send, 7, 8, 1);
    cr_expect_eq(t.dropped, 2);
    expect_records("40@1-2/0 40@3-4/0");
    /* the inline path drops too */
    cr_assert_eq(pz_call_enter(&c, PZ_CALL_MPI_Send), 1);
    cr_assert_not_null(pz_call_item(&c, PZ_ITEM_SEND));
    c.enter = 9;
    c.leave = 10;
    c.ret = 4;
    cr_expect_eq(pz_call_leave(&c), 4);
    cr_expect_eq(t.busy, 0);
    cr_expect_eq(t.dropped, 3);
    expect_records("40@1-2/0 40@3-4/0");
    cr_expect_null(t.writer, "no archive is open: no writer");
    cr_expect_eq(t.nevents, 0);
    cr_expect(guard_intact());
}

Test(thread, the_flush_mark_follows_the_record_that_caused_the_flush)
{
    struct pz_call c;

    fresh(4096);
    /* as pz_thread_make_room leaves a flush that emptied the buffer from 500 to 700
     * ticks, during the leave of a call from 300 to 400 */
    t.flush_start = 500;
    t.flush_end = 700;
    commit(PZ_CALL_MPI_Send, 300, 400, 1);
    cr_expect_eq(t.flush_start, 0, "the mark is written once");
    commit(PZ_CALL_MPI_Barrier, 800, 900, 0);
    expect_records("5@300-400/1 F@500-700 40@800-900/0");
    /* the same through the inline path */
    t.flush_start = 1500;
    t.flush_end = 1700;
    cr_assert_eq(pz_call_enter(&c, PZ_CALL_MPI_Barrier), 1);
    c.enter = 1000;
    c.leave = 1100;
    pz_call_leave(&c);
    expect_records("5@300-400/1 F@500-700 40@800-900/0 40@1000-1100/0 F@1500-1700");
    cr_expect(guard_intact());
}

Test(thread, a_record_too_big_for_an_empty_buffer_is_dropped_without_a_flush_mark)
{
    /* writer NULL and nothing buffered: flushing writes nothing, the record cannot fit
     * and is dropped; no flush took place, so none may be marked after later records */
    fresh(4 * HDR);
    commit(PZ_CALL_MPI_Waitall, 1, 2, 2);
    cr_expect_eq(t.dropped, 1);
    cr_expect_eq(t.used, 0);
    commit(PZ_CALL_MPI_Barrier, 3, 4, 0);
    expect_records("40@3-4/0");
    cr_expect(guard_intact());
}

Test(thread, nothing_is_written_past_the_end_of_the_buffer)
{
    struct pz_call c;

    /* a record of one item (72 bytes) is refused by an empty 72-byte buffer, which
     * keeps room for a flush mark; the inline path then fills it with another */
    fresh(HDR + ITEM);
    commit(PZ_CALL_MPI_Send, 1, 2, 1);
    cr_expect_eq(t.dropped, 1);
    cr_assert_eq(pz_call_enter(&c, PZ_CALL_MPI_Send), 1);
    cr_assert_not_null(pz_call_item(&c, PZ_ITEM_SEND));
    c.enter = 3;
    c.leave = 4;
    pz_call_leave(&c);
    cr_expect_leq(t.used, t.cap);
    cr_expect(guard_intact(), "bytes after the buffer were overwritten");
}

/* A real flush: the thread writes its records to an OTF2 archive in a temporary
 * directory. */
static char dir[4096];

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

static OTF2_FlushType pre_flush(void *data, OTF2_FileType type, OTF2_LocationRef location,
                                void *caller, bool final)
{
    (void)data, (void)type, (void)location, (void)caller, (void)final;
    return OTF2_FLUSH;
}

static const OTF2_FlushCallbacks flush_callbacks = { pre_flush, NULL };

static OTF2_Archive *archive;

/* Gives the thread the writer of location 0 of a new archive in a temporary directory. */
static void open_archive(void)
{
    const char *tmp = getenv("TMPDIR");

    snprintf(dir, sizeof(dir), "%s/prognoz-thread.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    cr_assert_not_null(mkdtemp(dir));
    archive = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, 1024 * 1024,
                                4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    cr_assert_not_null(archive);
    cr_assert_eq(OTF2_Archive_SetFlushCallbacks(archive, &flush_callbacks, NULL), OTF2_SUCCESS);
    cr_assert_eq(OTF2_Archive_SetSerialCollectiveCallbacks(archive), OTF2_SUCCESS);
    cr_assert_eq(OTF2_Archive_OpenEvtFiles(archive), OTF2_SUCCESS);
    t.writer = OTF2_Archive_GetEvtWriter(archive, 0);
    cr_assert_not_null(t.writer);
    t.anchor = pz_anchor_now();
}

static void close_archive(void)
{
    OTF2_Archive_CloseEvtWriter(archive, t.writer);
    OTF2_Archive_CloseEvtFiles(archive);
    OTF2_Archive_Close(archive);
    nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* Commits a record of call with n items, timed now. */
static void commit_now(uint16_t call, uint16_t n)
{
    uint64_t enter = pz_ticks();

    commit(call, enter, pz_ticks(), n);
}

Test(thread, a_flush_empties_the_buffer_and_is_marked_after_the_record)
{
    uint64_t written = 0;

    fresh(3 * HDR + ITEM);
    open_archive();
    /* a Barrier and a Send (2 + 3 events) fill it, with 24 bytes left */
    commit_now(PZ_CALL_MPI_Barrier, 0);
    commit_now(PZ_CALL_MPI_Send, 1);
    cr_assert_eq(t.used, 2 * HDR + ITEM);
    cr_assert_eq(t.nevents, 0);
    /* the next record needs 24 and 24 for the mark: both are written out first */
    commit_now(PZ_CALL_MPI_Finalize, 0);
    cr_expect_eq(t.nevents, 5);
    cr_expect_eq(t.dropped, 0);
    cr_assert_eq(t.used, 2 * HDR, "the record, then the flush mark");
    cr_expect_eq(at(0)->call, PZ_CALL_MPI_Finalize);
    cr_expect_eq(at(HDR)->call, PZ_RECORD_FLUSH);
    cr_expect_leq(at(0)->leave, at(HDR)->enter, "the call left before the flush began");
    cr_expect_leq(at(HDR)->enter, at(HDR)->leave);
    cr_expect_neq(t.first_ns, 0);
    cr_expect_leq(t.first_ns, t.last_ns);
    cr_expect_eq(OTF2_EvtWriter_GetNumberOfEvents(t.writer, &written), OTF2_SUCCESS);
    cr_expect_eq(written, 5);
    close_archive();
}

Test(thread, the_mark_of_a_flush_whose_record_was_dropped_keeps_time_order)
{
    fresh(3 * HDR + ITEM);
    open_archive();
    commit_now(PZ_CALL_MPI_Barrier, 0);
    /* a Waitall of three items (168 bytes) cannot fit even once the Barrier is out */
    commit_now(PZ_CALL_MPI_Waitall, 3);
    cr_expect_eq(t.nevents, 2, "the Barrier was written out");
    cr_expect_eq(t.dropped, 1);
    commit_now(PZ_CALL_MPI_Finalize, 0);
    /* the buffer's records, flush mark included, must stay in time order */
    for (size_t pos = 0, next; pos < t.used; pos = next) {
        next = pos + pz_record_size(at(pos));
        if (next < t.used)
            cr_expect_leq(at(pos)->enter, at(next)->enter,
                          "record %u at %zu begins after record %u at %zu", at(pos)->call,
                          pos, at(next)->call, next);
    }
    close_archive();
}
