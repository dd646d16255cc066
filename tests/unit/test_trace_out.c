/* The predicted trace written as OTF2 (replay/trace_out.h).  A recorded trace is
 * built by hand (trace_builder.h), read back into records with this file's OTF2
 * reader, and written through pz_trace_out with every time t moved to
 * OFFSET + 3 (t - OFFSET) + 1000; the output, read by the same reader, must hold the
 * same records at those times, its clock properties must span them, the analyzer must
 * find the same processes, intervals, messages and collectives with three times the
 * run's length, and otf2-print (when OTF2_PRINT is set, as `make check` does) must
 * read it without a complaint and print the same definitions as for the recorded
 * trace, but the clock and the locations not written.  A trace already in the output
 * directory, a missing or foreign recording, and an unknown or repeated location are
 * refused with one line naming the file or the location. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <otf2/otf2.h>

#include "analysis.h"
#include "trace_builder.h"
#include "two_processes.h"
#include "trace_out.h"

#define MS TB_MS
#define OFFSET MS(1)
#define MAXLOC 4
#define MAXNAMES 64

static uint64_t predicted(uint64_t t)
{
    return OFFSET + 3 * (t - OFFSET) + 1000;
}

/* What the reader found in an archive. */
struct archive {
    uint64_t resolution, offset, length, realtime;
    int nlocations;
    uint64_t locations[MAXLOC];        /* in the order of their definitions */
    uint64_t counts[MAXLOC];           /* their event counts, as defined */
    struct pz_rec *recs[MAXLOC];
    size_t nrecs[MAXLOC];
    char *strings[MAXNAMES];
    OTF2_StringRef attribute_names[MAXNAMES];
    OTF2_GroupRef comm_groups[MAXNAMES];
    uint32_t group_sizes[MAXNAMES];
    uint64_t group_members[MAXNAMES][MAXLOC];
};

static char *top;                      /* this test's temporary directory */
static struct archive in, out;
static char err[1024];

static void release(struct archive *a)
{
    for (int i = 0; i < MAXLOC; i++)
        free(a->recs[i]);
    for (int i = 0; i < MAXNAMES; i++)
        free(a->strings[i]);
    memset(a, 0, sizeof(*a));
}

static void setup(void)
{
    top = tb_tempdir();
    cr_assert_not_null(top, "cannot make a temporary directory");
}

static void cleanup(void)
{
    release(&in);
    release(&out);
    tb_remove(top);
    free(top);
    top = NULL;
}

TestSuite(trace_out, .init = setup, .fini = cleanup);

/* top/name, in buf. */
static char *path_in(const char *name, char buf[4096])
{
    snprintf(buf, 4096, "%s/%s", top, name);
    return buf;
}

/* The reader: definitions. */

static OTF2_CallbackCode on_clock(void *ud, uint64_t resolution, uint64_t offset,
                                  uint64_t length, uint64_t realtime)
{
    struct archive *a = ud;

    a->resolution = resolution, a->offset = offset, a->length = length;
    a->realtime = realtime;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_string(void *ud, OTF2_StringRef self, const char *s)
{
    struct archive *a = ud;

    cr_assert_lt(self, MAXNAMES);
    a->strings[self] = strdup(s);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_attribute(void *ud, OTF2_AttributeRef self, OTF2_StringRef name,
                                      OTF2_StringRef description, OTF2_Type type)
{
    struct archive *a = ud;

    (void)description, (void)type;
    cr_assert_lt(self, MAXNAMES);
    a->attribute_names[self] = name;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_location(void *ud, OTF2_LocationRef self, OTF2_StringRef name,
                                     OTF2_LocationType type, uint64_t events,
                                     OTF2_LocationGroupRef group)
{
    struct archive *a = ud;

    (void)name, (void)type, (void)group;
    cr_assert_lt(a->nlocations, MAXLOC);
    a->locations[a->nlocations] = self;
    a->counts[a->nlocations++] = events;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_group(void *ud, OTF2_GroupRef self, OTF2_StringRef name,
                                  OTF2_GroupType type, OTF2_Paradigm paradigm,
                                  OTF2_GroupFlag flags, uint32_t n, const uint64_t *members)
{
    struct archive *a = ud;

    (void)name, (void)type, (void)paradigm, (void)flags;
    cr_assert(self < MAXNAMES && n <= MAXLOC);
    a->group_sizes[self] = n;
    memcpy(a->group_members[self], members, n * sizeof(*members));
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_comm(void *ud, OTF2_CommRef self, OTF2_StringRef name,
                                 OTF2_GroupRef group, OTF2_CommRef parent, OTF2_CommFlag flags)
{
    struct archive *a = ud;

    (void)name, (void)parent, (void)flags;
    cr_assert_lt(self, MAXNAMES);
    a->comm_groups[self] = group;
    return OTF2_CALLBACK_SUCCESS;
}

static void read_definitions(OTF2_Reader *r, struct archive *a)
{
    OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(r);
    OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
    uint64_t n;

    cr_assert(gdr && cb);
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, on_clock);
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, on_string);
    OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(cb, on_attribute);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, on_location);
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, on_group);
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, on_comm);
    OTF2_Reader_RegisterGlobalDefCallbacks(r, gdr, cb, a);
    cr_assert_eq(OTF2_Reader_ReadAllGlobalDefinitions(r, gdr, &n), OTF2_SUCCESS);
    OTF2_GlobalDefReaderCallbacks_Delete(cb);
}

/* The reader: events, as the records the predictor reads. */

static const char *attribute_name(const struct archive *a, OTF2_AttributeRef ref)
{
    OTF2_StringRef name = ref < MAXNAMES ? a->attribute_names[ref] : OTF2_UNDEFINED_STRING;

    return name < MAXNAMES && a->strings[name] ? a->strings[name] : "";
}

static void take_attributes(const struct archive *a, struct pz_rec *r,
                            OTF2_AttributeList *list)
{
    uint32_t n = list ? OTF2_AttributeList_GetNumberOfElements(list) : 0;

    for (uint32_t i = 0; i < n; i++) {
        OTF2_AttributeRef ref;
        OTF2_Type type;
        OTF2_AttributeValue v;
        const char *name;

        cr_assert_eq(OTF2_AttributeList_GetAttributeByIndex(list, i, &ref, &type, &v),
                     OTF2_SUCCESS);
        name = attribute_name(a, ref);
        if (!strcmp(name, "prognoz:callsite"))
            r->callsite = v.sourceCodeLocationRef;
        else if (!strcmp(name, "prognoz:send_bytes"))
            r->send_list = v.stringRef;
        else if (!strcmp(name, "prognoz:recv_bytes"))
            r->recv_list = v.stringRef;
        else if (!strcmp(name, "prognoz:cpu_time"))
            r->cpu = v.uint64;
        else
            cr_assert_fail("an event carries the unknown attribute %u", ref);
    }
}

static struct pz_rec blank(uint8_t kind)
{
    return (struct pz_rec){ .kind = kind, .peer = PZ_NONE32, .callsite = PZ_NONE32,
                            .send_list = PZ_NONE32, .recv_list = PZ_NONE32,
                            .cpu = PZ_NONE64 };
}

/* A new record of the location, with its attributes. */
static struct pz_rec *add(void *ud, OTF2_LocationRef loc, uint64_t t, uint8_t kind,
                          OTF2_AttributeList *list)
{
    struct archive *a = ud;
    int i = 0;
    struct pz_rec *r;

    while (i < a->nlocations && a->locations[i] != loc)
        i++;
    cr_assert_lt(i, a->nlocations, "an event of the undefined location %llu",
                 (unsigned long long)loc);
    a->recs[i] = realloc(a->recs[i], (a->nrecs[i] + 1) * sizeof(*r));
    cr_assert_not_null(a->recs[i]);
    r = &a->recs[i][a->nrecs[i]++];
    *r = blank(kind);
    r->time = t;
    take_attributes(a, r, list);
    return r;
}

static OTF2_CallbackCode on_enter(OTF2_LocationRef loc, OTF2_TimeStamp t, void *ud,
                                  OTF2_AttributeList *l, OTF2_RegionRef region)
{
    add(ud, loc, t, PZ_REC_ENTER, l)->region = region;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_leave(OTF2_LocationRef loc, OTF2_TimeStamp t, void *ud,
                                  OTF2_AttributeList *l, OTF2_RegionRef region)
{
    add(ud, loc, t, PZ_REC_LEAVE, l)->region = region;
    return OTF2_CALLBACK_SUCCESS;
}

static void message(struct pz_rec *r, uint32_t peer, OTF2_CommRef comm, uint32_t tag,
                    uint64_t bytes, uint64_t request)
{
    r->peer = peer, r->comm = comm, r->tag = tag, r->bytes = bytes, r->request = request;
}

static OTF2_CallbackCode on_send(OTF2_LocationRef loc, OTF2_TimeStamp t, void *ud,
                                 OTF2_AttributeList *l, uint32_t peer, OTF2_CommRef comm,
                                 uint32_t tag, uint64_t bytes)
{
    message(add(ud, loc, t, PZ_REC_SEND, l), peer, comm, tag, bytes, 0);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_recv(OTF2_LocationRef loc, OTF2_TimeStamp t, void *ud,
                                 OTF2_AttributeList *l, uint32_t peer, OTF2_CommRef comm,
                                 uint32_t tag, uint64_t bytes)
{
    message(add(ud, loc, t, PZ_REC_RECV, l), peer, comm, tag, bytes, 0);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_isend(OTF2_LocationRef loc, OTF2_TimeStamp t, void *ud,
                                  OTF2_AttributeList *l, uint32_t peer, OTF2_CommRef comm,
                                  uint32_t tag, uint64_t bytes, uint64_t request)
{
    message(add(ud, loc, t, PZ_REC_ISEND, l), peer, comm, tag, bytes, request);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_irecv(OTF2_LocationRef loc, OTF2_TimeStamp t, void *ud,
                                  OTF2_AttributeList *l, uint32_t peer, OTF2_CommRef comm,
                                  uint32_t tag, uint64_t bytes, uint64_t request)
{
    message(add(ud, loc, t, PZ_REC_IRECV, l), peer, comm, tag, bytes, request);
    return OTF2_CALLBACK_SUCCESS;
}

/* The events whose only argument is a request. */
#define REQUEST_EVENT(name, kind)                                                          \
    static OTF2_CallbackCode name(OTF2_LocationRef loc, OTF2_TimeStamp t, void *ud,        \
                                  OTF2_AttributeList *l, uint64_t request)                 \
    {                                                                                      \
        add(ud, loc, t, kind, l)->request = request;                                       \
        return OTF2_CALLBACK_SUCCESS;                                                      \
    }
REQUEST_EVENT(on_isend_complete, PZ_REC_ISEND_COMPLETE)
REQUEST_EVENT(on_irecv_request, PZ_REC_IRECV_REQUEST)
REQUEST_EVENT(on_request_test, PZ_REC_REQUEST_TEST)
REQUEST_EVENT(on_request_cancelled, PZ_REC_REQUEST_CANCELLED)
REQUEST_EVENT(on_nbc_request, PZ_REC_NBC_REQUEST)

static OTF2_CallbackCode on_coll_begin(OTF2_LocationRef loc, OTF2_TimeStamp t, void *ud,
                                       OTF2_AttributeList *l)
{
    add(ud, loc, t, PZ_REC_COLL_BEGIN, l);
    return OTF2_CALLBACK_SUCCESS;
}

static void collective(struct pz_rec *r, OTF2_CollectiveOp op, OTF2_CommRef comm,
                       uint32_t root, uint64_t sent, uint64_t received, uint64_t request)
{
    r->coll_op = op, r->comm = comm, r->peer = root, r->bytes = sent;
    r->bytes2 = received, r->request = request;
}

static OTF2_CallbackCode on_coll_end(OTF2_LocationRef loc, OTF2_TimeStamp t, void *ud,
                                     OTF2_AttributeList *l, OTF2_CollectiveOp op,
                                     OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                     uint64_t received)
{
    collective(add(ud, loc, t, PZ_REC_COLL_END, l), op, comm, root, sent, received, 0);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_nbc_complete(OTF2_LocationRef loc, OTF2_TimeStamp t, void *ud,
                                         OTF2_AttributeList *l, OTF2_CollectiveOp op,
                                         OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                         uint64_t received, uint64_t request)
{
    collective(add(ud, loc, t, PZ_REC_NBC_COMPLETE, l), op, comm, root, sent, received,
               request);
    return OTF2_CALLBACK_SUCCESS;
}

static void set_event_callbacks(OTF2_GlobalEvtReaderCallbacks *cb)
{
    OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(cb, on_enter);
    OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(cb, on_leave);
    OTF2_GlobalEvtReaderCallbacks_SetMpiSendCallback(cb, on_send);
    OTF2_GlobalEvtReaderCallbacks_SetMpiRecvCallback(cb, on_recv);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCallback(cb, on_isend);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvCallback(cb, on_irecv);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, on_isend_complete);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, on_irecv_request);
    OTF2_GlobalEvtReaderCallbacks_SetMpiRequestTestCallback(cb, on_request_test);
    OTF2_GlobalEvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, on_request_cancelled);
    OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, on_coll_begin);
    OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, on_coll_end);
    OTF2_GlobalEvtReaderCallbacks_SetNonBlockingCollectiveRequestCallback(cb, on_nbc_request);
    OTF2_GlobalEvtReaderCallbacks_SetNonBlockingCollectiveCompleteCallback(cb,
                                                                          on_nbc_complete);
}

static void read_events(OTF2_Reader *r, struct archive *a)
{
    OTF2_GlobalEvtReaderCallbacks *cb = OTF2_GlobalEvtReaderCallbacks_New();
    OTF2_GlobalEvtReader *er;
    uint64_t n;

    /* a location without events may have no event file */
    for (int i = 0; i < a->nlocations; i++)
        if (a->counts[i])
            OTF2_Reader_SelectLocation(r, a->locations[i]);
    cr_assert_eq(OTF2_Reader_OpenEvtFiles(r), OTF2_SUCCESS);
    for (int i = 0; i < a->nlocations; i++)
        if (a->counts[i])
            cr_assert_not_null(OTF2_Reader_GetEvtReader(r, a->locations[i]));
    er = OTF2_Reader_GetGlobalEvtReader(r);
    cr_assert(er && cb);
    set_event_callbacks(cb);
    OTF2_Reader_RegisterGlobalEvtCallbacks(r, er, cb, a);
    cr_assert_eq(OTF2_Reader_ReadAllGlobalEvents(r, er, &n), OTF2_SUCCESS);
    OTF2_GlobalEvtReaderCallbacks_Delete(cb);
    OTF2_Reader_CloseGlobalEvtReader(r, er);
    OTF2_Reader_CloseEvtFiles(r);
}

static void read_archive(const char *archive_dir, struct archive *a)
{
    char anchor[4096];
    OTF2_Reader *r;

    snprintf(anchor, sizeof(anchor), "%s/traces.otf2", archive_dir);
    r = OTF2_Reader_Open(anchor);
    cr_assert_not_null(r, "cannot open %s", anchor);
    cr_assert_eq(OTF2_Reader_SetSerialCollectiveCallbacks(r), OTF2_SUCCESS);
    read_definitions(r, a);
    read_events(r, a);
    OTF2_Reader_Close(r);
}

/* Writing: each location of `from` as a process, records as given, times predicted. */
static void write_predicted(const char *recorded, const char *to, const struct archive *from)
{
    struct pz_trace_out *o =
        pz_trace_out_open(recorded, to, from->nlocations, from->locations, err, sizeof(err));

    cr_assert_not_null(o, "pz_trace_out_open: %s", err);
    for (int p = 0; p < from->nlocations; p++)
        for (size_t i = 0; i < from->nrecs[p]; i++)
            cr_assert_eq(pz_trace_out_event(o, p, &from->recs[p][i],
                                            predicted(from->recs[p][i].time)), 0);
    cr_assert_eq(pz_trace_out_close(o, err, sizeof(err)), 0, "pz_trace_out_close: %s", err);
}

static void assert_same_record(const struct pz_rec *got, const struct pz_rec *want,
                               size_t i)
{
    cr_assert_eq(got->kind, want->kind, "record %zu: kind %d, not %d", i, got->kind,
                 want->kind);
    cr_assert_eq(got->time, predicted(want->time), "record %zu: time", i);
    cr_assert_eq(got->coll_op, want->coll_op, "record %zu: operation", i);
    cr_assert_eq(got->region, want->region, "record %zu: region", i);
    cr_assert_eq(got->comm, want->comm, "record %zu: communicator", i);
    cr_assert_eq(got->peer, want->peer, "record %zu: peer", i);
    cr_assert_eq(got->tag, want->tag, "record %zu: tag", i);
    cr_assert_eq(got->bytes, want->bytes, "record %zu: bytes", i);
    cr_assert_eq(got->bytes2, want->bytes2, "record %zu: bytes received", i);
    cr_assert_eq(got->request, want->request, "record %zu: request", i);
    cr_assert_eq(got->callsite, want->callsite, "record %zu: call site", i);
    cr_assert_eq(got->send_list, want->send_list, "record %zu: send list", i);
    cr_assert_eq(got->recv_list, want->recv_list, "record %zu: receive list", i);
    cr_assert_eq(got->cpu, want->cpu, "record %zu: cpu time", i);
}

/* out holds want's records at their predicted times, and clock properties spanning
 * them; want's flushes are not written. */
static void assert_predicted(const struct archive *got, const struct archive *want)
{
    uint64_t end = 0;

    cr_assert_eq(got->resolution, want->resolution);
    cr_assert_eq(got->offset, want->offset);
    cr_assert_eq(got->realtime, want->realtime);
    cr_assert_eq(got->nlocations, want->nlocations);
    for (int p = 0; p < want->nlocations; p++) {
        size_t n = 0;

        cr_assert_eq(got->locations[p], want->locations[p]);
        for (size_t i = 0; i < want->nrecs[p]; i++) {
            const struct pz_rec *r = &want->recs[p][i];

            if (r->kind == PZ_REC_FLUSH)
                continue;
            cr_assert_lt(n, got->nrecs[p], "location %d: too few events", p);
            assert_same_record(&got->recs[p][n++], r, i);
            if (predicted(r->time) > end)
                end = predicted(r->time);
        }
        cr_assert_eq(got->nrecs[p], n, "location %d: %zu events, not %zu", p, got->nrecs[p],
                     n);
        cr_assert_eq(got->counts[p], n, "location %d: %llu events defined, not %zu", p,
                     (unsigned long long)got->counts[p], n);
    }
    cr_assert_eq(got->length, end - got->offset);
}

/* otf2-print reads the archive at d without a complaint. */
static void assert_printable(const char *d)
{
    const char *print = getenv("OTF2_PRINT");
    char cmd[8192];

    if (!print || !*print)
        return;
    snprintf(cmd, sizeof(cmd), "'%s' '%s/traces.otf2' >'%s/print.out' 2>'%s/print.err' && "
             "test ! -s '%s/print.err' || { cat '%s/print.err' >&2; false; }",
             print, d, top, top, top, top);
    cr_assert_eq(system(cmd), 0, "otf2-print complains about %s (its complaint is above)", d);
}

/* otf2-print prints the same global definitions for both archives, but the clock
 * properties and the locations, which the prediction changes, and in the recorded one
 * the lines naming `dropped`, a location not replayed ("" if none). */
static void assert_same_definitions(const char *recorded, const char *predicted_dir,
                                    const char *dropped)
{
    const char *print = getenv("OTF2_PRINT");
    const char *changed = "grep -v -e '^CLOCK_PROPERTIES' -e '^LOCATION '";
    char drop[256] = "", cmd[16384];

    if (!print || !*print)
        return;
    if (*dropped)
        snprintf(drop, sizeof(drop), " | grep -v -F -e '%s'", dropped);
    snprintf(cmd, sizeof(cmd),
             "'%s' -G '%s/traces.otf2' | %s%s >'%s/defs.in' && "
             "'%s' -G '%s/traces.otf2' | %s >'%s/defs.out' && "
             "cmp -s '%s/defs.in' '%s/defs.out'",
             print, recorded, changed, drop, top, print, predicted_dir, changed, top, top,
             top);
    cr_assert_eq(system(cmd), 0, "the definitions differ: diff %s/defs.in %s/defs.out", top,
                 top);
}

/* Inserts r before record i of location p. */
static void insert(struct archive *a, int p, size_t i, struct pz_rec r)
{
    a->recs[p] = realloc(a->recs[p], (a->nrecs[p] + 1) * sizeof(r));
    cr_assert_not_null(a->recs[p]);
    memmove(&a->recs[p][i + 1], &a->recs[p][i], (a->nrecs[p] - i) * sizeof(r));
    a->recs[p][i] = r;
    a->nrecs[p]++;
}

/* Records the replay may carry that the recorded trace has not: a test that completed
 * nothing, a cancelled request, a flush (not written). */
static void add_other_records(struct archive *a)
{
    struct pz_rec test = blank(PZ_REC_REQUEST_TEST), cancel = blank(PZ_REC_REQUEST_CANCELLED);
    struct pz_rec flush = blank(PZ_REC_FLUSH);

    test.time = cancel.time = a->recs[0][a->nrecs[0] - 2].time;
    test.request = 5;
    cancel.request = 6;
    insert(a, 0, a->nrecs[0] - 2, cancel);
    insert(a, 0, a->nrecs[0] - 3, test);
    flush.time = a->recs[1][1].time;
    flush.bytes2 = flush.time + 10;
    insert(a, 1, 1, flush);
}

static int count_kind(const struct archive *a, uint8_t kind)
{
    int n = 0;

    for (int p = 0; p < a->nlocations; p++)
        for (size_t i = 0; i < a->nrecs[p]; i++)
            n += a->recs[p][i].kind == kind;
    return n;
}

Test(trace_out, every_event_at_its_predicted_time)
{
    char rec[4096], pred[4096];

    tp_record_two(path_in("recorded", rec));
    read_archive(rec, &in);
    add_other_records(&in);
    for (uint8_t k = PZ_REC_ENTER; k <= PZ_REC_FLUSH; k++)
        cr_assert_gt(count_kind(&in, k), 0, "the test writes no record of kind %d", k);
    cr_assert_eq(in.recs[0][0].callsite, 0, "the call site of MPI_Init was not recorded");
    write_predicted(rec, path_in("predicted", pred), &in);
    read_archive(pred, &out);
    assert_predicted(&out, &in);
    assert_printable(pred);
    assert_same_definitions(rec, pred, "");
}

/* The communicator "swapped": its group of world ranks 1, 0. */
static void assert_swapped(const struct archive *a)
{
    OTF2_GroupRef g = a->comm_groups[2];

    cr_assert_eq(a->group_sizes[g], 2);
    cr_assert_eq(a->group_members[g][0], 1);
    cr_assert_eq(a->group_members[g][1], 0);
}

Test(trace_out, the_analyzer_finds_the_same_run_three_times_longer)
{
    char rec[4096], pred[4096];
    struct pz_analysis recorded, again;

    tp_record_two(path_in("recorded", rec));
    read_archive(rec, &in);
    write_predicted(rec, path_in("predicted", pred), &in);
    read_archive(pred, &out);
    assert_swapped(&out);
    cr_assert_eq(pz_analyze(rec, &recorded, err, sizeof(err)), 0, "%s", err);
    cr_assert_eq(pz_analyze(pred, &again, err, sizeof(err)), 0, "%s", err);
    cr_assert_eq(again.nprocs, 2);
    cr_assert_eq(again.nnodes, recorded.nnodes);
    cr_assert_eq(again.messages, 3, "the message on \"swapped\" was not matched");
    cr_assert_eq(again.messages, recorded.messages);
    cr_assert_eq(again.unmatched_sends + again.unmatched_receives, 0);
    cr_assert_eq(again.collectives, recorded.collectives);
    cr_assert_eq(again.incomplete_collectives, 0);
    for (int p = 0; p < 2; p++)
        cr_assert_float_eq(again.nodes[0].procs[p].exec, 3 * recorded.nodes[0].procs[p].exec,
                           1e-12);
    pz_analysis_free(&recorded);
    pz_analysis_free(&again);
}

/* An archive as the recorder writes it with call sites and CPU times, and definitions
 * of most kinds: process 0 (location 0) calls MPI_Alltoallv from 1 to 2 ms with the
 * lists "8,16" and "16,8"; location 7, a thread of it, is not replayed. */
enum { S_EMPTY, S_MPI, S_NODE, S_RANK, S_MASTER, S_THREAD, S_ALLTOALLV, S_FILE, S_CALLSITE,
       S_SEND, S_RECV, S_CPU, S_LIST1, S_LIST2, S_PROPERTY, S_DIM, S_TOPO, S_METRIC,
       S_CYCLES, S_NSTRINGS };
enum { A_CPU, A_SEND, A_RECV, A_CALLSITE };     /* numbered in another order than tb's */

static const char *const attributed_strings[S_NSTRINGS] = {
    "", "MPI", "node", "MPI Rank 0", "Master thread", "Thread 1", "MPI_Alltoallv",
    "/src/a.c", "prognoz:callsite", "prognoz:send_bytes", "prognoz:recv_bytes",
    "prognoz:cpu_time", "8,16", "16,8", "a property", "x", "the grid", "cycles", "#",
};

static void define_attributed(OTF2_GlobalDefWriter *w, uint64_t count0, uint64_t end)
{
    OTF2_AttributeValue v = { .uint64 = 42 };
    const OTF2_CartDimensionRef dim = 0;
    const uint32_t coord = 0;
    const OTF2_MetricMemberRef member = 0;
    const uint64_t world[1] = { 0 };

    for (int i = 0; i < S_NSTRINGS; i++)
        OTF2_GlobalDefWriter_WriteString(w, (OTF2_StringRef)i, attributed_strings[i]);
    OTF2_GlobalDefWriter_WriteClockProperties(w, 1000000000u, OFFSET, end - OFFSET, 12345);
    OTF2_GlobalDefWriter_WriteParadigm(w, OTF2_PARADIGM_MPI, S_MPI, OTF2_PARADIGM_CLASS_PROCESS);
    OTF2_GlobalDefWriter_WriteParadigmProperty(w, OTF2_PARADIGM_MPI,
                                               OTF2_PARADIGM_PROPERTY_COMM_NAME_TEMPLATE,
                                               OTF2_TYPE_STRING,
                                               (OTF2_AttributeValue){ .stringRef = S_NODE });
    OTF2_GlobalDefWriter_WriteSystemTreeNode(w, 0, S_NODE, S_NODE,
                                             OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    OTF2_GlobalDefWriter_WriteSystemTreeNodeProperty(w, 0, S_PROPERTY, OTF2_TYPE_UINT64, v);
    OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(w, 0, OTF2_SYSTEM_TREE_DOMAIN_SHARED_MEMORY);
    OTF2_GlobalDefWriter_WriteLocationGroup(w, 0, S_RANK, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                            OTF2_UNDEFINED_LOCATION_GROUP);
    OTF2_GlobalDefWriter_WriteLocationGroupProperty(w, 0, S_PROPERTY, OTF2_TYPE_UINT64, v);
    OTF2_GlobalDefWriter_WriteLocation(w, 0, S_MASTER, OTF2_LOCATION_TYPE_CPU_THREAD, count0,
                                       0);
    OTF2_GlobalDefWriter_WriteLocation(w, 7, S_THREAD, OTF2_LOCATION_TYPE_CPU_THREAD, 0, 0);
    OTF2_GlobalDefWriter_WriteLocationProperty(w, 7, S_PROPERTY, OTF2_TYPE_UINT64, v);
    OTF2_GlobalDefWriter_WriteRegion(w, 0, S_ALLTOALLV, S_ALLTOALLV, S_EMPTY,
                                     OTF2_REGION_ROLE_COLL_ALL2ALL, OTF2_PARADIGM_MPI,
                                     OTF2_REGION_FLAG_NONE, S_MPI, 0, 0);
    OTF2_GlobalDefWriter_WriteSourceCodeLocation(w, 0, S_FILE, 12);
    OTF2_GlobalDefWriter_WriteCallingContext(w, 0, 0, 0, OTF2_UNDEFINED_CALLING_CONTEXT);
    OTF2_GlobalDefWriter_WriteInterruptGenerator(w, 0, S_CYCLES,
                                                 OTF2_INTERRUPT_GENERATOR_MODE_COUNT,
                                                 OTF2_BASE_DECIMAL, 0, 1000);
    OTF2_GlobalDefWriter_WriteAttribute(w, A_CPU, S_CPU, S_EMPTY, OTF2_TYPE_UINT64);
    OTF2_GlobalDefWriter_WriteAttribute(w, A_SEND, S_SEND, S_EMPTY, OTF2_TYPE_STRING);
    OTF2_GlobalDefWriter_WriteAttribute(w, A_RECV, S_RECV, S_EMPTY, OTF2_TYPE_STRING);
    OTF2_GlobalDefWriter_WriteAttribute(w, A_CALLSITE, S_CALLSITE, S_EMPTY,
                                        OTF2_TYPE_SOURCE_CODE_LOCATION);
    OTF2_GlobalDefWriter_WriteGroup(w, 0, S_MPI, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                    OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 1, world);
    OTF2_GlobalDefWriter_WriteGroup(w, 1, S_MPI, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                    OTF2_GROUP_FLAG_NONE, 1, world);
    OTF2_GlobalDefWriter_WriteComm(w, 0, S_MPI, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
    OTF2_GlobalDefWriter_WriteCartDimension(w, 0, S_DIM, 1, OTF2_CART_PERIODIC_TRUE);
    OTF2_GlobalDefWriter_WriteCartTopology(w, 0, S_TOPO, 0, 1, &dim);
    OTF2_GlobalDefWriter_WriteCartCoordinate(w, 0, 0, 1, &coord);
    OTF2_GlobalDefWriter_WriteMetricMember(w, 0, S_METRIC, S_EMPTY, OTF2_METRIC_TYPE_PAPI,
                                           OTF2_METRIC_ACCUMULATED_START, OTF2_TYPE_UINT64,
                                           OTF2_BASE_DECIMAL, 0, S_CYCLES);
    OTF2_GlobalDefWriter_WriteMetricClass(w, 0, 1, &member, OTF2_METRIC_SYNCHRONOUS_STRICT,
                                          OTF2_RECORDER_KIND_CPU);
    OTF2_GlobalDefWriter_WriteMetricClassRecorder(w, 0, 0);
    OTF2_GlobalDefWriter_WriteMetricClassRecorder(w, 0, 7);
}

static OTF2_FlushType always_flush(void *data, OTF2_FileType type, OTF2_LocationRef loc,
                                   void *caller, bool final)
{
    (void)data, (void)type, (void)loc, (void)caller, (void)final;
    return OTF2_FLUSH;
}

static const OTF2_FlushCallbacks flush_callbacks = { always_flush, NULL };

static void record_attributed(const char *d)
{
    OTF2_Archive *a = OTF2_Archive_Open(d, "traces", OTF2_FILEMODE_WRITE, 1 << 20, 1 << 22,
                                        OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    OTF2_AttributeList *l = OTF2_AttributeList_New();
    OTF2_EvtWriter *w;

    cr_assert(a && l);
    OTF2_Archive_SetFlushCallbacks(a, &flush_callbacks, NULL);
    OTF2_Archive_SetSerialCollectiveCallbacks(a);
    OTF2_Archive_OpenEvtFiles(a);
    w = OTF2_Archive_GetEvtWriter(a, 0);
    cr_assert_not_null(w);
    OTF2_AttributeList_AddSourceCodeLocationRef(l, A_CALLSITE, 0);
    OTF2_AttributeList_AddUint64(l, A_CPU, 1000);
    OTF2_EvtWriter_Enter(w, l, MS(1), 0);
    OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, MS(1));
    OTF2_AttributeList_AddStringRef(l, A_SEND, S_LIST1);
    OTF2_AttributeList_AddStringRef(l, A_RECV, S_LIST2);
    OTF2_EvtWriter_MpiCollectiveEnd(w, l, MS(2), OTF2_COLLECTIVE_OP_ALLTOALLV, 0,
                                    OTF2_UNDEFINED_UINT32, 24, 24);
    OTF2_AttributeList_AddUint64(l, A_CPU, 2500);
    OTF2_EvtWriter_Leave(w, l, MS(2), 0);
    OTF2_Archive_CloseEvtWriter(a, w);
    OTF2_Archive_CloseEvtFiles(a);
    OTF2_Archive_OpenDefFiles(a);
    OTF2_Archive_CloseDefWriter(a, OTF2_Archive_GetDefWriter(a, 0));
    OTF2_Archive_CloseDefWriter(a, OTF2_Archive_GetDefWriter(a, 7));
    OTF2_Archive_CloseDefFiles(a);
    define_attributed(OTF2_Archive_GetGlobalDefWriter(a), 4, MS(2));
    cr_assert_eq(OTF2_Archive_Close(a), OTF2_SUCCESS);
    OTF2_AttributeList_Delete(l);
}

Test(trace_out, attributes_and_definitions_of_the_recorder_and_score_p)
{
    char rec[4096], pred[4096];

    record_attributed(path_in("recorded", rec));
    read_archive(rec, &in);
    cr_assert_eq(in.nlocations, 2);
    cr_assert_eq(in.nrecs[0], 4);
    cr_assert_eq(in.recs[0][0].callsite, 0);
    cr_assert_eq(in.recs[0][0].cpu, 1000);
    cr_assert_eq(in.recs[0][2].send_list, S_LIST1);
    cr_assert_eq(in.recs[0][2].recv_list, S_LIST2);
    cr_assert_eq(in.recs[0][3].cpu, 2500);
    in.nlocations = 1;          /* location 0 only */
    write_predicted(rec, path_in("predicted", pred), &in);
    read_archive(pred, &out);
    assert_predicted(&out, &in);
    cr_assert_eq(out.realtime, 12345);
    assert_printable(pred);
    assert_same_definitions(rec, pred, "\"Thread 1\" <7>");
}

Test(trace_out, attributes_the_recorded_archive_lacks_are_left_out)
{
    char rec[4096], pred[4096];

    tp_record_two(path_in("recorded", rec));
    read_archive(rec, &in);
    cr_assert_eq(in.recs[1][1].kind, PZ_REC_LEAVE);
    in.recs[0][1].cpu = 77;
    in.recs[1][1].send_list = in.recs[1][1].recv_list = 0;
    in.recs[1][1].callsite = 0;              /* a call site only on an Enter */
    write_predicted(rec, path_in("predicted", pred), &in);
    in.recs[0][1].cpu = PZ_NONE64;
    in.recs[1][1].send_list = in.recs[1][1].recv_list = PZ_NONE32;
    in.recs[1][1].callsite = PZ_NONE32;
    read_archive(pred, &out);
    assert_predicted(&out, &in);
}

/* A failed open: NULL, and one line naming `named`. */
static void assert_refused(const char *recorded, const char *to, int n,
                           const uint64_t *locations, const char *named)
{
    struct pz_trace_out *o = pz_trace_out_open(recorded, to, n, locations, err, sizeof(err));

    cr_assert_null(o);
    cr_assert_not_null(strstr(err, named), "the error names not %s: %s", named, err);
    cr_assert_null(strchr(err, '\n'), "more than one line: %s", err);
}

Test(trace_out, refuses_an_existing_trace_and_a_bad_recording)
{
    char rec[4096], pred[4096], junk[4096], anchor[4096 + 16];
    const uint64_t two[2] = { 0, 1 }, unknown[2] = { 0, 9 }, twice[2] = { 1, 1 };
    FILE *f;

    tp_record_two(path_in("recorded", rec));
    snprintf(anchor, sizeof(anchor), "%s/traces.otf2", rec);
    assert_refused(rec, rec, 2, two, anchor);
    assert_refused(path_in("missing", junk), path_in("predicted", pred), 2, two, junk);
    f = fopen(path_in("junk", junk), "w");
    cr_assert_not_null(f);
    fputs("not a trace\n", f);
    fclose(f);
    assert_refused(junk, pred, 2, two, junk);
    assert_refused(anchor, pred, 2, unknown, "location 9");
    assert_refused(rec, pred, 2, twice, "location 1");
}

Test(trace_out, accepts_the_anchor_file_and_closes_null)
{
    char rec[4096], pred[4096], anchor[4096 + 16];
    const uint64_t one[1] = { 1 };
    struct pz_trace_out *o;
    struct pz_rec enter = blank(PZ_REC_ENTER);

    tp_record_two(path_in("recorded", rec));
    snprintf(anchor, sizeof(anchor), "%s/traces.otf2", rec);
    o = pz_trace_out_open(anchor, path_in("predicted", pred), 1, one, err, sizeof(err));
    cr_assert_not_null(o, "%s", err);
    cr_assert_eq(pz_trace_out_event(o, 1, &enter, MS(2)), -1, "process 1 does not exist");
    cr_assert_eq(pz_trace_out_close(o, err, sizeof(err)), -1);
    cr_assert_not_null(strstr(err, "could not be written"), "%s", err);
    cr_assert_eq(pz_trace_out_close(NULL, err, sizeof(err)), 0);
}
