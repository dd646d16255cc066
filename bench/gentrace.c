/* gentrace: writes a synthetic OTF2 trace shaped like one the recorder writes, for the
 * analyzer's and the predictor's benchmarks (bench/analyze.sh, bench/predict.sh,
 * bench/README.md).
 *
 *   gentrace OUTDIR --ranks P --iterations N [--seed S] [--event-chunk BYTES]
 *            [--def-chunk BYTES]
 *
 * writes OUTDIR/traces.otf2 and OUTDIR/traces/ (OUTDIR must not hold a trace yet) from
 * this one process: the OTF2 writer API with serial collective callbacks, every location
 * written here.  The run it describes, on each of the P ranks:
 *
 *   MPI_Init
 *   N times: interval 1 {
 *       MPI_Irecv from the left neighbour; packing the message (0.2 to 2.2 us);
 *       MPI_Isend to the right neighbour (8 KiB, tag 7);
 *       MPI_Waitall of both (receive request first);
 *       computation: 50 us, times 1 + a fixed imbalance of the rank (0 to 10%) + noise
 *       of the iteration (0 to 10%);
 *       MPI_Allreduce of one double on MPI_COMM_WORLD
 *   }
 *   MPI_Finalize
 *
 * The events are those the recorder writes for these calls (wrapper/translate.c): Enter
 * and Leave of each call and of the interval; MpiIrecvRequest in MPI_Irecv; MpiIsend in
 * MPI_Isend; MpiIrecv and MpiIsendComplete at the end of MPI_Waitall; MpiCollectiveBegin
 * and MpiCollectiveEnd in MPI_Allreduce.  That is 16 events per rank and iteration, and
 * 4 more per rank for MPI_Init and MPI_Finalize: 64 ranks of 10000 iterations make
 * 10,240,256 events.
 *
 * The timestamps are those of a real run, simulated iteration by iteration over all
 * ranks: a receive completes at the earliest 1.5 us + 1 ns per byte after its send
 * began, so a rank whose left neighbour took longer to pack its message enters
 * MPI_Waitall before the send began and waits there (Late Sender);
 * every rank leaves an Allreduce 3 us (plus up to 0.5 us of noise) after the last rank
 * entered it, so the faster ranks wait there (Wait at NxN).  No receive ends before its
 * send began and every collective instance is complete.  The noise comes from a
 * splitmix64 generator seeded with S (default 1): the same arguments give the same
 * trace.
 *
 * The definitions are the recorder's (wrapper/globaldefs.c): clock properties in ns, the
 * MPI paradigm, a system tree of nodes of 16 ranks, a process and a master thread per
 * rank (location id = rank), a region per MPI function of the recorder's table (region
 * id = call id, paradigm MPI), the interval "interval 1 at ring.c:42" with the PHASE flag,
 * the COMM_LOCATIONS group, the COMM_SELF group, a COMM_GROUP for MPI_COMM_WORLD, and the
 * communicators 0 (MPI_COMM_WORLD) and 1 (MPI_COMM_SELF).  Each location's local
 * definitions hold, as the recorder's do, the mapping tables of its communicators and
 * regions (identities here) and two clock offsets (zero here).
 *
 * The archive's chunk sizes are the recorder's (wrapper/archive.c: 1 MiB of events,
 * 4 MiB of definitions) unless --event-chunk or --def-chunk say otherwise (OTF2 takes
 * 256 KiB to 16 MiB).  They matter to whoever reads the trace: OTF2's reader holds one
 * event chunk for every location read through its own event reader (as the predictor
 * streams each rank), so 4096 locations of 1 MiB chunks take 4 GiB whatever the reader
 * does with the events (bench/README.md, "The predictor").
 *
 * It prints one line: "ranks=P iterations=N events=E". */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <otf2/otf2.h>

#include "calls_gen.h"
#include "names.h"

#define RANKS_PER_NODE 16
#define TAG 7
#define MESSAGE_BYTES 8192u
#define BEGIN 1000000000000u         /* ns: the first timestamp */
#define COMPUTE_NS 50000.0
#define ATTR_SEND_BYTES 0u           /* the recorder's attributes (wrapper/vcounts.h) */
#define ATTR_RECV_BYTES 1u
#define ATTR_CALLSITE 2u
#define INTERVAL_REGION PZ_NCALLS    /* the only interval: region after the MPI ones */
#define INTERVAL_FILE "/home/user/ring/ring.c"
#define INTERVAL_LINE 42u

enum { GROUP_LOCATIONS, GROUP_SELF, GROUP_WORLD };
enum { COMM_WORLD, COMM_SELF };

static uint64_t rng_state;

static uint64_t splitmix64(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15u);

    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
static double uniform(void)
{
    return (double)(splitmix64() >> 11) * (1.0 / 9007199254740992.0);
}

static OTF2_FlushType pre_flush(void *data, OTF2_FileType type, OTF2_LocationRef location,
                                void *caller, bool final)
{
    (void)data, (void)type, (void)location, (void)caller, (void)final;
    return OTF2_FLUSH;
}

static const OTF2_FlushCallbacks flush_callbacks = { pre_flush, NULL };

static int errors;

static OTF2_ErrorCode count_error(void *data, const char *file, uint64_t line,
                                  const char *function, OTF2_ErrorCode code, const char *fmt,
                                  va_list va)
{
    (void)data, (void)file, (void)line, (void)function;
    fprintf(stderr, "gentrace: OTF2: %s: ", OTF2_Error_GetDescription(code));
    vfprintf(stderr, fmt ? fmt : "", va);
    fputc('\n', stderr);
    errors++;
    return code;
}

/* One rank's times in the current iteration, ns. */
struct rank {
    OTF2_EvtWriter *w;
    uint64_t events;
    uint64_t now;              /* the end of what was written */
    double imbalance;          /* fixed share of extra computation */
    uint64_t isend;            /* when its MPI_Isend of this iteration began */
    uint64_t posted;           /* when its MPI_Isend of this iteration returned */
    uint64_t recv_req, send_req;   /* request ids of this iteration */
};

static void call(struct rank *k, uint32_t region, uint64_t enter, uint64_t leave)
{
    OTF2_EvtWriter_Enter(k->w, NULL, enter, region);
    OTF2_EvtWriter_Leave(k->w, NULL, leave, region);
    k->events += 2;
}

/* The iteration up to MPI_Waitall: the interval begins, the receive and the send are
 * posted. */
static void post(struct rank *k, int right)
{
    uint64_t t = k->now + 100;

    OTF2_EvtWriter_Enter(k->w, NULL, t, INTERVAL_REGION);
    t += 150;
    k->recv_req = k->send_req + 1;
    OTF2_EvtWriter_Enter(k->w, NULL, t, PZ_CALL_MPI_Irecv);
    OTF2_EvtWriter_MpiIrecvRequest(k->w, NULL, t, k->recv_req);
    t += 250 + splitmix64() % 50;
    OTF2_EvtWriter_Leave(k->w, NULL, t, PZ_CALL_MPI_Irecv);
    t += 200 + splitmix64() % 2000;      /* packing the message */
    k->send_req = k->recv_req + 1;
    k->isend = t;
    OTF2_EvtWriter_Enter(k->w, NULL, t, PZ_CALL_MPI_Isend);
    OTF2_EvtWriter_MpiIsend(k->w, NULL, t, (uint32_t)right, COMM_WORLD, TAG, MESSAGE_BYTES,
                            k->send_req);
    t += 400 + splitmix64() % 100;
    OTF2_EvtWriter_Leave(k->w, NULL, t, PZ_CALL_MPI_Isend);
    k->posted = t;
    k->events += 7;
}

static void write_definitions(OTF2_GlobalDefWriter *w, int ranks, const struct rank *rk,
                              uint64_t end);

/* A chunk size in bytes from text, within OTF2's limits; 0 if it is not one. */
static uint64_t chunk_size(const char *text)
{
    char *rest;
    unsigned long long v;

    errno = 0;
    v = strtoull(text, &rest, 10);
    if (*rest || errno || v < OTF2_CHUNK_SIZE_MIN || v > OTF2_CHUNK_SIZE_MAX)
        return 0;
    return v;
}

int main(int argc, char **argv)
{
    const char *out = NULL;
    long ranks = 0;
    unsigned long long iterations = 0, seed = 1;
    uint64_t event_chunk = 1024 * 1024, def_chunk = 4 * 1024 * 1024;   /* the recorder's */
    char anchor[4096];
    struct stat st;
    struct rank *rk;
    uint64_t end = 0, total = 0;
    OTF2_Archive *archive;

    for (int i = 1; i < argc; i++) {
        char *rest = NULL;

        errno = 0;
        if (!strcmp(argv[i], "--ranks") && i + 1 < argc)
            ranks = strtol(argv[++i], &rest, 10);
        else if (!strcmp(argv[i], "--iterations") && i + 1 < argc)
            iterations = strtoull(argv[++i], &rest, 10);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], &rest, 10);
        else if (!strcmp(argv[i], "--event-chunk") && i + 1 < argc)
            event_chunk = chunk_size(argv[++i]);
        else if (!strcmp(argv[i], "--def-chunk") && i + 1 < argc)
            def_chunk = chunk_size(argv[++i]);
        else if (argv[i][0] != '-' && !out)
            out = argv[i];
        else
            out = NULL, i = argc;
        if (rest && (*rest || errno))
            ranks = 0;
    }
    if (!out || ranks < 2 || ranks > 1 << 16 || iterations == 0 || !event_chunk ||
        !def_chunk) {
        fprintf(stderr, "usage: gentrace OUTDIR --ranks P --iterations N [--seed S]\n"
                        "                [--event-chunk BYTES] [--def-chunk BYTES]\n"
                        "  (P >= 2, N >= 1, chunks of %llu to %llu bytes)\n",
                (unsigned long long)OTF2_CHUNK_SIZE_MIN,
                (unsigned long long)OTF2_CHUNK_SIZE_MAX);
        return 2;
    }
    snprintf(anchor, sizeof(anchor), "%s/traces.otf2", out);
    if (stat(anchor, &st) == 0) {
        fprintf(stderr, "gentrace: %s exists already\n", anchor);
        return 1;
    }
    rng_state = seed;
    OTF2_Error_RegisterCallback(count_error, NULL);
    archive = OTF2_Archive_Open(out, "traces", OTF2_FILEMODE_WRITE, event_chunk, def_chunk,
                                OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!archive ||
        OTF2_Archive_SetFlushCallbacks(archive, &flush_callbacks, NULL) != OTF2_SUCCESS ||
        OTF2_Archive_SetSerialCollectiveCallbacks(archive) != OTF2_SUCCESS ||
        OTF2_Archive_OpenEvtFiles(archive) != OTF2_SUCCESS) {
        fprintf(stderr, "gentrace: cannot create the archive %s\n", anchor);
        return 1;
    }
    if (!(rk = calloc((size_t)ranks, sizeof(*rk)))) {
        fprintf(stderr, "gentrace: out of memory\n");
        return 1;
    }
    for (long r = 0; r < ranks; r++) {
        if (!(rk[r].w = OTF2_Archive_GetEvtWriter(archive, (OTF2_LocationRef)r))) {
            fprintf(stderr, "gentrace: cannot write location %ld\n", r);
            return 1;
        }
        rk[r].imbalance = 0.10 * uniform();
    }

    /* MPI_Init: the ranks start within 5 us and leave together. */
    for (long r = 0; r < ranks; r++)
        call(&rk[r], PZ_CALL_MPI_Init, BEGIN + splitmix64() % 5000, BEGIN + 200000 + r * 10);
    for (long r = 0; r < ranks; r++)
        rk[r].now = BEGIN + 200000 + (uint64_t)r * 10;

    for (uint64_t it = 0; it < iterations && !errors; it++) {
        uint64_t last_in = 0;

        for (long r = 0; r < ranks; r++)
            post(&rk[r], (int)((r + 1) % ranks));
        /* MPI_Waitall: done once the left neighbour's message has arrived; then the
         * computation, then the ranks enter MPI_Allreduce. */
        for (long r = 0; r < ranks; r++) {
            struct rank *k = &rk[r];
            long left = (r + ranks - 1) % ranks;
            uint64_t enter = k->posted + 60, arrived = rk[left].isend + 1500 + MESSAGE_BYTES;
            uint64_t done = (enter + 300 > arrived ? enter + 300 : arrived) + 100 +
                            splitmix64() % 100;
            uint64_t in = done + (uint64_t)(COMPUTE_NS * (1.0 + k->imbalance +
                                                          0.10 * uniform()));

            OTF2_EvtWriter_Enter(k->w, NULL, enter, PZ_CALL_MPI_Waitall);
            OTF2_EvtWriter_MpiIrecv(k->w, NULL, done, (uint32_t)left, COMM_WORLD, TAG,
                                    MESSAGE_BYTES, k->recv_req);
            OTF2_EvtWriter_MpiIsendComplete(k->w, NULL, done, k->send_req);
            OTF2_EvtWriter_Leave(k->w, NULL, done, PZ_CALL_MPI_Waitall);
            OTF2_EvtWriter_Enter(k->w, NULL, in, PZ_CALL_MPI_Allreduce);
            OTF2_EvtWriter_MpiCollectiveBegin(k->w, NULL, in);
            if (in > last_in)
                last_in = in;
            k->events += 6;
        }
        for (long r = 0; r < ranks; r++) {
            struct rank *k = &rk[r];
            uint64_t leave = last_in + 3000 + splitmix64() % 500;

            OTF2_EvtWriter_MpiCollectiveEnd(k->w, NULL, leave, OTF2_COLLECTIVE_OP_ALLREDUCE,
                                            COMM_WORLD, OTF2_UNDEFINED_UINT32, 8, 8);
            OTF2_EvtWriter_Leave(k->w, NULL, leave, PZ_CALL_MPI_Allreduce);
            k->now = leave + 100;
            OTF2_EvtWriter_Leave(k->w, NULL, k->now, INTERVAL_REGION);
            k->events += 3;
        }
    }

    /* MPI_Finalize: the ranks leave together. */
    for (long r = 0; r < ranks; r++)
        if (rk[r].now > end)
            end = rk[r].now;
    end += 50000;
    for (long r = 0; r < ranks; r++) {
        call(&rk[r], PZ_CALL_MPI_Finalize, rk[r].now + 1000, end);
        total += rk[r].events;
        OTF2_Archive_CloseEvtWriter(archive, rk[r].w);
    }
    OTF2_Archive_CloseEvtFiles(archive);

    /* Local definitions, as the recorder's: mappings, then clock offsets. */
    OTF2_Archive_OpenDefFiles(archive);
    for (long r = 0; r < ranks && !errors; r++) {
        OTF2_DefWriter *d = OTF2_Archive_GetDefWriter(archive, (OTF2_LocationRef)r);
        OTF2_IdMap *comms = OTF2_IdMap_Create(OTF2_ID_MAP_DENSE, 2);
        OTF2_IdMap *regions = OTF2_IdMap_Create(OTF2_ID_MAP_DENSE, PZ_NCALLS + 1);

        if (!d || !comms || !regions) {
            fprintf(stderr, "gentrace: cannot write the definitions of location %ld\n", r);
            return 1;
        }
        for (uint64_t i = 0; i < 2; i++)
            OTF2_IdMap_AddIdPair(comms, i, i);
        for (uint64_t i = 0; i < PZ_NCALLS + 1; i++)
            OTF2_IdMap_AddIdPair(regions, i, i);
        OTF2_DefWriter_WriteMappingTable(d, OTF2_MAPPING_COMM, comms);
        OTF2_DefWriter_WriteMappingTable(d, OTF2_MAPPING_REGION, regions);
        OTF2_IdMap_Free(comms);
        OTF2_IdMap_Free(regions);
        OTF2_DefWriter_WriteClockOffset(d, BEGIN, 0, 20.0);
        OTF2_DefWriter_WriteClockOffset(d, end, 0, 20.0);
        OTF2_Archive_CloseDefWriter(archive, d);
    }
    OTF2_Archive_CloseDefFiles(archive);
    write_definitions(OTF2_Archive_GetGlobalDefWriter(archive), (int)ranks, rk, end);
    if (OTF2_Archive_Close(archive) != OTF2_SUCCESS || errors) {
        fprintf(stderr, "gentrace: the trace in %s is incomplete (%d OTF2 errors; is the "
                        "disk full?)\n", out, errors);
        return 1;
    }
    printf("ranks=%ld iterations=%llu events=%llu\n", ranks, iterations,
           (unsigned long long)total);
    free(rk);
    return 0;
}

/* Global definitions: the order and content of wrapper/globaldefs.c. */
struct strings {
    OTF2_GlobalDefWriter *w;
    OTF2_StringRef next;
};

static OTF2_StringRef string(struct strings *s, const char *text)
{
    OTF2_GlobalDefWriter_WriteString(s->w, s->next, text);
    return s->next++;
}

static OTF2_RegionRole role(const struct pz_call_info *c)
{
    switch (c->category) {
    case PZ_CAT_SEND: case PZ_CAT_RECV: case PZ_CAT_SENDRECV: case PZ_CAT_SENDRECV_REPLACE:
    case PZ_CAT_ISEND: case PZ_CAT_IRECV: case PZ_CAT_MRECV: case PZ_CAT_IMRECV:
    case PZ_CAT_PSEND_INIT: case PZ_CAT_PRECV_INIT: case PZ_CAT_PROBE:
        return OTF2_REGION_ROLE_POINT2POINT;
    case PZ_CAT_COLL:
        switch (c->collective) {
        case PZ_COLL_BARRIER:
            return OTF2_REGION_ROLE_BARRIER;
        case PZ_COLL_BCAST: case PZ_COLL_SCATTER: case PZ_COLL_SCATTERV:
            return OTF2_REGION_ROLE_COLL_ONE2ALL;
        case PZ_COLL_GATHER: case PZ_COLL_GATHERV: case PZ_COLL_REDUCE:
            return OTF2_REGION_ROLE_COLL_ALL2ONE;
        case PZ_COLL_SCAN: case PZ_COLL_EXSCAN:
            return OTF2_REGION_ROLE_COLL_OTHER;
        default:
            return OTF2_REGION_ROLE_COLL_ALL2ALL;
        }
    default:
        return OTF2_REGION_ROLE_FUNCTION;
    }
}

static void write_definitions(OTF2_GlobalDefWriter *w, int ranks, const struct rank *rk,
                              uint64_t end)
{
    struct strings s = { w, 0 };
    OTF2_StringRef mpi_file, empty, node_class, name;
    int nodes = (ranks + RANKS_PER_NODE - 1) / RANKS_PER_NODE;
    uint64_t *members = malloc((size_t)ranks * sizeof(uint64_t));
    char text[128];

    if (!w || !members) {
        errors++;
        free(members);
        return;
    }
    OTF2_GlobalDefWriter_WriteAttribute(
        w, ATTR_SEND_BYTES, string(&s, PZ_NAME_SEND_BYTES), string(&s, PZ_DESC_SEND_BYTES),
        OTF2_TYPE_STRING);
    OTF2_GlobalDefWriter_WriteAttribute(
        w, ATTR_RECV_BYTES, string(&s, PZ_NAME_RECV_BYTES), string(&s, PZ_DESC_RECV_BYTES),
        OTF2_TYPE_STRING);
    OTF2_GlobalDefWriter_WriteClockProperties(w, 1000000000u, BEGIN, end - BEGIN,
                                              1767225600000000000u);
    OTF2_GlobalDefWriter_WriteParadigm(w, OTF2_PARADIGM_MPI, string(&s, "MPI"),
                                       OTF2_PARADIGM_CLASS_PROCESS);

    node_class = string(&s, "node");
    OTF2_GlobalDefWriter_WriteSystemTreeNode(w, 0, string(&s, "machine"), string(&s, "machine"),
                                             OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    for (int n = 0; n < nodes; n++) {
        snprintf(text, sizeof(text), "node%03d", n);
        OTF2_GlobalDefWriter_WriteSystemTreeNode(w, (OTF2_SystemTreeNodeRef)(n + 1),
                                                 string(&s, text), node_class, 0);
    }

    for (int r = 0; r < ranks; r++) {
        snprintf(text, sizeof(text), "MPI Rank %d", r);
        OTF2_GlobalDefWriter_WriteLocationGroup(w, (OTF2_LocationGroupRef)r, string(&s, text),
                                                OTF2_LOCATION_GROUP_TYPE_PROCESS,
                                                (OTF2_SystemTreeNodeRef)(r / RANKS_PER_NODE + 1),
                                                OTF2_UNDEFINED_LOCATION_GROUP);
    }
    for (int r = 0; r < ranks; r++)
        OTF2_GlobalDefWriter_WriteLocation(w, (OTF2_LocationRef)r, string(&s, "Master thread"),
                                           OTF2_LOCATION_TYPE_CPU_THREAD, rk[r].events,
                                           (OTF2_LocationGroupRef)r);

    mpi_file = string(&s, PZ_MPI_FILE);
    empty = string(&s, "");
    for (int id = 0; id < PZ_NCALLS; id++) {
        name = string(&s, pz_calls[id].name);
        OTF2_GlobalDefWriter_WriteRegion(w, (OTF2_RegionRef)id, name, name, empty,
                                         role(&pz_calls[id]), OTF2_PARADIGM_MPI,
                                         OTF2_REGION_FLAG_NONE, mpi_file, 0, 0);
    }
    empty = string(&s, "");
    snprintf(text, sizeof(text), PZ_INTERVAL_NAME_FORMAT, "", 1u, strrchr(INTERVAL_FILE, '/') + 1,
             INTERVAL_LINE);
    name = string(&s, text);
    OTF2_GlobalDefWriter_WriteRegion(w, INTERVAL_REGION, name, name, empty,
                                     OTF2_REGION_ROLE_CODE, OTF2_PARADIGM_USER,
                                     OTF2_REGION_FLAG_PHASE, string(&s, INTERVAL_FILE),
                                     INTERVAL_LINE, INTERVAL_LINE);

    OTF2_GlobalDefWriter_WriteAttribute(w, ATTR_CALLSITE, string(&s, PZ_NAME_CALLSITE),
                                        string(&s, PZ_DESC_CALLSITE),
                                        OTF2_TYPE_SOURCE_CODE_LOCATION);

    for (int r = 0; r < ranks; r++)
        members[r] = (uint64_t)r;     /* location ids, then ranks: the same numbers */
    OTF2_GlobalDefWriter_WriteGroup(w, GROUP_LOCATIONS, string(&s, "MPI_COMM_WORLD locations"),
                                    OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                    OTF2_GROUP_FLAG_NONE, (uint32_t)ranks, members);
    OTF2_GlobalDefWriter_WriteGroup(w, GROUP_SELF, string(&s, "MPI_COMM_SELF"),
                                    OTF2_GROUP_TYPE_COMM_SELF, OTF2_PARADIGM_MPI,
                                    OTF2_GROUP_FLAG_NONE, 0, NULL);
    OTF2_GlobalDefWriter_WriteGroup(w, GROUP_WORLD, string(&s, "MPI_COMM_WORLD"),
                                    OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                    OTF2_GROUP_FLAG_NONE, (uint32_t)ranks, members);
    OTF2_GlobalDefWriter_WriteComm(w, COMM_WORLD, string(&s, "MPI_COMM_WORLD"), GROUP_WORLD,
                                   OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
    OTF2_GlobalDefWriter_WriteComm(w, COMM_SELF, string(&s, "MPI_COMM_SELF"), GROUP_SELF,
                                   OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
    free(members);
}
