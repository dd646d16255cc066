/* predict: the replay engine's speed and memory against a bare read of the same trace
 * (bench/predict.sh, bench/README.md, "The predictor").
 *
 *   predict [--machine FILE] TRACE              the three measures, each in a fresh
 *                                               process (bench/predict.sh takes the
 *                                               ratios)
 *   predict [--machine FILE] --only MODE TRACE  one measure, in this process
 *
 * TRACE is DIR or DIR/traces.otf2; FILE is a machine file (by default
 * share/machines/gigabit-switch.conf of the source tree).  The measures (MODE):
 *
 *   bare     OTF2 alone, reading the trace the way trace/trace_in.c does: the
 *            global definitions (locations only kept), every location selected, an
 *            event reader per location, its local definitions read (mapping tables,
 *            clock offsets), then the events of every location through its own
 *            reader, 64 at a time, the locations in turn, as the replay reads them,
 *            with a callback that does nothing for each event kind the predictor
 *            registers;
 *   open     pz_trace_in_open then pz_trace_in_close: the predictor's reading of the
 *            definitions and opening of the streams, no event read (the fixed cost of
 *            a replay, which grows with the ranks);
 *   predict  pz_predict on the machine, no output trace: the whole replay, opening
 *            included.
 *
 * Each is timed with CLOCK_MONOTONIC from opening the trace to the end, and its
 * processor time (CLOCK_PROCESS_CPUTIME_ID) over the same span.  Its peak memory is
 * the process's peak resident set (getrusage, ru_maxrss), hence a fresh process for
 * each.  The events are those the global definitions announce for the locations (read
 * before the clock starts); the records are those the measure read (the predictor's
 * records replayed, pz_prediction.records), and the rates divide the records by the
 * times.  A measure prints one line:
 *
 *   mode=predict events=E records=R calls=C seconds=S cpu_seconds=C records_per_sec=Q
 *   records_per_cpu_sec=Q peak_mb=M end=T
 *
 * (on one line) with M in MiB (2^20 bytes) and T the predicted run's end in seconds
 * (predict only; calls is 0 for the others). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <otf2/otf2.h>

#include "engine.h"
#include "locations.h"
#include "rerun.h"
#include "machine.h"
#include "trace_in.h"

#ifndef PZ_BENCH_MACHINE
#define PZ_BENCH_MACHINE "share/machines/gigabit-switch.conf"
#endif

/* Events read from a location at a time, as trace/trace_in.c reads them. */
#define READ_BATCH 64

/* The callbacks of the bare read: nothing done, for each kind trace_in.c registers. */
static OTF2_CallbackCode on_region(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                   void *ud, OTF2_AttributeList *attributes,
                                   OTF2_RegionRef region)
{
    (void)loc, (void)time, (void)pos, (void)ud, (void)attributes, (void)region;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_p2p(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                void *ud, OTF2_AttributeList *attributes, uint32_t peer,
                                OTF2_CommRef comm, uint32_t tag, uint64_t length)
{
    (void)loc, (void)time, (void)pos, (void)ud, (void)attributes, (void)peer, (void)comm;
    (void)tag, (void)length;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_ip2p(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                 void *ud, OTF2_AttributeList *attributes, uint32_t peer,
                                 OTF2_CommRef comm, uint32_t tag, uint64_t length,
                                 uint64_t request)
{
    (void)loc, (void)time, (void)pos, (void)ud, (void)attributes, (void)peer, (void)comm;
    (void)tag, (void)length, (void)request;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_request(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                    void *ud, OTF2_AttributeList *attributes,
                                    uint64_t request)
{
    (void)loc, (void)time, (void)pos, (void)ud, (void)attributes, (void)request;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_coll_begin(OTF2_LocationRef loc, OTF2_TimeStamp time,
                                       uint64_t pos, void *ud,
                                       OTF2_AttributeList *attributes)
{
    (void)loc, (void)time, (void)pos, (void)ud, (void)attributes;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_coll_end(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                     void *ud, OTF2_AttributeList *attributes,
                                     OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root,
                                     uint64_t sent, uint64_t received)
{
    (void)loc, (void)time, (void)pos, (void)ud, (void)attributes, (void)op, (void)comm;
    (void)root, (void)sent, (void)received;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_nbc_complete(OTF2_LocationRef loc, OTF2_TimeStamp time,
                                         uint64_t pos, void *ud,
                                         OTF2_AttributeList *attributes,
                                         OTF2_CollectiveOp op, OTF2_CommRef comm,
                                         uint32_t root, uint64_t sent, uint64_t received,
                                         uint64_t request)
{
    (void)loc, (void)time, (void)pos, (void)ud, (void)attributes, (void)op, (void)comm;
    (void)root, (void)sent, (void)received, (void)request;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_flush(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                  void *ud, OTF2_AttributeList *attributes,
                                  OTF2_TimeStamp stop)
{
    (void)loc, (void)time, (void)pos, (void)ud, (void)attributes, (void)stop;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_EvtReaderCallbacks *bare_callbacks(void)
{
    OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();

    if (!cb)
        return NULL;
    OTF2_EvtReaderCallbacks_SetEnterCallback(cb, on_region);
    OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, on_region);
    OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, on_p2p);
    OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, on_p2p);
    OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, on_ip2p);
    OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, on_ip2p);
    OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, on_request);
    OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, on_request);
    OTF2_EvtReaderCallbacks_SetMpiRequestTestCallback(cb, on_request);
    OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, on_request);
    OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, on_coll_begin);
    OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, on_coll_end);
    OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveRequestCallback(cb, on_request);
    OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveCompleteCallback(cb, on_nbc_complete);
    OTF2_EvtReaderCallbacks_SetBufferFlushCallback(cb, on_flush);
    return cb;
}

/* Reads every location's events, READ_BATCH at a time, the locations in turn; returns
 * the events read, 0 on a read error. */
static uint64_t read_in_turn(OTF2_EvtReader **readers, uint64_t n)
{
    uint64_t read = 0, active = n;

    while (active > 0) {
        active = 0;
        for (uint64_t i = 0; i < n; i++) {
            uint64_t got = 0;

            if (!readers[i])
                continue;
            if (OTF2_EvtReader_ReadEvents(readers[i], READ_BATCH, &got) != OTF2_SUCCESS)
                return 0;
            read += got;
            if (got < READ_BATCH)
                readers[i] = NULL;     /* its end: reading again would start over */
            else
                active++;
        }
    }
    return read;
}

/* The bare read; returns the events read, 0 on failure. */
static uint64_t bare_read(const char *anchor)
{
    struct locations l = { 0 };
    OTF2_Reader *otf = open_trace(anchor);
    OTF2_EvtReaderCallbacks *cb = bare_callbacks();
    OTF2_EvtReader **readers = NULL;
    uint64_t n = 0, read = 0;

    if (!otf || !cb || read_locations(otf, &l) != 0 ||
        !(readers = calloc(l.n, sizeof(*readers))))
        goto out;
    for (uint64_t i = 0; i < l.n; i++)
        OTF2_Reader_SelectLocation(otf, l.id[i]);
    OTF2_Reader_OpenDefFiles(otf);
    OTF2_Reader_OpenEvtFiles(otf);
    for (uint64_t i = 0; i < l.n; i++) {
        OTF2_DefReader *dr;

        if (!(readers[i] = OTF2_Reader_GetEvtReader(otf, l.id[i])))
            goto out_close_files;
        OTF2_Reader_RegisterEvtCallbacks(otf, readers[i], cb, NULL);
        if ((dr = OTF2_Reader_GetDefReader(otf, l.id[i]))) {
            OTF2_Reader_ReadAllLocalDefinitions(otf, dr, &n);
            OTF2_Reader_CloseDefReader(otf, dr);
        }
    }
    read = read_in_turn(readers, l.n);
out_close_files:
    OTF2_Reader_CloseEvtFiles(otf);
    OTF2_Reader_CloseDefFiles(otf);
out:
    OTF2_EvtReaderCallbacks_Delete(cb);
    if (otf)
        OTF2_Reader_Close(otf);
    free(readers);
    free(l.id);
    return read;
}

static double clock_of(clockid_t id)
{
    struct timespec ts;

    clock_gettime(id, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One measure's result. */
struct result {
    uint64_t records, calls;
    double end;
};

/* Runs measure mode on anchor; 0, or -1 after printing why. */
static int run_mode(const char *mode, const char *anchor, const struct pz_machine *m,
                    struct result *res)
{
    char err[4096 + 512];

    if (!strcmp(mode, "bare")) {
        res->records = bare_read(anchor);
        if (!res->records) {
            fprintf(stderr, "predict: %s: the bare read failed\n", anchor);
            return -1;
        }
    } else if (!strcmp(mode, "open")) {
        struct pz_trace_in *t = pz_trace_in_open(anchor, err, sizeof(err));

        if (!t) {
            fprintf(stderr, "predict: %s\n", err);
            return -1;
        }
        res->records = pz_trace_in_records(t);
        pz_trace_in_close(t);
    } else {
        struct pz_predict_options o = { .machine = m };
        struct pz_prediction p;

        if (pz_predict(anchor, &o, &p, err, sizeof(err)) != 0) {
            fprintf(stderr, "predict: %s\n", err);
            return -1;
        }
        res->records = p.records;
        res->calls = p.calls;
        res->end = p.end;
    }
    return 0;
}

/* One measure in this process. */
static int measure(const char *mode, const char *anchor, const char *machine)
{
    uint64_t events = announced_events(anchor);
    struct pz_machine m;
    struct result res = { 0 };
    struct rusage ru;
    double start, seconds, cpu_start, cpu_seconds;
    char err[4096 + 512];

    if (!events) {
        fprintf(stderr, "predict: %s: not a readable OTF2 trace with events\n", anchor);
        return 1;
    }
    if (pz_machine_load(machine, &m, err, sizeof(err)) != 0) {
        fprintf(stderr, "predict: %s\n", err);
        return 1;
    }
    cpu_start = clock_of(CLOCK_PROCESS_CPUTIME_ID);
    start = clock_of(CLOCK_MONOTONIC);
    if (run_mode(mode, anchor, &m, &res) != 0)
        return 1;
    seconds = clock_of(CLOCK_MONOTONIC) - start;
    cpu_seconds = clock_of(CLOCK_PROCESS_CPUTIME_ID) - cpu_start;
    if (strcmp(mode, "open") && res.records != events) {
        fprintf(stderr, "predict: %s: %s read %llu events of %llu\n", anchor, mode,
                (unsigned long long)res.records, (unsigned long long)events);
        return 1;
    }
    getrusage(RUSAGE_SELF, &ru);
    printf("mode=%s events=%llu records=%llu calls=%llu seconds=%.3f cpu_seconds=%.3f "
           "records_per_sec=%.0f records_per_cpu_sec=%.0f peak_mb=%.1f end=%.6f\n", mode,
           (unsigned long long)events, (unsigned long long)res.records,
           (unsigned long long)res.calls, seconds, cpu_seconds,
           (double)res.records / seconds, (double)res.records / cpu_seconds,
           (double)ru.ru_maxrss / 1024.0, res.end);
    fflush(stdout);
    return 0;
}

/* Runs this program again with --only mode; 0 if it succeeded. */
static int child(const char *mode, const char *anchor, const char *machine)
{
    char *const argv[] = { (char *)"predict", (char *)"--machine", (char *)machine,
                           (char *)"--only", (char *)mode, (char *)anchor, NULL };

    return pz_bench_rerun(argv, "predict");
}

static int valid_mode(const char *mode)
{
    return !strcmp(mode, "bare") || !strcmp(mode, "open") || !strcmp(mode, "predict");
}

int main(int argc, char **argv)
{
    const char *mode = NULL, *path = NULL, *machine = PZ_BENCH_MACHINE;
    char anchor[4096];
    struct stat st;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--only") && i + 1 < argc && valid_mode(argv[i + 1]))
            mode = argv[++i];
        else if (!strcmp(argv[i], "--machine") && i + 1 < argc)
            machine = argv[++i];
        else if (argv[i][0] != '-' && !path)
            path = argv[i];
        else
            path = NULL, i = argc;
    }
    if (!path) {
        fprintf(stderr, "usage: predict [--machine FILE] [--only bare|open|predict] TRACE\n");
        return 2;
    }
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        snprintf(anchor, sizeof(anchor), "%s/traces.otf2", path);
    else
        snprintf(anchor, sizeof(anchor), "%s", path);
    if (mode)
        return measure(mode, anchor, machine);
    if (child("bare", anchor, machine) != 0 ||
        child("open", anchor, machine) != 0 ||
        child("predict", anchor, machine) != 0)
        return 1;
    return 0;
}
