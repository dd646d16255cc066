/* analyze: the analyzer's speed and memory against a bare read of the same trace
 * (bench/analyze.sh, bench/README.md).
 *
 *   analyze TRACE                  both measures, each in a fresh process, then the ratio
 *   analyze --only bare TRACE      one measure, in this process
 *   analyze --only analysis TRACE
 *
 * TRACE is DIR or DIR/traces.otf2.  The measures:
 *
 *   bare      OTF2 alone, reading the trace the way analyzer/read.c does: the global
 *             definitions (locations only kept), every location selected, its local
 *             definitions read (mapping tables, clock offsets), then all events in time
 *             order through the global event reader, with a callback that does nothing
 *             for each event kind the analyzer registers (Enter, Leave, MpiSend,
 *             MpiIsend, MpiRecv, MpiIrecv, MpiCollectiveEnd);
 *   analysis  pz_analyze of analyzer/libpzanalyzer.la, then pz_analysis_free.
 *
 * Each is timed with CLOCK_MONOTONIC from opening the trace to the end, and its processor
 * time (user and system, getrusage) over the same span: on a busy machine the second is
 * the steadier figure.  Its peak memory is the process's peak resident set (getrusage,
 * ru_maxrss), hence a fresh process for each.  The events counted are those the global
 * definitions give for the locations, read before the clock starts.  A measure prints
 * one line:
 *
 *   mode=bare events=E seconds=S events_per_sec=R cpu_seconds=C events_per_cpu_sec=Q
 *   peak_mb=M
 *
 * (on one line) with M in MiB (2^20 bytes). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <otf2/otf2.h>

#include "analysis.h"
#include "locations.h"
#include "rerun.h"

static OTF2_CallbackCode on_region(OTF2_LocationRef loc, OTF2_TimeStamp time, void *ud,
                                   OTF2_AttributeList *attributes, OTF2_RegionRef region)
{
    (void)loc, (void)time, (void)ud, (void)attributes, (void)region;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_p2p(OTF2_LocationRef loc, OTF2_TimeStamp time, void *ud,
                                OTF2_AttributeList *attributes, uint32_t peer,
                                OTF2_CommRef comm, uint32_t tag, uint64_t length)
{
    (void)loc, (void)time, (void)ud, (void)attributes, (void)peer, (void)comm, (void)tag;
    (void)length;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_ip2p(OTF2_LocationRef loc, OTF2_TimeStamp time, void *ud,
                                 OTF2_AttributeList *attributes, uint32_t peer,
                                 OTF2_CommRef comm, uint32_t tag, uint64_t length,
                                 uint64_t request)
{
    (void)loc, (void)time, (void)ud, (void)attributes, (void)peer, (void)comm, (void)tag;
    (void)length, (void)request;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_collective_end(OTF2_LocationRef loc, OTF2_TimeStamp time,
                                           void *ud, OTF2_AttributeList *attributes,
                                           OTF2_CollectiveOp op, OTF2_CommRef comm,
                                           uint32_t root, uint64_t sent, uint64_t received)
{
    (void)loc, (void)time, (void)ud, (void)attributes, (void)op, (void)comm, (void)root;
    (void)sent, (void)received;
    return OTF2_CALLBACK_SUCCESS;
}

/* The bare read; returns the events read, 0 on failure. */
static uint64_t bare_read(const char *anchor)
{
    struct locations l = { 0 };
    OTF2_Reader *otf = open_trace(anchor);
    OTF2_GlobalEvtReader *er = NULL;
    OTF2_GlobalEvtReaderCallbacks *cb = NULL;
    uint64_t n = 0, read = 0;

    if (!otf || read_locations(otf, &l) != 0)
        goto out;
    for (uint64_t i = 0; i < l.n; i++)
        OTF2_Reader_SelectLocation(otf, l.id[i]);
    OTF2_Reader_OpenDefFiles(otf);
    OTF2_Reader_OpenEvtFiles(otf);
    for (uint64_t i = 0; i < l.n; i++) {
        OTF2_DefReader *dr;

        OTF2_Reader_GetEvtReader(otf, l.id[i]);
        if ((dr = OTF2_Reader_GetDefReader(otf, l.id[i]))) {
            OTF2_Reader_ReadAllLocalDefinitions(otf, dr, &n);
            OTF2_Reader_CloseDefReader(otf, dr);
        }
    }
    er = OTF2_Reader_GetGlobalEvtReader(otf);
    cb = OTF2_GlobalEvtReaderCallbacks_New();
    if (er && cb) {
        OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(cb, on_region);
        OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(cb, on_region);
        OTF2_GlobalEvtReaderCallbacks_SetMpiSendCallback(cb, on_p2p);
        OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCallback(cb, on_ip2p);
        OTF2_GlobalEvtReaderCallbacks_SetMpiRecvCallback(cb, on_p2p);
        OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvCallback(cb, on_ip2p);
        OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, on_collective_end);
        OTF2_Reader_RegisterGlobalEvtCallbacks(otf, er, cb, NULL);
        if (OTF2_Reader_ReadAllGlobalEvents(otf, er, &read) != OTF2_SUCCESS)
            read = 0;
        OTF2_Reader_CloseGlobalEvtReader(otf, er);
    }
    OTF2_GlobalEvtReaderCallbacks_Delete(cb);
    OTF2_Reader_CloseEvtFiles(otf);
    OTF2_Reader_CloseDefFiles(otf);
out:
    if (otf)
        OTF2_Reader_Close(otf);
    free(l.id);
    return read;
}

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Processor time of this process so far, user and system. */
static double cpu(void)
{
    struct rusage ru;

    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
           (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
}

/* One measure in this process. */
static int measure(const char *mode, const char *anchor)
{
    uint64_t events = announced_events(anchor);
    struct rusage ru;
    double start, seconds, cpu_start, cpu_seconds;

    if (!events) {
        fprintf(stderr, "analyze: %s: not a readable OTF2 trace with events\n", anchor);
        return 1;
    }
    if (!strcmp(mode, "bare")) {
        uint64_t read;

        cpu_start = cpu();
        start = now();
        read = bare_read(anchor);
        seconds = now() - start;
        cpu_seconds = cpu() - cpu_start;
        if (read != events) {
            fprintf(stderr, "analyze: %s: the bare read read %llu events of %llu\n", anchor,
                    (unsigned long long)read, (unsigned long long)events);
            return 1;
        }
    } else {
        struct pz_analysis a;
        char err[1024];
        int rc;

        cpu_start = cpu();
        start = now();
        rc = pz_analyze(anchor, &a, err, sizeof(err));
        if (rc == 0)
            pz_analysis_free(&a);
        seconds = now() - start;
        cpu_seconds = cpu() - cpu_start;
        if (rc != 0) {
            fprintf(stderr, "analyze: %s\n", err);
            return 1;
        }
    }
    getrusage(RUSAGE_SELF, &ru);
    printf("mode=%s events=%llu seconds=%.3f events_per_sec=%.0f cpu_seconds=%.3f "
           "events_per_cpu_sec=%.0f peak_mb=%.1f\n", mode, (unsigned long long)events, seconds,
           (double)events / seconds, cpu_seconds, (double)events / cpu_seconds,
           (double)ru.ru_maxrss / 1024.0);
    fflush(stdout);
    return 0;
}

/* Runs this program again with --only mode; 0 if it succeeded. */
static int child(const char *mode, const char *anchor)
{
    char *const argv[] = { (char *)"analyze", (char *)"--only", (char *)mode, (char *)anchor,
                           NULL };

    return pz_bench_rerun(argv, "analyze");
}

int main(int argc, char **argv)
{
    const char *mode = NULL, *path;
    char anchor[4096];
    struct stat st;

    if (argc == 4 && !strcmp(argv[1], "--only") &&
        (!strcmp(argv[2], "bare") || !strcmp(argv[2], "analysis")))
        mode = argv[2];
    else if (argc != 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: analyze [--only bare|analysis] TRACE\n");
        return 2;
    }
    path = argv[argc - 1];
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        snprintf(anchor, sizeof(anchor), "%s/traces.otf2", path);
    else
        snprintf(anchor, sizeof(anchor), "%s", path);
    if (mode)
        return measure(mode, anchor);
    if (child("bare", anchor) != 0 ||
        child("analysis", anchor) != 0)
        return 1;
    return 0;
}
