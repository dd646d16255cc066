/* Records to OTF2 events: records and items built as the hooks write them are turned by
 * pz_translate into events of one location of a real OTF2 archive (written with serial
 * collective callbacks in a temporary directory), which is read back with the OTF2
 * reader.  Each event read becomes one line "TIME KIND FIELDS", so that a test states
 * the whole event sequence it expects, timestamps and fields included, worked out by
 * hand from docs/trace-format.md: a call is Enter, the events it starts at its enter
 * time, the events it completes at its leave time, Leave.
 *
 * Translation asks MPI the size of a received message whose status the record kept,
 * so the suite runs in a singleton MPI with the recorder off.  One test builds its
 * records with the inline path of the wrappers (pz_call_enter ... pz_call_leave) on a
 * thread made by hand, to see the thread's CPU times read where they must be. */
#include <criterion/criterion.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <otf2/otf2.h>

#include "calls_gen.h"
#include "hooks.h"
#include "record.h"
#include "singleton.h"
#include "translate.h"
#include "vcounts.h"

/* OTF2_UNDEFINED_UINT32: the root of a collective without one. */
#define NO_ROOT "4294967295"

static char dir[4096];
static OTF2_Archive *archive;
static OTF2_EvtWriter *writer;

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

static void down(void)
{
    if (*dir)
        nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
    *dir = '\0';
    singleton_down();
}

TestSuite(translate, .init = singleton_up, .fini = down);

static OTF2_FlushType pre_flush(void *data, OTF2_FileType type, OTF2_LocationRef location,
                                void *caller, bool final)
{
    (void)data, (void)type, (void)location, (void)caller, (void)final;
    return OTF2_FLUSH;
}

static const OTF2_FlushCallbacks flush_callbacks = { pre_flush, NULL };

/* A new archive DIR/traces.otf2 with the event writer of location 0. */
static void open_trace(void)
{
    const char *tmp = getenv("TMPDIR");

    snprintf(dir, sizeof(dir), "%s/prognoz-translate.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    cr_assert_not_null(mkdtemp(dir), "cannot make a temporary directory");
    archive = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, 1024 * 1024,
                                4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    cr_assert_not_null(archive);
    cr_assert_eq(OTF2_Archive_SetFlushCallbacks(archive, &flush_callbacks, NULL), OTF2_SUCCESS);
    cr_assert_eq(OTF2_Archive_SetSerialCollectiveCallbacks(archive), OTF2_SUCCESS);
    cr_assert_eq(OTF2_Archive_OpenEvtFiles(archive), OTF2_SUCCESS);
    writer = OTF2_Archive_GetEvtWriter(archive, 0);
    cr_assert_not_null(writer);
}

/* An item as pz_call_item leaves it: no flags, no per-peer byte lists. */
static struct pz_item item(enum pz_item_kind kind)
{
    struct pz_item it;

    memset(&it, 0, sizeof(it));
    it.kind = (uint8_t)kind;
    it.send_counts = it.recv_counts = PZ_NO_COUNTS;
    return it;
}

/* Translates a record of call from enter to leave with its n items, followed (as
 * pz_call_leave lays them out) by call site site when it is nonzero and by the CPU times
 * cpu[0] at enter and cpu[1] at leave when cpu is not NULL; returns what pz_translate
 * returned. */
static uint64_t call_full(uint16_t call, uint64_t enter, uint64_t leave,
                          const struct pz_item *items, uint16_t n, uintptr_t site,
                          const uint64_t *cpu)
{
    uint64_t space[(sizeof(struct pz_record) + 8 * sizeof(struct pz_item) +
                    sizeof(uintptr_t) + 2 * sizeof(uint64_t)) / sizeof(uint64_t) + 1];
    unsigned char *buf = (unsigned char *)space, *tail;
    struct pz_record r = { .enter = enter, .leave = leave, .call = call, .nitems = n };

    cr_assert_leq(n, 8);
    r.aux = (site ? PZ_AUX_SITE : 0) | (cpu ? PZ_AUX_CPU : 0);
    memcpy(buf, &r, sizeof(r));
    if (n)
        memcpy(buf + sizeof(r), items, n * sizeof(*items));
    tail = buf + sizeof(r) + n * sizeof(*items);
    if (site) {
        memcpy(tail, &site, sizeof(site));
        tail += sizeof(site);
    }
    if (cpu) {
        memcpy(tail, cpu, 2 * sizeof(*cpu));
        tail += 2 * sizeof(*cpu);
    }
    cr_assert_eq(pz_record_size(&r), (size_t)(tail - buf), "pz_record_size disagrees");
    return pz_translate(writer, (const struct pz_record *)buf,
                        (const struct pz_item *)(buf + sizeof(r)));
}

static uint64_t call_site(uint16_t call, uint64_t enter, uint64_t leave,
                          const struct pz_item *items, uint16_t n, uintptr_t site)
{
    return call_full(call, enter, leave, items, n, site, NULL);
}

static uint64_t call(uint16_t id, uint64_t enter, uint64_t leave, const struct pz_item *items,
                     uint16_t n)
{
    return call_site(id, enter, leave, items, n, 0);
}

/* A record without items: a flush mark or an interval boundary. */
static uint64_t mark(uint16_t kind, uint64_t enter, uint64_t leave, uint32_t aux)
{
    struct pz_record r = { .enter = enter, .leave = leave, .call = kind, .aux = aux };

    return pz_translate(writer, &r, NULL);
}

/* The events read back, one line each. */
struct text {
    char s[16384];
    size_t len;
};

static void line(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void line(struct text *t, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    t->len += (size_t)vsnprintf(t->s + t->len, sizeof(t->s) - t->len, fmt, ap);
    va_end(ap);
    cr_assert_lt(t->len, sizeof(t->s));
}

/* The attributes of an event, " +name=value" each, after the event's fields. */
static void attributes(struct text *t, OTF2_AttributeList *list)
{
    uint32_t n = list ? OTF2_AttributeList_GetNumberOfElements(list) : 0;

    for (uint32_t i = 0; i < n; i++) {
        OTF2_AttributeRef id;
        OTF2_Type type;
        OTF2_AttributeValue v;

        cr_assert_eq(OTF2_AttributeList_GetAttributeByIndex(list, i, &id, &type, &v),
                     OTF2_SUCCESS);
        if (id == PZ_ATTR_SEND_BYTES && type == OTF2_TYPE_STRING)
            line(t, " +send_bytes=%u", v.stringRef);
        else if (id == PZ_ATTR_RECV_BYTES && type == OTF2_TYPE_STRING)
            line(t, " +recv_bytes=%u", v.stringRef);
        else if (id == PZ_ATTR_CALLSITE && type == OTF2_TYPE_SOURCE_CODE_LOCATION)
            line(t, " +callsite=%u", v.sourceCodeLocationRef);
        else if (id == PZ_ATTR_CPU_TIME && type == OTF2_TYPE_UINT64)
            line(t, " +cpu_time=%lu", (unsigned long)v.uint64);
        else if (id == PZ_ATTR_ANY_SOURCE && type == OTF2_TYPE_UINT8)
            line(t, " +any_source=%u", (unsigned)v.uint8);
        else
            line(t, " +attribute%u(type %d)", id, (int)type);
    }
}

#define EVENT(name, ...)                                                                  \
    static OTF2_CallbackCode on_##name(OTF2_LocationRef location, OTF2_TimeStamp time,    \
                                       uint64_t pos, void *data, OTF2_AttributeList *list, \
                                       __VA_ARGS__)

#define OUT(fmt, ...)                                                                     \
    do {                                                                                  \
        struct text *t = data;                                                            \
        (void)pos;                                                                        \
        line(t, "%lu@%lu " fmt, (unsigned long)location, (unsigned long)time, __VA_ARGS__); \
        attributes(t, list);                                                              \
        line(t, "\n");                                                                    \
        return OTF2_CALLBACK_SUCCESS;                                                     \
    } while (0)

EVENT(enter, OTF2_RegionRef region) { OUT("Enter %u", region); }
EVENT(leave, OTF2_RegionRef region) { OUT("Leave %u", region); }
EVENT(send, uint32_t peer, OTF2_CommRef comm, uint32_t tag, uint64_t bytes)
{
    OUT("MpiSend to=%u comm=%u tag=%u bytes=%lu", peer, comm, tag, (unsigned long)bytes);
}
EVENT(isend, uint32_t peer, OTF2_CommRef comm, uint32_t tag, uint64_t bytes, uint64_t req)
{
    OUT("MpiIsend to=%u comm=%u tag=%u bytes=%lu req=%lu", peer, comm, tag,
        (unsigned long)bytes, (unsigned long)req);
}
EVENT(isend_complete, uint64_t req) { OUT("MpiIsendComplete req=%lu", (unsigned long)req); }
EVENT(irecv_request, uint64_t req) { OUT("MpiIrecvRequest req=%lu", (unsigned long)req); }
EVENT(recv, uint32_t peer, OTF2_CommRef comm, uint32_t tag, uint64_t bytes)
{
    OUT("MpiRecv from=%u comm=%u tag=%u bytes=%lu", peer, comm, tag, (unsigned long)bytes);
}
EVENT(irecv, uint32_t peer, OTF2_CommRef comm, uint32_t tag, uint64_t bytes, uint64_t req)
{
    OUT("MpiIrecv from=%u comm=%u tag=%u bytes=%lu req=%lu", peer, comm, tag,
        (unsigned long)bytes, (unsigned long)req);
}
EVENT(request_test, uint64_t req) { OUT("MpiRequestTest req=%lu", (unsigned long)req); }
EVENT(request_cancelled, uint64_t req)
{
    OUT("MpiRequestCancelled req=%lu", (unsigned long)req);
}
EVENT(nbc_request, uint64_t req)
{
    OUT("NonBlockingCollectiveRequest req=%lu", (unsigned long)req);
}
EVENT(coll_end, OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root, uint64_t sent,
      uint64_t received)
{
    OUT("MpiCollectiveEnd op=%d comm=%u root=%u sent=%lu received=%lu", (int)op, comm, root,
        (unsigned long)sent, (unsigned long)received);
}
EVENT(nbc_complete, OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root, uint64_t sent,
      uint64_t received, uint64_t req)
{
    OUT("NonBlockingCollectiveComplete op=%d comm=%u root=%u sent=%lu received=%lu req=%lu",
        (int)op, comm, root, (unsigned long)sent, (unsigned long)received,
        (unsigned long)req);
}
EVENT(flush, OTF2_TimeStamp stop) { OUT("BufferFlush stop=%lu", (unsigned long)stop); }

static OTF2_CallbackCode on_coll_begin(OTF2_LocationRef location, OTF2_TimeStamp time,
                                       uint64_t pos, void *data, OTF2_AttributeList *list)
{
    OUT("%s", "MpiCollectiveBegin");
}

static OTF2_CallbackCode on_unknown(OTF2_LocationRef location, OTF2_TimeStamp time,
                                    uint64_t pos, void *data, OTF2_AttributeList *list)
{
    OUT("%s", "Unknown");
}

/* Closes the archive, reads location 0 back into t and checks that the reader, the
 * writer and the sum of pz_translate's results agree on the number of events. */
static void read_back(struct text *t, uint64_t translated)
{
    OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
    char anchor[4200];
    OTF2_Reader *rd;
    OTF2_EvtReader *er;
    uint64_t written = 0, n = 0;

    cr_assert_eq(OTF2_EvtWriter_GetNumberOfEvents(writer, &written), OTF2_SUCCESS);
    cr_assert_eq(OTF2_Archive_CloseEvtWriter(archive, writer), OTF2_SUCCESS);
    cr_assert_eq(OTF2_Archive_CloseEvtFiles(archive), OTF2_SUCCESS);
    cr_assert_eq(OTF2_Archive_Close(archive), OTF2_SUCCESS);
    archive = NULL;
    writer = NULL;

    snprintf(anchor, sizeof(anchor), "%s/traces.otf2", dir);
    rd = OTF2_Reader_Open(anchor);
    cr_assert_not_null(rd, "cannot open %s", anchor);
    cr_assert_eq(OTF2_Reader_SetSerialCollectiveCallbacks(rd), OTF2_SUCCESS);
    cr_assert_eq(OTF2_Reader_SelectLocation(rd, 0), OTF2_SUCCESS);
    cr_assert_eq(OTF2_Reader_OpenEvtFiles(rd), OTF2_SUCCESS);
    er = OTF2_Reader_GetEvtReader(rd, 0);
    cr_assert_not_null(er);
    OTF2_EvtReaderCallbacks_SetUnknownCallback(cb, on_unknown);
    OTF2_EvtReaderCallbacks_SetEnterCallback(cb, on_enter);
    OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, on_leave);
    OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, on_send);
    OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, on_isend);
    OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, on_isend_complete);
    OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, on_irecv_request);
    OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, on_recv);
    OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, on_irecv);
    OTF2_EvtReaderCallbacks_SetMpiRequestTestCallback(cb, on_request_test);
    OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, on_request_cancelled);
    OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, on_coll_begin);
    OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, on_coll_end);
    OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveRequestCallback(cb, on_nbc_request);
    OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveCompleteCallback(cb, on_nbc_complete);
    OTF2_EvtReaderCallbacks_SetBufferFlushCallback(cb, on_flush);
    cr_assert_eq(OTF2_Reader_RegisterEvtCallbacks(rd, er, cb, t), OTF2_SUCCESS);
    cr_assert_eq(OTF2_Reader_ReadAllLocalEvents(rd, er, &n), OTF2_SUCCESS);
    OTF2_EvtReaderCallbacks_Delete(cb);
    OTF2_Reader_CloseEvtReader(rd, er);
    OTF2_Reader_CloseEvtFiles(rd);
    OTF2_Reader_Close(rd);
    cr_expect_eq(n, written, "%lu events read, %lu written", (unsigned long)n,
                 (unsigned long)written);
    cr_expect_eq(translated, written, "pz_translate counted %lu events, OTF2 wrote %lu",
                 (unsigned long)translated, (unsigned long)written);
}

/* The events of the archive, which must be exactly want. */
static void expect_events(uint64_t translated, const char *want)
{
    static struct text t;

    t.len = 0;
    t.s[0] = '\0';
    read_back(&t, translated);
    cr_assert_str_eq(t.s, want);
}

Test(translate, blocking_send_is_enter_send_at_enter_leave)
{
    struct pz_item send = item(PZ_ITEM_SEND);
    uint64_t n;
    char want[512];

    send.comm = 0;
    send.peer = 3;
    send.tag = 42;
    send.bytes = 800;
    open_trace();
    n = call(PZ_CALL_MPI_Send, 1000, 1500, &send, 1);
    cr_expect_eq(n, 3, "Enter, MpiSend, Leave: 3 events, not %lu", (unsigned long)n);
    snprintf(want, sizeof(want),
             "0@1000 Enter %d\n"
             "0@1000 MpiSend to=3 comm=0 tag=42 bytes=800\n"
             "0@1500 Leave %d\n",
             PZ_CALL_MPI_Send, PZ_CALL_MPI_Send);
    expect_events(n, want);
}

Test(translate, region_of_a_call_is_its_row_among_the_mpi_rows)
{
    /* the table's first rows: MPI_Init, MPI_Init_thread, MPI_Finalize, MPI_Abort,
     * MPI_Pcontrol, MPI_Send, MPI_Bsend, MPI_Ssend, MPI_Rsend, MPI_Recv */
    cr_expect_eq(PZ_CALL_MPI_Send, 5);
    cr_expect_eq(PZ_CALL_MPI_Recv, 9);
}

/* A status filled by a real receive of 12 bytes (into room for 16) from the process
 * itself on MPI_COMM_SELF, with tag 7. */
static MPI_Status twelve_bytes_received(void)
{
    char out[12] = "twelve bytes", in[16];
    MPI_Status st;

    cr_assert_eq(MPI_Sendrecv(out, 12, MPI_BYTE, 0, 7, in, 16, MPI_BYTE, 0, 7, MPI_COMM_SELF,
                              &st),
                 MPI_SUCCESS);
    cr_assert_eq(st.MPI_SOURCE, 0);
    cr_assert_eq(st.MPI_TAG, 7);
    return st;
}

Test(translate, a_receive_that_kept_its_status_asks_mpi_its_size)
{
    MPI_Status st = twelve_bytes_received();
    struct pz_item kept = item(PZ_ITEM_RECV), plain = item(PZ_ITEM_RECV);
    uint64_t n1, n2;
    char want[512];

    /* as pz_add_received writes it (pz_item_keep_status: from bytes on) */
    cr_assert_leq(sizeof(st), PZ_ITEM_STATUS_ROOM);
    kept.comm = 1;
    kept.peer = st.MPI_SOURCE;
    kept.tag = st.MPI_TAG;
    memcpy(&kept.bytes, &st, sizeof(st));
    kept.flags = PZ_ITEM_KEEPS_STATUS;
    /* and one whose size was written as it is */
    plain.comm = 2;
    plain.peer = 4;
    plain.tag = 9;
    plain.bytes = 64;
    open_trace();
    n1 = call(PZ_CALL_MPI_Recv, 2000, 2600, &kept, 1);
    n2 = call(PZ_CALL_MPI_Recv, 2700, 2800, &plain, 1);
    cr_expect_eq(n1, 3);
    cr_expect_eq(n2, 3);
    snprintf(want, sizeof(want),
             "0@2000 Enter %d\n"
             "0@2600 MpiRecv from=0 comm=1 tag=7 bytes=12\n"
             "0@2600 Leave %d\n"
             "0@2700 Enter %d\n"
             "0@2800 MpiRecv from=4 comm=2 tag=9 bytes=64\n"
             "0@2800 Leave %d\n",
             PZ_CALL_MPI_Recv, PZ_CALL_MPI_Recv, PZ_CALL_MPI_Recv, PZ_CALL_MPI_Recv);
    expect_events(n1 + n2, want);
}

Test(translate, nonblocking_posts_at_enter_and_completions_at_leave)
{
    struct pz_item isend = item(PZ_ITEM_ISEND), irecv = item(PZ_ITEM_IRECV_REQUEST);
    struct pz_item done[2] = { item(PZ_ITEM_ISEND_COMPLETE), item(PZ_ITEM_IRECV_COMPLETE) };
    uint64_t n[3];
    char want[1024];

    isend.peer = 1;
    isend.tag = 5;
    isend.bytes = 256;
    isend.request = 17;
    irecv.peer = MPI_ANY_SOURCE;     /* not known before the receive completes */
    irecv.tag = MPI_ANY_TAG;
    irecv.request = 18;
    /* completions as hooks_wait.c copies them from the request table */
    done[0].peer = 1;
    done[0].tag = 5;
    done[0].bytes = 256;
    done[0].request = 17;
    done[1].comm = 3;
    done[1].peer = 2;
    done[1].tag = 6;
    done[1].bytes = 128;
    done[1].request = 18;
    open_trace();
    n[0] = call(PZ_CALL_MPI_Isend, 3000, 3100, &isend, 1);
    n[1] = call(PZ_CALL_MPI_Irecv, 3200, 3250, &irecv, 1);
    n[2] = call(PZ_CALL_MPI_Waitall, 3300, 3900, done, 2);
    cr_expect_eq(n[0], 3);
    cr_expect_eq(n[1], 3);
    cr_expect_eq(n[2], 4);
    snprintf(want, sizeof(want),
             "0@3000 Enter %d\n"
             "0@3000 MpiIsend to=1 comm=0 tag=5 bytes=256 req=17\n"
             "0@3100 Leave %d\n"
             "0@3200 Enter %d\n"
             "0@3200 MpiIrecvRequest req=18\n"
             "0@3250 Leave %d\n"
             "0@3300 Enter %d\n"
             "0@3900 MpiIsendComplete req=17\n"
             "0@3900 MpiIrecv from=2 comm=3 tag=6 bytes=128 req=18\n"
             "0@3900 Leave %d\n",
             PZ_CALL_MPI_Isend, PZ_CALL_MPI_Isend, PZ_CALL_MPI_Irecv, PZ_CALL_MPI_Irecv,
             PZ_CALL_MPI_Waitall, PZ_CALL_MPI_Waitall);
    expect_events(n[0] + n[1] + n[2], want);
}

/* A wait completes an MPI_Irecv as hooks_wait.c records it: the request table's
 * communicator and request id, the status's source and tag, and the status kept for
 * the size, which MPI tells when the record is written out. */
Test(translate, a_completed_nonblocking_receive_that_kept_its_status_asks_mpi_its_size)
{
    MPI_Status st = twelve_bytes_received();
    struct pz_item done = item(PZ_ITEM_IRECV_COMPLETE);
    uint64_t n;
    char want[512];

    done.comm = 3;
    done.peer = st.MPI_SOURCE;
    done.tag = st.MPI_TAG;
    done.request = 18;
    memcpy(&done.bytes, &st, sizeof(st));
    done.flags = PZ_ITEM_KEEPS_STATUS;
    open_trace();
    n = call(PZ_CALL_MPI_Wait, 4000, 4500, &done, 1);
    cr_expect_eq(n, 3);
    snprintf(want, sizeof(want),
             "0@4000 Enter %d\n"
             "0@4500 MpiIrecv from=0 comm=3 tag=7 bytes=12 req=18\n"
             "0@4500 Leave %d\n",
             PZ_CALL_MPI_Wait, PZ_CALL_MPI_Wait);
    expect_events(n, want);
}

/* A receive posted with MPI_ANY_SOURCE (PZ_ITEM_ANY_SOURCE, with its status kept or
 * not), blocking and completed by a wait, carries prognoz:any_source = 1 on its
 * MpiRecv or MpiIrecv; one that named its source carries nothing. */
Test(translate, a_receive_from_any_source_carries_the_mark)
{
    MPI_Status st = twelve_bytes_received();
    struct pz_item any = item(PZ_ITEM_RECV), named = item(PZ_ITEM_RECV),
                   done = item(PZ_ITEM_IRECV_COMPLETE);
    uint64_t n1, n2, n3;
    char want[1024];

    any.comm = 1;
    any.peer = st.MPI_SOURCE;
    any.tag = st.MPI_TAG;
    memcpy(&any.bytes, &st, sizeof(st));
    any.flags = PZ_ITEM_KEEPS_STATUS | PZ_ITEM_ANY_SOURCE;
    named.comm = 1;
    named.peer = 2;
    named.tag = 5;
    named.bytes = 16;
    done.comm = 3;
    done.peer = 6;
    done.tag = 8;
    done.bytes = 32;
    done.request = 19;
    done.flags = PZ_ITEM_ANY_SOURCE;
    open_trace();
    n1 = call(PZ_CALL_MPI_Recv, 1000, 1200, &any, 1);
    n2 = call(PZ_CALL_MPI_Recv, 1300, 1400, &named, 1);
    n3 = call(PZ_CALL_MPI_Wait, 1500, 1600, &done, 1);
    cr_expect_eq(n1 + n2 + n3, 9);
    snprintf(want, sizeof(want),
             "0@1000 Enter %d\n"
             "0@1200 MpiRecv from=0 comm=1 tag=7 bytes=12 +any_source=1\n"
             "0@1200 Leave %d\n"
             "0@1300 Enter %d\n"
             "0@1400 MpiRecv from=2 comm=1 tag=5 bytes=16\n"
             "0@1400 Leave %d\n"
             "0@1500 Enter %d\n"
             "0@1600 MpiIrecv from=6 comm=3 tag=8 bytes=32 req=19 +any_source=1\n"
             "0@1600 Leave %d\n",
             PZ_CALL_MPI_Recv, PZ_CALL_MPI_Recv, PZ_CALL_MPI_Recv, PZ_CALL_MPI_Recv,
             PZ_CALL_MPI_Wait, PZ_CALL_MPI_Wait);
    expect_events(n1 + n2 + n3, want);
}

Test(translate, events_at_enter_come_before_those_at_leave_whatever_the_item_order)
{
    /* a Sendrecv whose receive item comes first in the record */
    struct pz_item items[2] = { item(PZ_ITEM_RECV), item(PZ_ITEM_SEND) };
    uint64_t n;
    char want[512];

    items[0].peer = 1;
    items[0].tag = 9;
    items[0].bytes = 16;
    items[1].peer = 2;
    items[1].tag = 8;
    items[1].bytes = 24;
    open_trace();
    n = call(PZ_CALL_MPI_Sendrecv, 4000, 4400, items, 2);
    cr_expect_eq(n, 4);
    snprintf(want, sizeof(want),
             "0@4000 Enter %d\n"
             "0@4000 MpiSend to=2 comm=0 tag=8 bytes=24\n"
             "0@4400 MpiRecv from=1 comm=0 tag=9 bytes=16\n"
             "0@4400 Leave %d\n",
             PZ_CALL_MPI_Sendrecv, PZ_CALL_MPI_Sendrecv);
    expect_events(n, want);
}

Test(translate, blocking_collective_begins_at_enter_and_ends_at_leave)
{
    struct pz_item allreduce = item(PZ_ITEM_COLL), bcast = item(PZ_ITEM_COLL);
    uint64_t n1, n2;
    char want[1024];

    allreduce.collective = PZ_COLL_ALLREDUCE;
    allreduce.comm = 0;
    allreduce.peer = PZ_NO_ROOT;
    allreduce.bytes = 32;
    allreduce.bytes_received = 96;
    bcast.collective = PZ_COLL_BCAST;
    bcast.comm = 4;
    bcast.peer = 2;
    bcast.bytes = 0;
    bcast.bytes_received = 40;
    open_trace();
    n1 = call(PZ_CALL_MPI_Allreduce, 5000, 5400, &allreduce, 1);
    n2 = call(PZ_CALL_MPI_Bcast, 5500, 5600, &bcast, 1);
    cr_expect_eq(n1, 4, "Enter, Begin, End, Leave: 4 events, not %lu", (unsigned long)n1);
    cr_expect_eq(n2, 4);
    snprintf(want, sizeof(want),
             "0@5000 Enter %d\n"
             "0@5000 MpiCollectiveBegin\n"
             "0@5400 MpiCollectiveEnd op=%d comm=0 root=" NO_ROOT " sent=32 received=96\n"
             "0@5400 Leave %d\n"
             "0@5500 Enter %d\n"
             "0@5500 MpiCollectiveBegin\n"
             "0@5600 MpiCollectiveEnd op=%d comm=4 root=2 sent=0 received=40\n"
             "0@5600 Leave %d\n",
             PZ_CALL_MPI_Allreduce, OTF2_COLLECTIVE_OP_ALLREDUCE, PZ_CALL_MPI_Allreduce,
             PZ_CALL_MPI_Bcast, OTF2_COLLECTIVE_OP_BCAST, PZ_CALL_MPI_Bcast);
    expect_events(n1 + n2, want);
}

/* A constructor's item (hooks_comm.c) marked PZ_ITEM_CREATES_HANDLE: OTF2's CREATE_HANDLE
 * on the communicator of the item (the parent), whatever collective the item names. */
Test(translate, constructor_is_a_create_handle_collective)
{
    struct pz_item split = item(PZ_ITEM_COLL);
    uint64_t n;
    char want[1024];

    split.flags = PZ_ITEM_CREATES_HANDLE;
    split.collective = PZ_COLL_ALLREDUCE;
    split.comm = 0;
    split.peer = PZ_NO_ROOT;
    split.bytes = 264;
    split.bytes_received = 288;
    open_trace();
    n = call(PZ_CALL_MPI_Comm_split, 6000, 6300, &split, 1);
    cr_expect_eq(n, 4);
    snprintf(want, sizeof(want),
             "0@6000 Enter %d\n"
             "0@6000 MpiCollectiveBegin\n"
             "0@6300 MpiCollectiveEnd op=%d comm=0 root=" NO_ROOT " sent=264 received=288\n"
             "0@6300 Leave %d\n",
             PZ_CALL_MPI_Comm_split, OTF2_COLLECTIVE_OP_CREATE_HANDLE, PZ_CALL_MPI_Comm_split);
    expect_events(n, want);
}

Test(translate, per_peer_byte_lists_are_attributes_of_the_end)
{
    struct pz_item alltoallv = item(PZ_ITEM_COLL), gatherv = item(PZ_ITEM_COLL);
    struct pz_item post = item(PZ_ITEM_NBC_REQUEST), done = item(PZ_ITEM_NBC_COMPLETE);
    uint64_t n[4];
    char want[2048];

    alltoallv.collective = PZ_COLL_ALLTOALLV;
    alltoallv.peer = PZ_NO_ROOT;
    alltoallv.bytes = 48;
    alltoallv.bytes_received = 60;
    alltoallv.send_counts = 3;
    alltoallv.recv_counts = 5;
    /* at a Gatherv's root: only the receive counts are a list */
    gatherv.collective = PZ_COLL_GATHERV;
    gatherv.comm = 1;
    gatherv.peer = 1;
    gatherv.bytes = 8;
    gatherv.bytes_received = 36;
    gatherv.recv_counts = 2;
    /* an Ialltoallv, posted and completed by MPI_Wait */
    post.collective = PZ_COLL_ALLTOALLV;
    post.peer = PZ_NO_ROOT;
    post.bytes = 12;
    post.bytes_received = 20;
    post.request = 21;
    post.send_counts = 6;
    post.recv_counts = 7;
    done = post;
    done.kind = PZ_ITEM_NBC_COMPLETE;
    open_trace();
    n[0] = call(PZ_CALL_MPI_Alltoallv, 6000, 6300, &alltoallv, 1);
    n[1] = call(PZ_CALL_MPI_Gatherv, 6400, 6500, &gatherv, 1);
    n[2] = call(PZ_CALL_MPI_Ialltoallv, 6600, 6610, &post, 1);
    n[3] = call(PZ_CALL_MPI_Wait, 6700, 6800, &done, 1);
    cr_expect_eq(n[0], 4);
    cr_expect_eq(n[1], 4);
    cr_expect_eq(n[2], 3);
    cr_expect_eq(n[3], 3);
    snprintf(want, sizeof(want),
             "0@6000 Enter %d\n"
             "0@6000 MpiCollectiveBegin\n"
             "0@6300 MpiCollectiveEnd op=%d comm=0 root=" NO_ROOT " sent=48 received=60"
             " +send_bytes=3 +recv_bytes=5\n"
             "0@6300 Leave %d\n"
             "0@6400 Enter %d\n"
             "0@6400 MpiCollectiveBegin\n"
             "0@6500 MpiCollectiveEnd op=%d comm=1 root=1 sent=8 received=36 +recv_bytes=2\n"
             "0@6500 Leave %d\n"
             "0@6600 Enter %d\n"
             "0@6600 NonBlockingCollectiveRequest req=21\n"
             "0@6610 Leave %d\n"
             "0@6700 Enter %d\n"
             "0@6800 NonBlockingCollectiveComplete op=%d comm=0 root=" NO_ROOT
             " sent=12 received=20 req=21 +send_bytes=6 +recv_bytes=7\n"
             "0@6800 Leave %d\n",
             PZ_CALL_MPI_Alltoallv, OTF2_COLLECTIVE_OP_ALLTOALLV, PZ_CALL_MPI_Alltoallv,
             PZ_CALL_MPI_Gatherv, OTF2_COLLECTIVE_OP_GATHERV, PZ_CALL_MPI_Gatherv,
             PZ_CALL_MPI_Ialltoallv, PZ_CALL_MPI_Ialltoallv, PZ_CALL_MPI_Wait,
             OTF2_COLLECTIVE_OP_ALLTOALLV, PZ_CALL_MPI_Wait);
    expect_events(n[0] + n[1] + n[2] + n[3], want);
}

Test(translate, a_test_that_completed_nothing_and_a_cancelled_request)
{
    struct pz_item tested[2] = { item(PZ_ITEM_REQUEST_TEST), item(PZ_ITEM_REQUEST_TEST) };
    struct pz_item cancelled = item(PZ_ITEM_REQUEST_CANCELLED);
    uint64_t n1, n2;
    char want[1024];

    tested[0].request = 19;
    tested[0].peer = 1;
    tested[1].request = 22;
    cancelled.request = 20;
    cancelled.peer = 3;
    cancelled.tag = 4;
    open_trace();
    n1 = call(PZ_CALL_MPI_Testall, 7000, 7010, tested, 2);
    n2 = call(PZ_CALL_MPI_Wait, 7100, 7200, &cancelled, 1);
    cr_expect_eq(n1, 4);
    cr_expect_eq(n2, 3);
    snprintf(want, sizeof(want),
             "0@7000 Enter %d\n"
             "0@7010 MpiRequestTest req=19\n"
             "0@7010 MpiRequestTest req=22\n"
             "0@7010 Leave %d\n"
             "0@7100 Enter %d\n"
             "0@7200 MpiRequestCancelled req=20\n"
             "0@7200 Leave %d\n",
             PZ_CALL_MPI_Testall, PZ_CALL_MPI_Testall, PZ_CALL_MPI_Wait, PZ_CALL_MPI_Wait);
    expect_events(n1 + n2, want);
}

Test(translate, interval_boundaries_and_the_flush_mark)
{
    uint64_t n[5];
    char want[1024];

    open_trace();
    /* interval 3 around a call and a flush, then interval 0 begins: a boundary is at
     * its enter time (its leave is not used), a flush mark spans its enter and leave */
    n[0] = mark(PZ_RECORD_BEGIN, 8000, 8000, 3);
    n[1] = call(PZ_CALL_MPI_Finalize, 8100, 8200, NULL, 0);
    n[2] = mark(PZ_RECORD_FLUSH, 8300, 8900, 0);
    n[3] = mark(PZ_RECORD_END, 9000, 9999, 3);
    n[4] = mark(PZ_RECORD_BEGIN, 9100, 9100, 0);
    cr_expect_eq(n[0], 1);
    cr_expect_eq(n[1], 2, "a call without items is Enter and Leave");
    cr_expect_eq(n[2], 1);
    cr_expect_eq(n[3], 1);
    cr_expect_eq(n[4], 1);
    snprintf(want, sizeof(want),
             "0@8000 Enter %d\n"
             "0@8100 Enter %d\n"
             "0@8200 Leave %d\n"
             "0@8300 BufferFlush stop=8900\n"
             "0@9000 Leave %d\n"
             "0@9100 Enter %d\n",
             PZ_NCALLS + 3, PZ_CALL_MPI_Finalize, PZ_CALL_MPI_Finalize, PZ_NCALLS + 3,
             PZ_NCALLS + 0);
    expect_events(n[0] + n[1] + n[2] + n[3] + n[4], want);
}

Test(translate, a_call_site_is_an_attribute_of_the_enter)
{
    struct pz_item send = item(PZ_ITEM_SEND);
    uint64_t n[3];
    char want[1024];

    send.peer = 1;
    send.tag = 2;
    send.bytes = 4;
    open_trace();
    /* sites are numbered per process in order of first appearance */
    n[0] = call_site(PZ_CALL_MPI_Send, 100, 110, &send, 1, 0x4000);
    n[1] = call_site(PZ_CALL_MPI_Barrier, 120, 130, NULL, 0, 0x5000);
    n[2] = call_site(PZ_CALL_MPI_Send, 140, 150, &send, 1, 0x4000);
    cr_expect_eq(n[0], 3);
    cr_expect_eq(n[1], 2);
    cr_expect_eq(n[2], 3);
    snprintf(want, sizeof(want),
             "0@100 Enter %d +callsite=0\n"
             "0@100 MpiSend to=1 comm=0 tag=2 bytes=4\n"
             "0@110 Leave %d\n"
             "0@120 Enter %d +callsite=1\n"
             "0@130 Leave %d\n"
             "0@140 Enter %d +callsite=0\n"
             "0@140 MpiSend to=1 comm=0 tag=2 bytes=4\n"
             "0@150 Leave %d\n",
             PZ_CALL_MPI_Send, PZ_CALL_MPI_Send, PZ_CALL_MPI_Barrier, PZ_CALL_MPI_Barrier,
             PZ_CALL_MPI_Send, PZ_CALL_MPI_Send);
    expect_events(n[0] + n[1] + n[2], want);
}

Test(translate, cpu_times_are_attributes_of_the_enter_and_the_leave)
{
    struct pz_item recv = item(PZ_ITEM_RECV), send = item(PZ_ITEM_SEND);
    const uint64_t cpu1[2] = { 3000000, 3000400 }, cpu2[2] = { 3900000, 3900100 };
    const uint64_t cpu3[2] = { 5000000, 5000050 };
    uint64_t n[3];
    char want[1024];

    recv.peer = 1;
    recv.tag = 3;
    recv.bytes = 8;
    send.peer = 1;
    send.tag = 4;
    send.bytes = 16;
    open_trace();
    /* the value read before the call on its Enter, after it on its Leave, and on no
     * MPI event in between; with a call site, the site comes first */
    n[0] = call_full(PZ_CALL_MPI_Recv, 200, 260, &recv, 1, 0, cpu1);
    n[1] = call_full(PZ_CALL_MPI_Barrier, 300, 310, NULL, 0, 0x6000, cpu2);
    n[2] = call_full(PZ_CALL_MPI_Send, 400, 405, &send, 1, 0x7000, cpu3);
    cr_expect_eq(n[0], 3);
    cr_expect_eq(n[1], 2);
    cr_expect_eq(n[2], 3);
    snprintf(want, sizeof(want),
             "0@200 Enter %d +cpu_time=3000000\n"
             "0@260 MpiRecv from=1 comm=0 tag=3 bytes=8\n"
             "0@260 Leave %d +cpu_time=3000400\n"
             "0@300 Enter %d +callsite=0 +cpu_time=3900000\n"
             "0@310 Leave %d +cpu_time=3900100\n"
             "0@400 Enter %d +callsite=1 +cpu_time=5000000\n"
             "0@400 MpiSend to=1 comm=0 tag=4 bytes=16\n"
             "0@405 Leave %d +cpu_time=5000050\n",
             PZ_CALL_MPI_Recv, PZ_CALL_MPI_Recv, PZ_CALL_MPI_Barrier, PZ_CALL_MPI_Barrier,
             PZ_CALL_MPI_Send, PZ_CALL_MPI_Send);
    expect_events(n[0] + n[1] + n[2], want);
}

Test(translate, cpu_times_are_16_bytes_after_the_items_and_the_site)
{
    struct pz_record r = { .call = PZ_CALL_MPI_Send, .nitems = 1, .aux = PZ_AUX_CPU };

    cr_expect_eq(pz_record_size(&r), 24 + 48 + 16);
    r.aux = PZ_AUX_SITE | PZ_AUX_CPU;
    cr_expect_eq(pz_record_size(&r), 24 + 48 + 8 + 16);
    r.nitems = 0;
    cr_expect_eq(pz_record_size(&r), 24 + 8 + 16);
    /* aux of an interval boundary is its interval number, never a trailer */
    r = (struct pz_record){ .call = PZ_RECORD_BEGIN, .aux = PZ_AUX_CPU };
    cr_expect_eq(pz_record_size(&r), 24);
    r.call = PZ_RECORD_END;
    r.aux = PZ_AUX_SITE | PZ_AUX_CPU;
    cr_expect_eq(pz_record_size(&r), 24);
}

/* CPU time of the calling thread in ns. */
static uint64_t thread_cpu(void)
{
    struct timespec ts;

    cr_assert_eq(clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts), 0);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Keeps the processor busy for at least ns of the thread's CPU time. */
static void burn(uint64_t ns)
{
    volatile uint64_t sink = 0;
    uint64_t start = thread_cpu();

    while (thread_cpu() - start < ns)
        for (int i = 0; i < 1000; i++)
            sink += (uint64_t)i;
}

/* A hand-built thread for the inline path of the wrappers (as in test_thread.c). */
static struct pz_thread thread;

static void fresh_thread(void)
{
    memset(&thread, 0, sizeof(thread));
    thread.cap = 4096;
    thread.buf = calloc(1, thread.cap);
    thread.items_cap = 8;
    thread.items = calloc(thread.items_cap, sizeof(struct pz_item));
    cr_assert(thread.buf && thread.items);
    pz_thread_current = &thread;
}

/* The trailer of the record at offset off of the thread's buffer: CPU times into cpu. */
static const struct pz_record *cpu_times_at(size_t off, uint64_t cpu[2])
{
    const struct pz_record *r = (const struct pz_record *)(thread.buf + off);

    cr_assert(r->aux & PZ_AUX_CPU, "record at %zu has no CPU times", off);
    memcpy(cpu, thread.buf + pz_record_size(r) + off - 2 * sizeof(uint64_t),
           2 * sizeof(uint64_t));
    return r;
}

Test(translate, the_inline_path_reads_the_cpu_clock_only_when_asked)
{
    struct pz_call c;
    uint64_t before, cpu[2], cpu2[2], n;
    const struct pz_record *r;
    char want[512];

    fresh_thread();
    pz_record_sites = 0;
    pz_record_cpu = 0;
    cr_assert_eq(pz_call_enter(&c, PZ_CALL_MPI_Barrier), 1);
    pz_call_returned(&c);
    pz_call_leave(&c);
    cr_assert_eq(thread.used, 24, "no trailer without PROGNOZ_CPU_TIME");
    cr_expect_eq(((const struct pz_record *)thread.buf)->aux, 0);

    pz_record_cpu = 1;
    before = thread_cpu();
    cr_assert_eq(pz_call_enter(&c, PZ_CALL_MPI_Send), 1);
    cr_assert_not_null(pz_call_item(&c, PZ_ITEM_SEND));
    burn(2000000);                   /* 2 ms "inside MPI" */
    pz_call_returned(&c);
    burn(1000000);                   /* 1 ms in the wrapper after the call returned */
    pz_call_leave(&c);
    cr_assert_eq(thread.used, 24 + (24 + 48 + 16));
    r = cpu_times_at(24, cpu);
    cr_expect_eq(r->aux, PZ_AUX_CPU);
    cr_expect_geq(cpu[0], before);
    cr_expect_geq(cpu[1] - cpu[0], 2000000, "the CPU time spent in the call is counted");
    cr_expect_lt(cpu[1] - cpu[0], 3000000, "the leave value is read when the call returned");

    /* a call a pre hook handled (no pz_call_returned): read at the end, after the site */
    pz_record_sites = 1;
    cr_assert_eq(pz_call_enter(&c, PZ_CALL_MPI_Barrier), 1);
    burn(1000000);
    pz_call_leave(&c);
    cr_assert_eq(thread.used, 24 + 88 + (24 + 8 + 16));
    r = cpu_times_at(24 + 88, cpu2);
    cr_expect_eq(r->aux, PZ_AUX_SITE | PZ_AUX_CPU);
    cr_expect_geq(cpu2[0], cpu[1]);
    cr_expect_geq(cpu2[1] - cpu2[0], 1000000);
    pz_thread_current = NULL;

    /* the Send as the flush writes it out */
    r = (const struct pz_record *)(thread.buf + 24);
    open_trace();
    n = pz_translate(writer, r, (const struct pz_item *)(r + 1));
    snprintf(want, sizeof(want),
             "0@%lu Enter %d +cpu_time=%lu\n"
             "0@%lu MpiSend to=0 comm=0 tag=0 bytes=0\n"
             "0@%lu Leave %d +cpu_time=%lu\n",
             (unsigned long)r->enter, PZ_CALL_MPI_Send, (unsigned long)cpu[0],
             (unsigned long)r->enter, (unsigned long)r->leave, PZ_CALL_MPI_Send,
             (unsigned long)cpu[1]);
    expect_events(n, want);
    free(thread.buf);
    free(thread.items);
}

Test(translate, collective_operations_map_to_otf2)
{
    cr_expect_eq(pz_otf2_collective(PZ_COLL_BARRIER), OTF2_COLLECTIVE_OP_BARRIER);
    cr_expect_eq(pz_otf2_collective(PZ_COLL_SCATTERV), OTF2_COLLECTIVE_OP_SCATTERV);
    cr_expect_eq(pz_otf2_collective(PZ_COLL_ALLTOALLW), OTF2_COLLECTIVE_OP_ALLTOALLW);
    cr_expect_eq(pz_otf2_collective(PZ_COLL_REDUCE_SCATTER_BLOCK),
                 OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK);
    cr_expect_eq(pz_otf2_collective(PZ_COLL_EXSCAN), OTF2_COLLECTIVE_OP_EXSCAN);
}
