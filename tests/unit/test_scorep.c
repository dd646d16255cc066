/* The analyzer on traces shaped as Score-P writes them.  Score-P cannot be installed
 * here, so each test writes, with the OTF2 writer, the definitions and the event
 * sequences that Score-P's sources show it writes for the same program, and checks the
 * analysis against values worked out by hand from docs/characteristics.md.
 *
 * What Score-P writes (Score-P 8.4, build-config/VERSION of the repository msmania/Score-P
 * at commit f3a9b984; paths below are in that tree; tudasc/scorep-xray holds older
 * versions of the same files, before nonblocking collectives were recorded):
 *
 * Definitions (src/measurement/tracing/SCOREP_Tracing.c, write_definitions;
 * src/measurement/tracing/scorep_tracing_definitions.c):
 *   - ClockProperties: the timer's resolution in ticks per second (a time-stamp counter,
 *     not nanoseconds), global offset = the begin of the measurement epoch, length = its
 *     span, realtime undefined.  Timestamps are raw local ticks.
 *   - Global definitions in this order: strings, paradigms (write_paradigms), system
 *     tree nodes, location groups, locations, regions, groups, communicators, metrics,
 *     attributes, calling contexts.
 *   - A process is a location group "MPI Rank r" of type PROCESS; its id is r.  Its
 *     threads are locations of type CPU_THREAD whose global id is r + (local id << 32)
 *     (write_location_seq): the first thread, "Master thread" (src/measurement/thread/
 *     scorep_thread_generic.c), has local id 0, so its id is r.  OpenMP threads are
 *     named "OMP thread k" (src/measurement/thread/fork_join/scorep_thread_fork_join_omp.c,
 *     scorep_thread_create_location_name) and take the next local ids when the first
 *     parallel region forks.  Metric locations (type METRIC, e.g. "Per process metrics",
 *     src/measurement/scorep_location_management.c; asynchronous metric locations,
 *     src/services/metric/scorep_metric_management.c) belong to the process's location
 *     group and take local ids in creation order too: they may come between the master
 *     thread and the OpenMP threads.
 *   - Regions (scorep_write_region_definitions): MPI functions are named "MPI_Send", with
 *     source file "MPI", no lines, paradigm MPI, role POINT2POINT, BARRIER, COLL_*, or
 *     FUNCTION for MPI_Init, MPI_Finalize and the waits (src/adapters/mpi/
 *     SCOREP_Mpi_Reg.c).  A user region of type SCOREP_USER_REGION_TYPE_PHASE is role
 *     CODE with the flag PHASE, paradigm USER, its source file and begin line, no end
 *     line (src/adapters/user/SCOREP_User_Region.c).  OpenMP constructs are paradigm
 *     OPENMP ("!$omp parallel @file:line", role PARALLEL; implicit barriers role
 *     IMPLICIT_BARRIER; src/adapters/opari2/openmp/).  The program's region for
 *     ProgramBegin/End is role ARTIFICIAL, paradigm MEASUREMENT_SYSTEM
 *     (src/measurement/SCOREP_RuntimeManagement.c, define_program_begin_end_region).
 *   - Groups and communicators (src/adapters/mpi/scorep_mpi_communicator_mgmt.c and
 *     src/measurement/paradigm/mpi/scorep_ipc_mpi_unify_communicators.c): a
 *     COMM_LOCATIONS group of paradigm MPI, name "", whose members are 0 .. n-1, the ids
 *     of the ranks' master threads ("the location and rank ids match"); a COMM_SELF
 *     group with no members; a COMM_GROUP of world ranks per communicator.  Every
 *     communicator of one member (MPI_COMM_SELF and all self-like ones) is a Comm on
 *     the COMM_SELF group, appended after the others; MPI communicators have the flag
 *     CREATE_DESTROY_EVENTS; MPI_Finalize names them "MPI_COMM_WORLD", "MPI_COMM_SELF".
 *     OpenMP adds a second COMM_LOCATIONS group, paradigm OPENMP, name "OpenMP", of every
 *     CPU thread of every process, and per thread team a COMM_GROUP (indices into it)
 *     and a Comm (src/measurement/thread/fork_join/scorep_thread_fork_join_team_unify.c);
 *     which of the two COMM_LOCATIONS groups comes first depends on the order in which
 *     Score-P's subsystems unify.
 *   - Local definitions of each location (scorep_tracing_write_mappings,
 *     scorep_tracing_write_clock_offsets): mapping tables from the process's local ids
 *     of strings, regions, groups, communicators, attributes, ... to the global ones
 *     (none where the mapping is the identity), then ClockOffset records measured at the
 *     begin and the end of the measurement.  Events carry local ids.
 *
 * Events (src/measurement/tracing/SCOREP_Tracing_Events.c; timestamps in
 * src/measurement/SCOREP_Events.c: MpiCollectiveBegin and NonBlockingCollectiveRequest
 * take the timestamp of the Enter before them, every other record reads the clock anew,
 * so it lies a little after the Enter or before the Leave around it):
 *   - ProgramBegin (with a ProcessId attribute) on the master thread when the measurement
 *     begins, ProgramEnd when it ends at exit, after MPI_Finalize returned
 *     (SCOREP_RuntimeManagement.c, begin_epoch, end_epoch).
 *   - MPI_Init, MPI_Init_thread: Enter, MpiCollectiveBegin, MpiCollectiveEnd(CREATE_HANDLE,
 *     MPI_COMM_WORLD, no root, 0, 0), Leave.  MPI_Finalize: Enter, MpiCollectiveBegin,
 *     a PMPI_Barrier on MPI_COMM_WORLD, MpiCollectiveEnd(DESTROY_HANDLE, MPI_COMM_WORLD),
 *     Leave (src/adapters/mpi/SCOREP_Mpi_Env.c).  Communicator constructors and
 *     MPI_Comm_free are CREATE_HANDLE / DESTROY_HANDLE collectives too, on the parent or
 *     on the new communicator (src/adapters/mpi/SCOREP_Mpi_Cg.c).
 *   - MPI_Send (all modes): Enter, MpiSend(dest, comm, tag, bytes), Leave.  MPI_Recv:
 *     Enter, MpiRecv(status source, status tag, bytes) before the Leave; nothing for
 *     MPI_PROC_NULL (src/adapters/mpi/SCOREP_Mpi_P2p.c).
 *   - MPI_Isend: the request id is drawn before the Enter; Enter, MpiIsend(..., id),
 *     Leave.  MPI_Irecv: Enter, MpiIrecvRequest(id) after PMPI_Irecv returned (the id is
 *     drawn then), Leave.  Ids come from one counter per process, starting at 1
 *     (src/adapters/mpi/scorep_mpi_request_mgmt.c, scorep_mpi_get_request_id).  Without
 *     the group "xnonblock" (SCOREP_MPI_ENABLE_GROUPS; it is in the default set,
 *     src/adapters/mpi/scorep_mpi_confvars.inc.c) MPI_Isend writes a plain MpiSend,
 *     MPI_Irecv nothing, and the completion a plain MpiRecv.
 *   - Waits and tests (src/adapters/mpi/SCOREP_Mpi_Request.c): Enter, then for each
 *     request completed, in request order, MpiIrecv(source, tag, bytes, id),
 *     MpiIsendComplete(id), NonBlockingCollectiveComplete(op, comm, root, sent, received,
 *     id) or MpiRequestCancelled(id), then Leave (scorep_mpi_check_request).
 *     MpiRequestTest for requests a test did not complete only with the group
 *     "xreqtest", not in the default set.  MPI_Comm_idup completes as a
 *     NonBlockingCollectiveComplete(CREATE_HANDLE) on the parent communicator.
 *   - Blocking collectives: Enter, MpiCollectiveBegin, MpiCollectiveEnd(op, comm, root or
 *     OTF2_COLLECTIVE_ROOT_NONE, sent, received), Leave.  Nonblocking ones: the id drawn
 *     before the Enter; Enter, NonBlockingCollectiveRequest(id), Leave; their completion
 *     as above (src/adapters/mpi/SCOREP_Mpi_Coll.c).  The bytes are Score-P's count, not
 *     prognoz's (an Allreduce of n bytes on P processes: P n each way).
 *   - OpenMP (OPARI2, src/adapters/opari2/openmp/SCOREP_Opari2_Openmp.c and
 *     src/measurement/thread/fork_join/scorep_thread_fork_join_generic.c): the master
 *     writes ThreadFork(OPENMP, n); every thread of the team, master included, writes
 *     ThreadTeamBegin(team), Enter(parallel region) ... Leave, ThreadTeamEnd(team); the
 *     master then writes ThreadJoin.  A worker thread writes nothing between two parallel
 *     regions.
 *   - SCOREP_RECORDING_OFF/ON: MeasurementOnOff(OFF/ON); while it is off the tracing
 *     substrate records nothing at all (its callbacks for disabled recording are all
 *     NULL), also no MPI records, and regions open at OFF stay open.
 *   - With SCOREP_ENABLE_UNWINDING, regions are CallingContextEnter/Leave records on
 *     CallingContext definitions instead of Enter/Leave, unless
 *     SCOREP_TRACING_CONVERT_CALLING_CONTEXT_EVENTS=true
 *     (src/measurement/tracing/scorep_tracing_confvars.inc.c).
 *   - Synchronous metrics are Metric records on the thread's own location before its
 *     Enter and Leave records (SCOREP_Tracing_Events.c, enter, leave); asynchronous ones
 *     Metric records on their metric location.
 *
 * Times in the comments are milliseconds of the global clock; the writer turns them into
 * ticks of a 2.5 GHz counter (2,500,000 ticks per ms) that starts near 4e12, and takes
 * away each process's clock skew, which the ClockOffset records give back.  D = 10 ns is
 * the time between a wrapper's Enter and the record it writes next, and between its last
 * record and its Leave. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <otf2/otf2.h>

#include "analysis.h"
#include "analysis_fixture.h"
#include "fields.h"
#include "trace_builder.h"

#define EPS 1e-12
#define D 0.00001                  /* ms */
#define TICKS_PER_MS 2500000.0
#define T0 4000000000000u          /* the counter at global time 0 */

enum { MAX_RANKS = 2, MAX_LOCS = 6, MAX_IDS = 32, MAX_STRINGS = 64 };

/* Local interim communicators of every process, in Score-P's order of creation:
 * MPI_COMM_WORLD and MPI_COMM_SELF in MPI_Init, the thread team at the first fork. */
enum { WORLD, SELF, TEAM };

struct sp_loc {
    uint64_t id;
    int rank;
    OTF2_LocationType type;
    uint32_t name;
    OTF2_EvtWriter *w;
    uint64_t events;
};

/* A process's local definitions: local id -> global id. */
struct sp_rank {
    uint32_t regions[MAX_IDS], nregions;
    int64_t skew;                  /* ticks its clock lags behind the global one */
};

struct sp_region {
    uint32_t name, file, line;
    OTF2_RegionRole role;
    OTF2_Paradigm paradigm;
    OTF2_RegionFlag flags;
};

/* A Score-P-shaped archive being written. */
struct sp {
    OTF2_Archive *archive;
    int nranks, openmp, unwinding;
    struct sp_loc loc[MAX_LOCS];
    int nlocs;
    struct sp_rank rank[MAX_RANKS];
    struct sp_region region[MAX_IDS];
    uint32_t nregions;
    const char *string[MAX_STRINGS];
    uint32_t nstrings;
    double last;                   /* ms */
    int failed;
};

/* Global attributes, as Score-P defines them (define_measurement_attributes;
 * SCOREP_Tracing.c, tracing_init_attributes); the processes know ProcessId as local 0. */
enum { ATTR_SOURCE_CODE_LOCATION, ATTR_OFFSET, ATTR_PROCESS_ID, ATTR_THREAD_ID };

static OTF2_FlushType pre_flush(void *data, OTF2_FileType type, OTF2_LocationRef location,
                                void *caller, bool final)
{
    (void)data, (void)type, (void)location, (void)caller, (void)final;
    return OTF2_FLUSH;
}

static const OTF2_FlushCallbacks flush_callbacks = { pre_flush, NULL };

static uint32_t intern(struct sp *s, const char *str)
{
    for (uint32_t i = 0; i < s->nstrings; i++)
        if (!strcmp(s->string[i], str))
            return i;
    cr_assert_lt(s->nstrings, MAX_STRINGS);
    s->string[s->nstrings] = str;
    return s->nstrings++;
}

/* A thread or metric location of process rank with Score-P's id for its local id. */
static int sp_location(struct sp *s, int rank, uint64_t local, const char *name,
                       OTF2_LocationType type)
{
    struct sp_loc *l = &s->loc[s->nlocs];

    cr_assert_lt(s->nlocs, MAX_LOCS);
    *l = (struct sp_loc){ (uint64_t)rank + (local << 32), rank, type, intern(s, name), NULL, 0 };
    l->w = OTF2_Archive_GetEvtWriter(s->archive, l->id);
    cr_assert_not_null(l->w);
    return s->nlocs++;
}

/* The strings of the definitions every trace has: Score-P writes all strings first, so
 * they are known before anything is written ("" is string 0). */
static const char *const fixed_strings[] = {
    "", "measurement", "user", "compiler", "MPI", "OpenMP", "Linux", "machine", "node17",
    "node", "MPI Rank 0", "MPI Rank 1", "heat", "/home/user/heat/heat", "MPI_COMM_WORLD",
    "MPI_COMM_SELF", "PAPI_TOT_INS", "#", "power", "W", "SOURCE_CODE_LOCATION",
    "Source code location", "Offset", "Absolute read/write offset within a file.",
    "ProcessId", "Process identifier", "ThreadId", "Thread identifier",
};

/* A new archive of nranks processes, each with its master thread (location r). */
static struct sp *sp_open(int nranks)
{
    static struct sp s;

    memset(&s, 0, sizeof(s));
    dir = tb_tempdir();
    cr_assert_not_null(dir);
    s.nranks = nranks;
    s.archive = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, 1024 * 1024,
                                  4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    cr_assert_not_null(s.archive);
    cr_assert_eq(OTF2_Archive_SetFlushCallbacks(s.archive, &flush_callbacks, NULL), OTF2_SUCCESS);
    cr_assert_eq(OTF2_Archive_SetSerialCollectiveCallbacks(s.archive), OTF2_SUCCESS);
    cr_assert_eq(OTF2_Archive_OpenEvtFiles(s.archive), OTF2_SUCCESS);
    for (size_t i = 0; i < sizeof(fixed_strings) / sizeof(fixed_strings[0]); i++)
        intern(&s, fixed_strings[i]);
    for (int r = 0; r < nranks; r++)
        sp_location(&s, r, 0, "Master thread", OTF2_LOCATION_TYPE_CPU_THREAD);
    return &s;
}

static uint32_t sp_region(struct sp *s, const char *name, const char *file, uint32_t line,
                          OTF2_RegionRole role, OTF2_Paradigm paradigm, OTF2_RegionFlag flags)
{
    uint32_t n = intern(s, name);

    for (uint32_t i = 0; i < s->nregions; i++)
        if (s->region[i].name == n)
            return i;
    cr_assert_lt(s->nregions, MAX_IDS);
    s->region[s->nregions] = (struct sp_region){ n, intern(s, file), line, role, paradigm, flags };
    return s->nregions++;
}

static uint32_t sp_mpi(struct sp *s, const char *name, OTF2_RegionRole role)
{
    return sp_region(s, name, "MPI", 0, role, OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE);
}

/* The local id of a region on location l's process: its ids follow first use. */
static uint32_t local_region(struct sp *s, int l, uint32_t region)
{
    struct sp_rank *p = &s->rank[s->loc[l].rank];

    for (uint32_t i = 0; i < p->nregions; i++)
        if (p->regions[i] == region)
            return i;
    cr_assert_lt(p->nregions, MAX_IDS);
    p->regions[p->nregions] = region;
    return p->nregions++;
}

/* The raw timestamp of global time ms on location l's clock. */
static uint64_t ticks(const struct sp *s, int l, double ms)
{
    return T0 + (uint64_t)llround(ms * TICKS_PER_MS) - (uint64_t)s->rank[s->loc[l].rank].skew;
}

static void record(struct sp *s, int l, double ms, OTF2_ErrorCode rc)
{
    if (rc != OTF2_SUCCESS)
        s->failed = 1;
    s->loc[l].events++;
    if (ms > s->last)
        s->last = ms;
}

/* Location l's event writer and the raw timestamp of ms on its clock, in an archive s. */
#define W(l) (s->loc[l].w)
#define T(l, ms) ticks(s, (l), (ms))

static void enter(struct sp *s, int l, double ms, uint32_t region)
{
    record(s, l, ms, OTF2_EvtWriter_Enter(W(l), NULL, T(l, ms), local_region(s, l, region)));
}

static void leave(struct sp *s, int l, double ms, uint32_t region)
{
    record(s, l, ms, OTF2_EvtWriter_Leave(W(l), NULL, T(l, ms), local_region(s, l, region)));
}

/* ProgramBegin with its ProcessId attribute; the program's name is local string 0. */
static void program_begin(struct sp *s, int l, double ms)
{
    OTF2_AttributeList *a = OTF2_AttributeList_New();

    cr_assert_not_null(a);
    OTF2_AttributeList_AddUint64(a, 0, 4242 + (uint64_t)l);
    record(s, l, ms, OTF2_EvtWriter_ProgramBegin(W(l), a, T(l, ms), 0, 0, NULL));
    OTF2_AttributeList_Delete(a);
}

static void program_end(struct sp *s, int l, double ms)
{
    record(s, l, ms, OTF2_EvtWriter_ProgramEnd(W(l), NULL, T(l, ms), 0));
}

/* MPI_Init, MPI_Finalize (SCOREP_Mpi_Env.c) and MPI_Comm_dup (SCOREP_Mpi_Cg.c): collectives
 * on MPI_COMM_WORLD that create or destroy communicator handles. */
static void mpi_env(struct sp *s, int l, const char *name, double enter_ms, double leave_ms,
                    OTF2_CollectiveOp op)
{
    uint32_t r = sp_mpi(s, name, OTF2_REGION_ROLE_FUNCTION);

    enter(s, l, enter_ms, r);
    record(s, l, enter_ms, OTF2_EvtWriter_MpiCollectiveBegin(W(l), NULL, T(l, enter_ms)));
    record(s, l, leave_ms - D,
           OTF2_EvtWriter_MpiCollectiveEnd(W(l), NULL, T(l, leave_ms - D), op, WORLD,
                                           OTF2_COLLECTIVE_ROOT_NONE, 0, 0));
    leave(s, l, leave_ms, r);
}

static void mpi_send(struct sp *s, int l, double enter_ms, double leave_ms, uint32_t dest,
                     uint32_t tag, uint64_t bytes)
{
    uint32_t r = sp_mpi(s, "MPI_Send", OTF2_REGION_ROLE_POINT2POINT);

    enter(s, l, enter_ms, r);
    record(s, l, enter_ms + D,
           OTF2_EvtWriter_MpiSend(W(l), NULL, T(l, enter_ms + D), dest, WORLD, tag, bytes));
    leave(s, l, leave_ms, r);
}

static void mpi_recv(struct sp *s, int l, double enter_ms, double leave_ms, uint32_t source,
                     uint32_t tag, uint64_t bytes)
{
    uint32_t r = sp_mpi(s, "MPI_Recv", OTF2_REGION_ROLE_POINT2POINT);

    enter(s, l, enter_ms, r);
    record(s, l, leave_ms - D,
           OTF2_EvtWriter_MpiRecv(W(l), NULL, T(l, leave_ms - D), source, WORLD, tag, bytes));
    leave(s, l, leave_ms, r);
}

static void mpi_isend(struct sp *s, int l, double enter_ms, double leave_ms, uint32_t dest,
                      uint32_t tag, uint64_t bytes, uint64_t request)
{
    uint32_t r = sp_mpi(s, "MPI_Isend", OTF2_REGION_ROLE_POINT2POINT);

    enter(s, l, enter_ms, r);
    record(s, l, enter_ms + D,
           OTF2_EvtWriter_MpiIsend(W(l), NULL, T(l, enter_ms + D), dest, WORLD, tag, bytes,
                                   request));
    leave(s, l, leave_ms, r);
}

static void mpi_irecv(struct sp *s, int l, double enter_ms, double leave_ms, uint64_t request)
{
    uint32_t r = sp_mpi(s, "MPI_Irecv", OTF2_REGION_ROLE_POINT2POINT);

    enter(s, l, enter_ms, r);
    record(s, l, leave_ms - D,
           OTF2_EvtWriter_MpiIrecvRequest(W(l), NULL, T(l, leave_ms - D), request));
    leave(s, l, leave_ms, r);
}

/* A blocking collective on MPI_COMM_WORLD, 8 bytes each way. */
static void mpi_coll(struct sp *s, int l, const char *name, OTF2_RegionRole role,
                     double enter_ms, double leave_ms, OTF2_CollectiveOp op)
{
    uint32_t r = sp_mpi(s, name, role);

    enter(s, l, enter_ms, r);
    record(s, l, enter_ms, OTF2_EvtWriter_MpiCollectiveBegin(W(l), NULL, T(l, enter_ms)));
    record(s, l, leave_ms - D,
           OTF2_EvtWriter_MpiCollectiveEnd(W(l), NULL, T(l, leave_ms - D), op, WORLD,
                                           OTF2_COLLECTIVE_ROOT_NONE, 8, 8));
    leave(s, l, leave_ms, r);
}

static void mpi_iallreduce(struct sp *s, int l, double enter_ms, double leave_ms,
                           uint64_t request)
{
    uint32_t r = sp_mpi(s, "MPI_Iallreduce", OTF2_REGION_ROLE_COLL_ALL2ALL);

    enter(s, l, enter_ms, r);
    record(s, l, enter_ms,
           OTF2_EvtWriter_NonBlockingCollectiveRequest(W(l), NULL, T(l, enter_ms), request));
    leave(s, l, leave_ms, r);
}

/* The completions a wait writes between its Enter and Leave. */
static void irecv_done(struct sp *s, int l, double ms, uint32_t source, uint32_t tag,
                       uint64_t request)
{
    record(s, l, ms,
           OTF2_EvtWriter_MpiIrecv(W(l), NULL, T(l, ms), source, WORLD, tag, 64, request));
}

static void isend_done(struct sp *s, int l, double ms, uint64_t request)
{
    record(s, l, ms, OTF2_EvtWriter_MpiIsendComplete(W(l), NULL, T(l, ms), request));
}

static void allreduce_done(struct sp *s, int l, double ms, uint64_t request)
{
    record(s, l, ms,
           OTF2_EvtWriter_NonBlockingCollectiveComplete(W(l), NULL, T(l, ms),
                                                        OTF2_COLLECTIVE_OP_ALLREDUCE, WORLD,
                                                        OTF2_COLLECTIVE_ROOT_NONE, 8, 8,
                                                        request));
}

/* OpenMP's fork and join on the master, and a thread's part of a parallel region: team
 * begin, the region with its implicit barrier, team end. */
static void fork_join(struct sp *s, int l, double ms, int fork)
{
    OTF2_TimeStamp t = T(l, ms);

    record(s, l, ms, fork ? OTF2_EvtWriter_ThreadFork(W(l), NULL, t, OTF2_PARADIGM_OPENMP, 2)
                          : OTF2_EvtWriter_ThreadJoin(W(l), NULL, t, OTF2_PARADIGM_OPENMP));
}

static void team(struct sp *s, int l, uint32_t parallel, uint32_t barrier, double begin,
                 double wait, double end)
{
    record(s, l, begin, OTF2_EvtWriter_ThreadTeamBegin(W(l), NULL, T(l, begin), TEAM));
    enter(s, l, begin, parallel);
    enter(s, l, wait, barrier);
    leave(s, l, end, barrier);
    leave(s, l, end, parallel);
    record(s, l, end, OTF2_EvtWriter_ThreadTeamEnd(W(l), NULL, T(l, end), TEAM));
}

/* A Metric record of metric class 0 (synchronous, on a thread before its Enter or Leave)
 * or 1 (asynchronous, on a metric location). */
static void metric(struct sp *s, int l, double ms, OTF2_MetricRef class, uint64_t value)
{
    OTF2_Type type = OTF2_TYPE_UINT64;
    OTF2_MetricValue v = { .unsigned_int = value };

    record(s, l, ms, OTF2_EvtWriter_Metric(W(l), NULL, T(l, ms), class, 1, &type, &v));
}

/* ---- definitions, written when the archive is closed ---- */

/* A string interned before: definitions refer to the strings already written. */
static OTF2_StringRef str(struct sp *s, const char *text)
{
    for (uint32_t i = 0; i < s->nstrings; i++)
        if (!strcmp(s->string[i], text))
            return i;
    cr_assert_fail("string \"%s\" was not interned", text);
    return 0;
}

static void write_system(struct sp *s, OTF2_GlobalDefWriter *w)
{
    char name[32];

    OTF2_GlobalDefWriter_WriteParadigm(w, OTF2_PARADIGM_MEASUREMENT_SYSTEM,
                                       str(s, "measurement"), OTF2_PARADIGM_CLASS_PROCESS);
    OTF2_GlobalDefWriter_WriteParadigm(w, OTF2_PARADIGM_USER, str(s, "user"),
                                       OTF2_PARADIGM_CLASS_PROCESS);
    OTF2_GlobalDefWriter_WriteParadigm(w, OTF2_PARADIGM_COMPILER, str(s, "compiler"),
                                       OTF2_PARADIGM_CLASS_PROCESS);
    OTF2_GlobalDefWriter_WriteParadigm(w, OTF2_PARADIGM_MPI, str(s, "MPI"),
                                       OTF2_PARADIGM_CLASS_PROCESS);
    if (s->openmp)
        OTF2_GlobalDefWriter_WriteParadigm(w, OTF2_PARADIGM_OPENMP, str(s, "OpenMP"),
                                           OTF2_PARADIGM_CLASS_THREAD_FORK_JOIN);
    OTF2_GlobalDefWriter_WriteSystemTreeNode(w, 0, str(s, "Linux"), str(s, "machine"),
                                             OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    OTF2_GlobalDefWriter_WriteSystemTreeNode(w, 1, str(s, "node17"), str(s, "node"), 0);
    for (int r = 0; r < s->nranks; r++) {
        snprintf(name, sizeof(name), "MPI Rank %d", r);
        OTF2_GlobalDefWriter_WriteLocationGroup(w, (OTF2_LocationGroupRef)r, str(s, name),
                                                OTF2_LOCATION_GROUP_TYPE_PROCESS, 1,
                                                OTF2_UNDEFINED_LOCATION_GROUP);
    }
    for (int l = 0; l < s->nlocs; l++)
        OTF2_GlobalDefWriter_WriteLocation(w, s->loc[l].id, s->loc[l].name, s->loc[l].type,
                                           s->loc[l].events,
                                           (OTF2_LocationGroupRef)s->loc[l].rank);
}

/* The program's own regions, then the one of ProgramBegin and ProgramEnd. */
static void write_regions(struct sp *s, OTF2_GlobalDefWriter *w)
{
    for (uint32_t i = 0; i < s->nregions; i++) {
        const struct sp_region *g = &s->region[i];

        OTF2_GlobalDefWriter_WriteRegion(w, i, g->name, g->name, str(s, ""), g->role,
                                         g->paradigm, g->flags, g->file, g->line, 0);
    }
    OTF2_GlobalDefWriter_WriteRegion(w, s->nregions, str(s, "heat"),
                                     str(s, "/home/user/heat/heat"), str(s, ""),
                                     OTF2_REGION_ROLE_ARTIFICIAL,
                                     OTF2_PARADIGM_MEASUREMENT_SYSTEM, OTF2_REGION_FLAG_NONE,
                                     OTF2_UNDEFINED_STRING, 0, 0);
}

/* MPI's groups: its locations (the masters, ids 0 .. n-1), MPI_COMM_SELF's, and the world
 * communicator's ranks; with OpenMP then its locations (every CPU thread, process after
 * process) and one team of two threads per process, indices into those. */
static void write_groups(struct sp *s, OTF2_GlobalDefWriter *w)
{
    uint64_t ranks[MAX_RANKS], threads[MAX_LOCS];
    uint32_t n = 0;

    for (int r = 0; r < s->nranks; r++)
        ranks[r] = (uint64_t)r;
    OTF2_GlobalDefWriter_WriteGroup(w, 0, str(s, ""), OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                    OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                    (uint32_t)s->nranks, ranks);
    OTF2_GlobalDefWriter_WriteGroup(w, 1, str(s, ""), OTF2_GROUP_TYPE_COMM_SELF,
                                    OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 0, NULL);
    OTF2_GlobalDefWriter_WriteGroup(w, 2, str(s, ""), OTF2_GROUP_TYPE_COMM_GROUP,
                                    OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                    (uint32_t)s->nranks, ranks);
    if (!s->openmp)
        return;
    for (int r = 0; r < s->nranks; r++)
        for (int l = 0; l < s->nlocs; l++)
            if (s->loc[l].rank == r && s->loc[l].type == OTF2_LOCATION_TYPE_CPU_THREAD)
                threads[n++] = s->loc[l].id;
    OTF2_GlobalDefWriter_WriteGroup(w, 3, str(s, "OpenMP"), OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                    OTF2_PARADIGM_OPENMP, OTF2_GROUP_FLAG_NONE, n, threads);
    for (int r = 0; r < s->nranks; r++) {
        uint64_t members[2] = { 2 * (uint64_t)r, 2 * (uint64_t)r + 1 };

        OTF2_GlobalDefWriter_WriteGroup(w, 4 + (uint32_t)r, str(s, ""),
                                        OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_OPENMP,
                                        OTF2_GROUP_FLAG_NONE, 2, members);
    }
}

static void write_comms(struct sp *s, OTF2_GlobalDefWriter *w)
{
    OTF2_GlobalDefWriter_WriteComm(w, WORLD, str(s, "MPI_COMM_WORLD"), 2, OTF2_UNDEFINED_COMM,
                                   OTF2_COMM_FLAG_CREATE_DESTROY_EVENTS);
    OTF2_GlobalDefWriter_WriteComm(w, SELF, str(s, "MPI_COMM_SELF"), 1, OTF2_UNDEFINED_COMM,
                                   OTF2_COMM_FLAG_CREATE_DESTROY_EVENTS);
    for (int r = 0; s->openmp && r < s->nranks; r++)
        OTF2_GlobalDefWriter_WriteComm(w, TEAM + (uint32_t)r, str(s, ""), 4 + (uint32_t)r,
                                       OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
}

/* Metric 0: a hardware counter read at every Enter and Leave (synchronous); metric 1: a
 * power meter of the process, on a location of its own (asynchronous). */
static void write_metrics(struct sp *s, OTF2_GlobalDefWriter *w)
{
    OTF2_MetricMemberRef counter = 0, power = 1;

    OTF2_GlobalDefWriter_WriteMetricMember(w, counter, str(s, "PAPI_TOT_INS"), str(s, ""),
                                           OTF2_METRIC_TYPE_PAPI, OTF2_METRIC_ACCUMULATED_START,
                                           OTF2_TYPE_UINT64, OTF2_BASE_DECIMAL, 0, str(s, "#"));
    OTF2_GlobalDefWriter_WriteMetricMember(w, power, str(s, "power"), str(s, ""),
                                           OTF2_METRIC_TYPE_OTHER, OTF2_METRIC_ABSOLUTE_POINT,
                                           OTF2_TYPE_UINT64, OTF2_BASE_DECIMAL, 0, str(s, "W"));
    OTF2_GlobalDefWriter_WriteMetricClass(w, 0, 1, &counter, OTF2_METRIC_SYNCHRONOUS_STRICT,
                                          OTF2_RECORDER_KIND_CPU);
    OTF2_GlobalDefWriter_WriteMetricClass(w, 1, 1, &power, OTF2_METRIC_ASYNCHRONOUS,
                                          OTF2_RECORDER_KIND_ABSTRACT);
}

static void write_attributes(struct sp *s, OTF2_GlobalDefWriter *w)
{
    OTF2_GlobalDefWriter_WriteAttribute(w, ATTR_SOURCE_CODE_LOCATION,
                                        str(s, "SOURCE_CODE_LOCATION"),
                                        str(s, "Source code location"),
                                        OTF2_TYPE_SOURCE_CODE_LOCATION);
    OTF2_GlobalDefWriter_WriteAttribute(w, ATTR_OFFSET, str(s, "Offset"),
                                        str(s, "Absolute read/write offset within a file."),
                                        OTF2_TYPE_UINT64);
    OTF2_GlobalDefWriter_WriteAttribute(w, ATTR_PROCESS_ID, str(s, "ProcessId"),
                                        str(s, "Process identifier"), OTF2_TYPE_UINT64);
    OTF2_GlobalDefWriter_WriteAttribute(w, ATTR_THREAD_ID, str(s, "ThreadId"),
                                        str(s, "Thread identifier"), OTF2_TYPE_UINT64);
}

/* Calling context 0 is the function main, 1 the call of MPI_Send in it (regions 0 and 1
 * of a trace recorded with unwinding). */
static void write_calling_contexts(OTF2_GlobalDefWriter *w)
{
    OTF2_GlobalDefWriter_WriteCallingContext(w, 0, 0, OTF2_UNDEFINED_SOURCE_CODE_LOCATION,
                                             OTF2_UNDEFINED_CALLING_CONTEXT);
    OTF2_GlobalDefWriter_WriteCallingContext(w, 1, 1, OTF2_UNDEFINED_SOURCE_CODE_LOCATION, 0);
}

static void write_global(struct sp *s, OTF2_GlobalDefWriter *w)
{
    OTF2_GlobalDefWriter_WriteClockProperties(w, (uint64_t)(TICKS_PER_MS * 1000), T0,
                                              (uint64_t)llround(s->last * TICKS_PER_MS),
                                              OTF2_UNDEFINED_TIMESTAMP);
    for (uint32_t i = 0; i < s->nstrings; i++)
        OTF2_GlobalDefWriter_WriteString(w, i, s->string[i]);
    write_system(s, w);
    write_regions(s, w);
    write_groups(s, w);
    write_comms(s, w);
    write_metrics(s, w);
    write_attributes(s, w);
    if (s->unwinding)
        write_calling_contexts(w);
}

/* A mapping table of local ids 0 .. n-1; none for the identity, as Score-P. */
static void mapping(OTF2_DefWriter *d, OTF2_MappingType type, uint32_t n, const uint32_t *ids)
{
    OTF2_IdMap *map = n ? OTF2_IdMap_CreateFromUint32Array(n, ids, true) : NULL;

    if (map) {
        OTF2_DefWriter_WriteMappingTable(d, type, map);
        OTF2_IdMap_Free(map);
    }
}

/* Location l's local definitions: its process's mappings, then the clock offsets measured
 * at the begin and the end of the measurement, equal when the clocks do not drift. */
static void write_local(struct sp *s, int l)
{
    OTF2_DefWriter *d = OTF2_Archive_GetDefWriter(s->archive, s->loc[l].id);
    const struct sp_rank *p = &s->rank[s->loc[l].rank];
    uint32_t program = str(s, "/home/user/heat/heat"), process_id = ATTR_PROCESS_ID;
    uint32_t comms[] = { WORLD, SELF, TEAM + (uint32_t)s->loc[l].rank };

    cr_assert_not_null(d);
    mapping(d, OTF2_MAPPING_STRING, 1, &program);
    mapping(d, OTF2_MAPPING_REGION, p->nregions, p->regions);
    mapping(d, OTF2_MAPPING_COMM, s->openmp ? 3 : 2, comms);
    mapping(d, OTF2_MAPPING_ATTRIBUTE, 1, &process_id);
    OTF2_DefWriter_WriteClockOffset(d, ticks(s, l, 0), p->skew, 0.0);
    OTF2_DefWriter_WriteClockOffset(d, ticks(s, l, s->last), p->skew, 0.0);
    cr_assert_eq(OTF2_Archive_CloseDefWriter(s->archive, d), OTF2_SUCCESS);
}

static void sp_close(struct sp *s)
{
    OTF2_GlobalDefWriter *w;

    for (int l = 0; l < s->nlocs; l++)
        OTF2_Archive_CloseEvtWriter(s->archive, s->loc[l].w);
    cr_assert_eq(OTF2_Archive_CloseEvtFiles(s->archive), OTF2_SUCCESS);
    cr_assert_eq(OTF2_Archive_OpenDefFiles(s->archive), OTF2_SUCCESS);
    for (int l = 0; l < s->nlocs; l++)
        write_local(s, l);
    cr_assert_eq(OTF2_Archive_CloseDefFiles(s->archive), OTF2_SUCCESS);
    w = OTF2_Archive_GetGlobalDefWriter(s->archive);
    cr_assert_not_null(w);
    write_global(s, w);
    cr_assert_eq(OTF2_Archive_Close(s->archive), OTF2_SUCCESS);
    cr_assert_not(s->failed, "an OTF2 writer call failed");
}

/* Closes the archive and analyzes it, which must succeed. */
static void analyze(struct sp *s)
{
    sp_close(s);
    cr_assert_eq(pz_analyze(dir, &an, err, sizeof(err)), 0, "pz_analyze: %s", err);
}

/* ---- checks ---- */

#define S(ms) ((ms) / 1000.0)

TestSuite(scorep, .fini = cleanup);

/* Every characteristic of got against want (fields.h lists them all). */
static void expect_all(const char *what, const struct pz_characteristics *got,
                       const struct pz_characteristics *want)
{
    cr_expect_eq(got->processors, want->processors, "%s: processors %d, expected %d", what,
                 got->processors, want->processors);
    cr_expect_eq(got->exe_count, want->exe_count, "%s: exe_count %llu, expected %llu", what,
                 (unsigned long long)got->exe_count, (unsigned long long)want->exe_count);
    for (size_t i = 0; i < PZ_NFIELDS; i++) {
        double g = pz_field_value(got, pz_fields[i].offset);
        double e = pz_field_value(want, pz_fields[i].offset);

        cr_expect(fabs(g - e) <= EPS, "%s: %s is %.12f, expected %.12f", what,
                  pz_fields[i].key, g, e);
    }
}

static void expect_interval(const char *what, const struct pz_node *n,
                            struct pz_characteristics want)
{
    struct pz_characteristics got;

    pz_characteristics_of(&an, n, &got);
    expect_all(what, &got, &want);
}

static void expect_process(const char *what, const struct pz_node *n, int p,
                           struct pz_characteristics want)
{
    struct pz_characteristics got;
    char label[128];

    snprintf(label, sizeof(label), "%s, process %d", what, p);
    pz_characteristics_of_process(&an, n, p, &got);
    expect_all(label, &got, &want);
}

static const struct pz_node *node_at(const char *file, unsigned line)
{
    for (int i = 1; i < an.nnodes; i++)
        if (!strcmp(an.nodes[i].file, file) && an.nodes[i].line == line)
            return &an.nodes[i];
    cr_assert_fail("no interval at %s:%u", file, line);
    return NULL;
}

static const struct pz_function *function(const char *name)
{
    for (int i = 0; i < an.nfunctions; i++)
        if (!strcmp(an.functions[i].name, name))
            return &an.functions[i];
    cr_assert_fail("no function %s in the profile", name);
    return NULL;
}

static int warned(const char *text)
{
    for (int i = 0; i < an.nwarnings; i++)
        if (strstr(an.warnings[i], text))
            return 1;
    return 0;
}

/* (a) Two processes, as Score-P records a C program compiled with `scorep mpicc`: the
 * function main (compiler instrumentation), the MPI calls, and a user phase "iteration"
 * (SCOREP_USER_REGION_BEGIN with SCOREP_USER_REGION_TYPE_PHASE, heat.c line 30).  Rank
 * 1's clock lags 3 ms behind rank 0's; its ClockOffset records give the 3 ms back.
 *
 *   rank 0                                   rank 1
 *   ProgramBegin 0, main 1-71                ProgramBegin 0.5, main 1.5-72
 *   MPI_Init 2-10                            MPI_Init 4-10
 *   phase 12-60                              phase 11-62
 *     Send to 1, tag 5: 20-21                  Recv from 0, tag 5: 15-21.5
 *     Irecv (id 1) 22-23                       Isend to 0, tag 7 (id 1): 25-26
 *     Isend to 1, tag 8 (id 2): 23.5-24        Irecv (id 2) 26-26.5
 *     Waitall 24-27: recv 1 (from 1,           Waitall 28-29: send 1, recv 2
 *       tag 7), send 2                                  (from 0, tag 8)
 *     Barrier 30-36                            Barrier 35-36.2
 *     Allreduce 40-41                          Allreduce 38-41
 *     Iallreduce (id 3) 41-41.5                Iallreduce (id 3) 47-47.5
 *     Wait 45-45.5: completes id 3             Wait 47.5-48: completes id 3
 *   MPI_Finalize 64-70                       MPI_Finalize 68-70
 *   ProgramEnd 72                            ProgramEnd 74
 * The message records lie D after the Enter (MpiSend, MpiIsend) or D before the Leave
 * (MpiRecv, MpiIrecvRequest, MpiIrecv, MpiIsendComplete; a Waitall's two completions at
 * Leave - 2D and Leave - D, in request order), collective ends D before the Leave.
 *
 * Whole run: from ProgramBegin to ProgramEnd, 72 and 73.5; execution 73.5, total 147.
 *   MPI, rank 0: Init 8 + Send 1 + Irecv 1 + Isend 0.5 + Waitall 3 + Barrier 6 +
 *     Allreduce 1 + Iallreduce 0.5 + Wait 0.5 + Finalize 6 = 27.5; SendRecv 1 + 1 + 0.5 +
 *     3 + 0.5 = 6 (the Wait completing the Iallreduce is point-to-point time),
 *     Collective 6 + 1 + 0.5 = 7.5; CPU 44.5, idle 1.5.
 *   MPI, rank 1: Init 6 + Recv 6.5 + Isend 1 + Irecv 0.5 + Waitall 1 + Barrier 1.2 +
 *     Allreduce 3 + Iallreduce 0.5 + Wait 0.5 + Finalize 2 = 22.2; SendRecv 6.5 + 1 +
 *     0.5 + 1 + 0.5 = 9.5, Collective 1.2 + 3 + 0.5 = 4.7; CPU 51.3, idle 0.
 *   Time of start: Irecv, Isend, Iallreduce: 1 + 0.5 + 0.5 = 2 and 1 + 0.5 + 0.5 = 2.
 *   Overlap: rank 0 computes 23-23.5 with the Irecv posted and 41.5-45 with the
 *     Iallreduce: 4; rank 1 computes 26.5-28 with both posted: 1.5.
 *   Late Sender: rank 1's Recv began at 15, the send at 20 + D: 5 + D; rank 0's Waitall
 *     began at 24, rank 1's Isend at 25 + D: 1 + D.  No Wrong Order (nothing else was in
 *     flight to them), no Late Receiver (rank 1 was in its Recv when rank 0 sent).
 *   Barrier: rank 0 waits 35 - 30 = 5; ends 36 - D and 36.2 - D: rank 1 has a Barrier
 *     Completion of 0.2, rank 0 a time variation of 0.2.
 *   Allreduce: rank 1 waits at NxN 40 - 38 = 2; both end at 41 - D.
 *   Iallreduce: rank 0's Wait runs 45-45.5 while rank 1 posts at 47: Wait at NxN 0.5;
 *     rank 1's Wait begins after both posts: none.
 *   MPI_Init and MPI_Finalize are collectives that create and destroy communicator
 *     handles (CREATE_HANDLE, DESTROY_HANDLE): no communication, no wait, no instance.
 *   Synchronization 6.5 + D (rank 0: 1 + D + 5 + 0.5) and 7 + D (rank 1: 5 + D + 2), all
 *   of it real; lost (27.5 + 1.5) + 22.2 = 51.2, productive 95.8 = 147 - 51.2; load
 *   imbalance 51.3 - 44.5 = 6.8.
 * The phase (12-60, 11-62): execution 51, total 102; all MPI calls but Init and Finalize
 * lie in it: MPI 13.5 and 14.2, CPU 34.5 and 36.8, idle 3 and 0, imbalance 2.3 and 0,
 * and every wait, overlap and time of start above. */
static void two_ranks(struct sp *s)
{
    uint32_t main_ = sp_region(s, "main", "/home/user/heat/heat.c", 12,
                               OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_COMPILER,
                               OTF2_REGION_FLAG_NONE);
    uint32_t phase = sp_region(s, "iteration", "/home/user/heat/heat.c", 30,
                               OTF2_REGION_ROLE_CODE, OTF2_PARADIGM_USER,
                               OTF2_REGION_FLAG_PHASE);
    uint32_t waitall = sp_mpi(s, "MPI_Waitall", OTF2_REGION_ROLE_FUNCTION);
    uint32_t wait = sp_mpi(s, "MPI_Wait", OTF2_REGION_ROLE_FUNCTION);

    s->rank[1].skew = (int64_t)(3 * TICKS_PER_MS);
    program_begin(s, 0, 0);
    enter(s, 0, 1, main_);
    mpi_env(s, 0, "MPI_Init", 2, 10, OTF2_COLLECTIVE_OP_CREATE_HANDLE);
    enter(s, 0, 12, phase);
    mpi_send(s, 0, 20, 21, 1, 5, 1024);
    mpi_irecv(s, 0, 22, 23, 1);
    mpi_isend(s, 0, 23.5, 24, 1, 8, 64, 2);
    enter(s, 0, 24, waitall);
    irecv_done(s, 0, 27 - 2 * D, 1, 7, 1);
    isend_done(s, 0, 27 - D, 2);
    leave(s, 0, 27, waitall);
    mpi_coll(s, 0, "MPI_Barrier", OTF2_REGION_ROLE_BARRIER, 30, 36, OTF2_COLLECTIVE_OP_BARRIER);
    mpi_coll(s, 0, "MPI_Allreduce", OTF2_REGION_ROLE_COLL_ALL2ALL, 40, 41,
             OTF2_COLLECTIVE_OP_ALLREDUCE);
    mpi_iallreduce(s, 0, 41, 41.5, 3);
    enter(s, 0, 45, wait);
    allreduce_done(s, 0, 45.5 - D, 3);
    leave(s, 0, 45.5, wait);
    leave(s, 0, 60, phase);
    mpi_env(s, 0, "MPI_Finalize", 64, 70, OTF2_COLLECTIVE_OP_DESTROY_HANDLE);
    leave(s, 0, 71, main_);
    program_end(s, 0, 72);

    program_begin(s, 1, 0.5);
    enter(s, 1, 1.5, main_);
    mpi_env(s, 1, "MPI_Init", 4, 10, OTF2_COLLECTIVE_OP_CREATE_HANDLE);
    enter(s, 1, 11, phase);
    mpi_recv(s, 1, 15, 21.5, 0, 5, 1024);
    mpi_isend(s, 1, 25, 26, 0, 7, 64, 1);
    mpi_irecv(s, 1, 26, 26.5, 2);
    enter(s, 1, 28, waitall);
    isend_done(s, 1, 29 - 2 * D, 1);
    irecv_done(s, 1, 29 - D, 0, 8, 2);
    leave(s, 1, 29, waitall);
    mpi_coll(s, 1, "MPI_Barrier", OTF2_REGION_ROLE_BARRIER, 35, 36.2,
             OTF2_COLLECTIVE_OP_BARRIER);
    mpi_coll(s, 1, "MPI_Allreduce", OTF2_REGION_ROLE_COLL_ALL2ALL, 38, 41,
             OTF2_COLLECTIVE_OP_ALLREDUCE);
    mpi_iallreduce(s, 1, 47, 47.5, 3);
    enter(s, 1, 47.5, wait);
    allreduce_done(s, 1, 48 - D, 3);
    leave(s, 1, 48, wait);
    leave(s, 1, 62, phase);
    mpi_env(s, 1, "MPI_Finalize", 68, 70, OTF2_COLLECTIVE_OP_DESTROY_HANDLE);
    leave(s, 1, 72, main_);
    program_end(s, 1, 74);
}

Test(scorep, mpi_trace_of_two_ranks)
{
    struct sp *s = sp_open(2);
    const struct pz_node *phase;

    two_ranks(s);
    analyze(s);

    cr_assert_eq(an.nprocs, 2);
    cr_expect_eq(an.nranks, 2);
    cr_expect_not(an.threaded);
    cr_expect_eq(an.messages, 3);
    cr_expect_eq(an.collectives, 3, "Barrier, Allreduce, Iallreduce; not Init, Finalize");
    cr_expect_eq(an.incomplete_collectives, 0);
    cr_expect_eq(an.unmatched_sends + an.unmatched_receives + an.clock_violations, 0);
    cr_expect_eq(an.nwarnings, 0, "%s", an.nwarnings ? an.warnings[0] : "");
    cr_assert_eq(an.nnodes, 2, "the whole run and the phase: main is no interval");
    phase = node_at("/home/user/heat/heat.c", 30);
    cr_expect_eq(phase->id, 0);
    cr_expect_eq(phase->level, 1);
    cr_expect_eq(phase->parent, 0);

    expect_interval("whole run", &an.nodes[0], (struct pz_characteristics){
        .execution_time = S(73.5), .processors = 2, .exe_count = 1, .total_time = S(147),
        .productive_time = S(95.8), .efficiency = 95.8 / 147, .lost_time = S(51.2),
        .mpi_time = S(49.7), .cpu_time = S(95.8), .idle_time = S(1.5),
        .communication_time = S(27.7), .sendrecv_time = S(15.5), .collective_time = S(12.2),
        .time_of_start = S(4), .overlap = S(5.5), .load_imbalance = S(6.8),
        .synchronization = S(13.5 + 2 * D), .real_synchronization = S(13.5 + 2 * D),
        .time_variation = S(0.2), .late_sender = S(6 + 2 * D), .wait_at_barrier = S(5),
        .barrier_completion = S(0.2), .wait_at_nxn = S(2.5) });
    expect_process("whole run", &an.nodes[0], 0, (struct pz_characteristics){
        .execution_time = S(72), .processors = 1, .exe_count = 1, .total_time = S(73.5),
        .productive_time = S(44.5), .efficiency = 44.5 / 73.5, .lost_time = S(29),
        .mpi_time = S(27.5), .cpu_time = S(44.5), .idle_time = S(1.5),
        .communication_time = S(13.5), .sendrecv_time = S(6), .collective_time = S(7.5),
        .time_of_start = S(2), .overlap = S(4), .load_imbalance = S(6.8),
        .synchronization = S(6.5 + D), .real_synchronization = S(6.5 + D),
        .time_variation = S(0.2), .late_sender = S(1 + D), .wait_at_barrier = S(5),
        .wait_at_nxn = S(0.5) });
    expect_process("whole run", &an.nodes[0], 1, (struct pz_characteristics){
        .execution_time = S(73.5), .processors = 1, .exe_count = 1, .total_time = S(73.5),
        .productive_time = S(51.3), .efficiency = 51.3 / 73.5, .lost_time = S(22.2),
        .mpi_time = S(22.2), .cpu_time = S(51.3), .communication_time = S(14.2),
        .sendrecv_time = S(9.5), .collective_time = S(4.7), .time_of_start = S(2),
        .overlap = S(1.5), .synchronization = S(7 + D), .real_synchronization = S(7 + D),
        .late_sender = S(5 + D), .barrier_completion = S(0.2), .wait_at_nxn = S(2) });

    expect_interval("phase", phase, (struct pz_characteristics){
        .execution_time = S(51), .processors = 2, .exe_count = 1, .total_time = S(102),
        .productive_time = S(71.3), .efficiency = 71.3 / 102, .lost_time = S(30.7),
        .mpi_time = S(27.7), .cpu_time = S(71.3), .idle_time = S(3),
        .communication_time = S(27.7), .sendrecv_time = S(15.5), .collective_time = S(12.2),
        .time_of_start = S(4), .overlap = S(5.5), .load_imbalance = S(2.3),
        .synchronization = S(13.5 + 2 * D), .real_synchronization = S(13.5 + 2 * D),
        .time_variation = S(0.2), .late_sender = S(6 + 2 * D), .wait_at_barrier = S(5),
        .barrier_completion = S(0.2), .wait_at_nxn = S(2.5) });
    expect_process("phase", phase, 0, (struct pz_characteristics){
        .execution_time = S(48), .processors = 1, .exe_count = 1, .total_time = S(51),
        .productive_time = S(34.5), .efficiency = 34.5 / 51, .lost_time = S(16.5),
        .mpi_time = S(13.5), .cpu_time = S(34.5), .idle_time = S(3),
        .communication_time = S(13.5), .sendrecv_time = S(6), .collective_time = S(7.5),
        .time_of_start = S(2), .overlap = S(4), .load_imbalance = S(2.3),
        .synchronization = S(6.5 + D), .real_synchronization = S(6.5 + D),
        .time_variation = S(0.2), .late_sender = S(1 + D), .wait_at_barrier = S(5),
        .wait_at_nxn = S(0.5) });
    expect_process("phase", phase, 1, (struct pz_characteristics){
        .execution_time = S(51), .processors = 1, .exe_count = 1, .total_time = S(51),
        .productive_time = S(36.8), .efficiency = 36.8 / 51, .lost_time = S(14.2),
        .mpi_time = S(14.2), .cpu_time = S(36.8), .communication_time = S(14.2),
        .sendrecv_time = S(9.5), .collective_time = S(4.7), .time_of_start = S(2),
        .overlap = S(1.5), .synchronization = S(7 + D), .real_synchronization = S(7 + D),
        .late_sender = S(5 + D), .barrier_completion = S(0.2), .wait_at_nxn = S(2) });

    /* the profile names Score-P's regions and counts the bytes of its records */
    cr_expect_eq(function("MPI_Init")->calls, 2);
    cr_expect(fabs(function("MPI_Init")->time - S(14)) <= EPS);
    cr_expect_eq(function("MPI_Send")->bytes_sent, 1024);
    cr_expect_eq(function("MPI_Recv")->bytes_received, 1024);
    cr_expect_eq(function("MPI_Waitall")->bytes_received, 128);
}

/* (b) The same program made hybrid: MPI_Init_thread, and OpenMP parallel regions
 * (OPARI2) of two threads on each process; only the master threads call MPI.  Score-P's
 * locations: rank 0's master (id 0), its "Per process metrics" location (local id 1: id
 * 1 << 32, type METRIC, with Metric records of its own), its OpenMP thread (local id 2:
 * 2 << 32); rank 1's master (1) and OpenMP thread (1 + (1 << 32)).  MPI's COMM_LOCATIONS
 * group comes before OpenMP's, which lists all four threads.  Rank 1's clock runs 2 ms
 * ahead.  Rank 0's master records a hardware counter before Enter and Leave of main.
 *
 *   rank 0 master (0.0)                 rank 1 master (1.0)
 *   ProgramBegin 0, main 1-56           ProgramBegin 0, main 1-56
 *   MPI_Init_thread 2-10                MPI_Init_thread 3-10
 *   fork 12, team 12-34 (barrier 30)    fork 11, team 11-28 (barrier 25), join 28
 *     join 34                           fork 30, team 30-33 (barrier 32), join 33
 *   Allreduce 35-40                     Allreduce 36-40
 *   Send to 1, tag 3: 41-42             Recv from 0, tag 3: 40.5-42.5
 *   MPI_Finalize 50-55                  MPI_Finalize 52-55
 *   ProgramEnd 57                       ProgramEnd 58
 *   rank 0 thread 1 (0.1)               rank 1 thread 1 (1.1)
 *   team 12.2-34 (barrier 20)           team 11.1-28 (barrier 27), team 30.1-33 (32.5)
 *
 * The processes of the analysis are the four threads: 0.0, 0.1, 1.0, 1.1.  An OpenMP
 * thread's whole run is its time in thread teams: 21.8 for 0.1, 16.9 + 2.9 = 19.8 for
 * 1.1 (between the two teams it waits in the OpenMP runtime: idle, not computing).
 *   0.0: 57, MPI 8 + 5 + 1 + 5 = 19 (SendRecv 1, Collective 5), CPU 38, idle 1;
 *   0.1: 21.8, CPU 21.8, idle 36.2;  1.0: 58, MPI 7 + 4 + 2 + 3 = 16 (SendRecv 2,
 *   Collective 4), CPU 42, idle 0;  1.1: 19.8, CPU 19.8, idle 38.2.
 * Execution 58, total 4 x 58 = 232; MPI 35, CPU 121.6, idle 75.4, lost 110.4, productive
 * 121.6; load imbalance 4 + 20.2 + 0 + 22.2 = 46.4.  The Allreduce is one instance of the
 * two masters: 0.0 waits at NxN 36 - 35 = 1; the message is sent at 41 + D, the Recv
 * began at 40.5: Late Sender 0.5 + D for 1.0; synchronization 1 and 0.5 + D. */
static void hybrid(struct sp *s)
{
    uint32_t main_ = sp_region(s, "main", "/home/user/heat/heat.c", 12,
                               OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_COMPILER,
                               OTF2_REGION_FLAG_NONE);
    uint32_t par1 = sp_region(s, "!$omp parallel @heat.c:40", "/home/user/heat/heat.c", 40,
                              OTF2_REGION_ROLE_PARALLEL, OTF2_PARADIGM_OPENMP,
                              OTF2_REGION_FLAG_NONE);
    uint32_t bar1 = sp_region(s, "!$omp implicit barrier @heat.c:45", "/home/user/heat/heat.c",
                              45, OTF2_REGION_ROLE_IMPLICIT_BARRIER, OTF2_PARADIGM_OPENMP,
                              OTF2_REGION_FLAG_NONE);
    uint32_t par2 = sp_region(s, "!$omp parallel @heat.c:60", "/home/user/heat/heat.c", 60,
                              OTF2_REGION_ROLE_PARALLEL, OTF2_PARADIGM_OPENMP,
                              OTF2_REGION_FLAG_NONE);
    uint32_t bar2 = sp_region(s, "!$omp implicit barrier @heat.c:63", "/home/user/heat/heat.c",
                              63, OTF2_REGION_ROLE_IMPLICIT_BARRIER, OTF2_PARADIGM_OPENMP,
                              OTF2_REGION_FLAG_NONE);
    int power = sp_location(s, 0, 1, "Per process metrics", OTF2_LOCATION_TYPE_METRIC);
    int t01 = sp_location(s, 0, 2, "OMP thread 1", OTF2_LOCATION_TYPE_CPU_THREAD);
    int t11 = sp_location(s, 1, 1, "OMP thread 1", OTF2_LOCATION_TYPE_CPU_THREAD);

    s->openmp = 1;
    s->rank[1].skew = -(int64_t)(2 * TICKS_PER_MS);
    program_begin(s, 0, 0);
    metric(s, 0, 1, 0, 1000);
    enter(s, 0, 1, main_);
    mpi_env(s, 0, "MPI_Init_thread", 2, 10, OTF2_COLLECTIVE_OP_CREATE_HANDLE);
    fork_join(s, 0, 12, 1);
    team(s, 0, par1, bar1, 12, 30, 34);
    fork_join(s, 0, 34, 0);
    mpi_coll(s, 0, "MPI_Allreduce", OTF2_REGION_ROLE_COLL_ALL2ALL, 35, 40,
             OTF2_COLLECTIVE_OP_ALLREDUCE);
    mpi_send(s, 0, 41, 42, 1, 3, 8);
    mpi_env(s, 0, "MPI_Finalize", 50, 55, OTF2_COLLECTIVE_OP_DESTROY_HANDLE);
    metric(s, 0, 56, 0, 9000);
    leave(s, 0, 56, main_);
    program_end(s, 0, 57);
    team(s, t01, par1, bar1, 12.2, 20, 34);
    for (int i = 0; i < 3; i++)
        metric(s, power, 5 + 20 * i, 1, 80 + (uint64_t)i);

    program_begin(s, 1, 0);
    enter(s, 1, 1, main_);
    mpi_env(s, 1, "MPI_Init_thread", 3, 10, OTF2_COLLECTIVE_OP_CREATE_HANDLE);
    fork_join(s, 1, 11, 1);
    team(s, 1, par1, bar1, 11, 25, 28);
    fork_join(s, 1, 28, 0);
    fork_join(s, 1, 30, 1);
    team(s, 1, par2, bar2, 30, 32, 33);
    fork_join(s, 1, 33, 0);
    mpi_coll(s, 1, "MPI_Allreduce", OTF2_REGION_ROLE_COLL_ALL2ALL, 36, 40,
             OTF2_COLLECTIVE_OP_ALLREDUCE);
    mpi_recv(s, 1, 40.5, 42.5, 0, 3, 8);
    mpi_env(s, 1, "MPI_Finalize", 52, 55, OTF2_COLLECTIVE_OP_DESTROY_HANDLE);
    leave(s, 1, 56, main_);
    program_end(s, 1, 58);
    team(s, t11, par1, bar1, 11.1, 27, 28);
    team(s, t11, par2, bar2, 30.1, 32.5, 33);
}

Test(scorep, hybrid_trace_with_openmp_threads)
{
    static const int rank_of[] = { 0, 0, 1, 1 }, thread_of[] = { 0, 1, 0, 1 };
    struct sp *s = sp_open(2);
    const struct pz_node *run;

    hybrid(s);
    analyze(s);

    cr_assert_eq(an.nprocs, 4, "four threads; the metric location is none");
    cr_expect_eq(an.nranks, 2);
    cr_expect(an.threaded);
    for (int p = 0; p < 4; p++) {
        cr_expect_eq(an.rank_of[p], rank_of[p], "process %d: rank %d", p, an.rank_of[p]);
        cr_expect_eq(an.thread_of[p], thread_of[p], "process %d: thread %d", p,
                     an.thread_of[p]);
    }
    cr_expect_eq(an.messages, 1);
    cr_expect_eq(an.collectives, 1);
    cr_expect_eq(an.unmatched_sends + an.unmatched_receives + an.incomplete_collectives, 0);
    cr_expect_eq(an.nwarnings, 0, "%s", an.nwarnings ? an.warnings[0] : "");
    cr_assert_eq(an.nnodes, 1, "OpenMP regions are no intervals");
    run = &an.nodes[0];

    expect_interval("whole run", run, (struct pz_characteristics){
        .execution_time = S(58), .processors = 4, .exe_count = 1, .total_time = S(232),
        .productive_time = S(121.6), .efficiency = 121.6 / 232, .lost_time = S(110.4),
        .mpi_time = S(35), .cpu_time = S(121.6), .idle_time = S(75.4),
        .communication_time = S(12), .sendrecv_time = S(3), .collective_time = S(9),
        .load_imbalance = S(46.4), .synchronization = S(1.5 + D),
        .real_synchronization = S(1.5 + D), .late_sender = S(0.5 + D), .wait_at_nxn = S(1) });
    expect_process("whole run", run, 0, (struct pz_characteristics){
        .execution_time = S(57), .processors = 1, .exe_count = 1, .total_time = S(58),
        .productive_time = S(38), .efficiency = 38.0 / 58, .lost_time = S(20),
        .mpi_time = S(19), .cpu_time = S(38), .idle_time = S(1),
        .communication_time = S(6), .sendrecv_time = S(1), .collective_time = S(5),
        .load_imbalance = S(4), .synchronization = S(1), .real_synchronization = S(1),
        .wait_at_nxn = S(1) });
    expect_process("whole run", run, 1, (struct pz_characteristics){
        .execution_time = S(21.8), .processors = 1, .exe_count = 1, .total_time = S(58),
        .productive_time = S(21.8), .efficiency = 21.8 / 58, .lost_time = S(36.2),
        .cpu_time = S(21.8), .idle_time = S(36.2), .load_imbalance = S(20.2) });
    expect_process("whole run", run, 2, (struct pz_characteristics){
        .execution_time = S(58), .processors = 1, .exe_count = 1, .total_time = S(58),
        .productive_time = S(42), .efficiency = 42.0 / 58, .lost_time = S(16),
        .mpi_time = S(16), .cpu_time = S(42), .communication_time = S(6),
        .sendrecv_time = S(2), .collective_time = S(4), .synchronization = S(0.5 + D),
        .real_synchronization = S(0.5 + D), .late_sender = S(0.5 + D) });
    expect_process("whole run", run, 3, (struct pz_characteristics){
        .execution_time = S(19.8), .processors = 1, .exe_count = 1, .total_time = S(58),
        .productive_time = S(19.8), .efficiency = 19.8 / 58, .lost_time = S(38.2),
        .cpu_time = S(19.8), .idle_time = S(38.2), .load_imbalance = S(22.2) });
}

/* (c) What else Score-P writes. */

/* Score-P without the MPI group "xnonblock" (SCOREP_MPI_ENABLE_GROUPS=cg,coll,env,p2p):
 * MPI_Isend writes a plain MpiSend, MPI_Irecv nothing, the Wait that completes the
 * receive a plain MpiRecv.
 *   rank 0: ProgramBegin 0, Init 0.5-2, Isend to 1 (tag 1) 4-5, Wait 6-7, Finalize 8-9,
 *           ProgramEnd 10
 *   rank 1: ProgramBegin 0, Init 0.5-2, Irecv 2.5-3, Wait 3.5-5, Finalize 8-9,
 *           ProgramEnd 10
 * The message is matched: Late Sender 4 + D - 3.5 = 0.5 + D for rank 1's Wait.  MPI
 * 1.5 + 1 + 1 + 1 and 1.5 + 0.5 + 1.5 + 1, SendRecv 2 + 2, time of start 1 + 0.5; no
 * overlap, as nothing says when the operations were posted. */
Test(scorep, nonblocking_without_xnonblock)
{
    struct sp *s = sp_open(2);
    uint32_t isend = sp_mpi(s, "MPI_Isend", OTF2_REGION_ROLE_POINT2POINT);
    uint32_t irecv = sp_mpi(s, "MPI_Irecv", OTF2_REGION_ROLE_POINT2POINT);
    uint32_t wait = sp_mpi(s, "MPI_Wait", OTF2_REGION_ROLE_FUNCTION);

    for (int l = 0; l < 2; l++) {
        program_begin(s, l, 0);
        mpi_env(s, l, "MPI_Init", 0.5, 2, OTF2_COLLECTIVE_OP_CREATE_HANDLE);
    }
    enter(s, 0, 4, isend);
    record(s, 0, 4 + D, OTF2_EvtWriter_MpiSend(W(0), NULL, T(0, 4 + D), 1, WORLD, 1, 8));
    leave(s, 0, 5, isend);
    enter(s, 0, 6, wait);
    leave(s, 0, 7, wait);
    enter(s, 1, 2.5, irecv);
    leave(s, 1, 3, irecv);
    enter(s, 1, 3.5, wait);
    record(s, 1, 5 - D, OTF2_EvtWriter_MpiRecv(W(1), NULL, T(1, 5 - D), 0, WORLD, 1, 8));
    leave(s, 1, 5, wait);
    for (int l = 0; l < 2; l++) {
        mpi_env(s, l, "MPI_Finalize", 8, 9, OTF2_COLLECTIVE_OP_DESTROY_HANDLE);
        program_end(s, l, 10);
    }
    analyze(s);

    cr_expect_eq(an.messages, 1);
    expect_interval("whole run", &an.nodes[0], (struct pz_characteristics){
        .execution_time = S(10), .processors = 2, .exe_count = 1, .total_time = S(20),
        .productive_time = S(11), .efficiency = 11.0 / 20, .lost_time = S(9),
        .mpi_time = S(9), .cpu_time = S(11), .communication_time = S(4),
        .sendrecv_time = S(4), .time_of_start = S(1.5), .synchronization = S(0.5 + D),
        .real_synchronization = S(0.5 + D), .late_sender = S(0.5 + D) });
}

/* A receive posted, cancelled and completed (MPI_Irecv, MPI_Cancel, MPI_Wait): the Wait
 * writes MpiRequestCancelled, not MpiIrecv.  Rank 1 posts at 2-2.5 (id 1), computes
 * 2.5-3, cancels 3-3.2, computes 3.2-5, waits 5-5.5, computes 5.5-8: its overlap is the
 * computing while the receive was posted, 0.5 + 1.8 = 2.3, none after the Wait.  MPI
 * 1.5 (Init) + 0.5 + 0.2 + 0.5 + 1 (Finalize) = 3.7, CPU 6.3; rank 0 computes 10 - 2.5 =
 * 7.5: load imbalance 1.2. */
Test(scorep, cancelled_request)
{
    struct sp *s = sp_open(2);
    uint32_t cancel = sp_mpi(s, "MPI_Cancel", OTF2_REGION_ROLE_POINT2POINT);
    uint32_t wait = sp_mpi(s, "MPI_Wait", OTF2_REGION_ROLE_FUNCTION);

    for (int l = 0; l < 2; l++) {
        program_begin(s, l, 0);
        mpi_env(s, l, "MPI_Init", 0.5, 2, OTF2_COLLECTIVE_OP_CREATE_HANDLE);
    }
    mpi_irecv(s, 1, 2, 2.5, 1);
    enter(s, 1, 3, cancel);
    leave(s, 1, 3.2, cancel);
    enter(s, 1, 5, wait);
    record(s, 1, 5.5 - D, OTF2_EvtWriter_MpiRequestCancelled(W(1), NULL, T(1, 5.5 - D), 1));
    leave(s, 1, 5.5, wait);
    for (int l = 0; l < 2; l++) {
        mpi_env(s, l, "MPI_Finalize", 8, 9, OTF2_COLLECTIVE_OP_DESTROY_HANDLE);
        program_end(s, l, 10);
    }
    analyze(s);

    cr_expect_eq(an.messages + an.unmatched_receives + an.unmatched_sends, 0);
    expect_process("whole run", &an.nodes[0], 1, (struct pz_characteristics){
        .execution_time = S(10), .processors = 1, .exe_count = 1, .total_time = S(10),
        .productive_time = S(6.3), .efficiency = 0.63, .lost_time = S(3.7),
        .mpi_time = S(3.7), .cpu_time = S(6.3), .communication_time = S(1.2),
        .sendrecv_time = S(1.2), .time_of_start = S(0.5), .overlap = S(2.3),
        .load_imbalance = S(1.2) });
}

/* Two ranks: ProgramBegin 0, MPI_Init 0.5-2; rank 0 switches the measurement off at 4
 * and on at 9; rank 1 makes `recv`, if asked, its MPI_Recv 3-6 from rank 0; both
 * MPI_Finalize 10-11, ProgramEnd 12. */
static void switched_off(struct sp *s, int recv)
{
    for (int l = 0; l < 2; l++) {
        program_begin(s, l, 0);
        mpi_env(s, l, "MPI_Init", 0.5, 2, OTF2_COLLECTIVE_OP_CREATE_HANDLE);
    }
    record(s, 0, 4, OTF2_EvtWriter_MeasurementOnOff(W(0), NULL, T(0, 4), OTF2_MEASUREMENT_OFF));
    record(s, 0, 9, OTF2_EvtWriter_MeasurementOnOff(W(0), NULL, T(0, 9), OTF2_MEASUREMENT_ON));
    if (recv)
        mpi_recv(s, 1, 3, 6, 0, 1, 8);
    for (int l = 0; l < 2; l++) {
        mpi_env(s, l, "MPI_Finalize", 10, 11, OTF2_COLLECTIVE_OP_DESTROY_HANDLE);
        program_end(s, l, 12);
    }
}

/* SCOREP_RECORDING_OFF at 4 and ON at 9 on rank 0: MeasurementOnOff records, nothing in
 * between, so the message rank 0 sent meanwhile has no MpiSend and rank 1's receive
 * (Recv 3-6) none to match.  The analysis says so in a warning; rank 0's 5 ms without
 * records count as computation: CPU 12 - (1.5 + 1) = 9.5. */
Test(scorep, measurement_switched_off)
{
    struct sp *s = sp_open(2);

    switched_off(s, 1);
    analyze(s);

    cr_expect_eq(an.messages, 0);
    cr_expect_eq(an.unmatched_receives, 1);
    cr_expect_eq(an.nwarnings, 1);
    cr_expect(warned("process 0: the measurement was switched off 1 time, first at "
                     "0.004000 s, for 0.005000 s in all"),
              "warnings: %s", an.nwarnings ? an.warnings[0] : "none");
    expect_process("whole run", &an.nodes[0], 0, (struct pz_characteristics){
        .execution_time = S(12), .processors = 1, .exe_count = 1, .total_time = S(12),
        .productive_time = S(9.5), .efficiency = 9.5 / 12, .lost_time = S(2.5),
        .mpi_time = S(2.5), .cpu_time = S(9.5) });
}

/* The trace layer's records carry neither ProgramBegin nor MeasurementOnOff: the
 * analysis through them (taken for traces of many processes) leaves such a trace to
 * OTF2's global reader. */
Test(scorep, the_records_leave_program_and_measurement_events_to_the_global_reader)
{
    struct sp *s = sp_open(2);

    switched_off(s, 0);
    sp_close(s);
    cr_expect_eq(pz_analyze_records(dir, &an, NULL, err, sizeof(err)), 1, "%s", err);
    cr_expect_eq(an.nprocs, 0, "declined, the analysis stays empty");
}

/* Communicator construction as Score-P records it (SCOREP_Mpi_Cg.c, and for MPI_Comm_idup
 * scorep_mpi_request_mgmt.c): MPI_Comm_dup is a collective with the operation
 * CREATE_HANDLE on the parent, MPI_Comm_idup a nonblocking one completed in the Wait.
 *   rank 0: ProgramBegin 0, Init 0.5-2, Comm_dup 3-5, Comm_idup 6-6.5 (id 1), Wait 7-8,
 *           Finalize 9-10, ProgramEnd 11
 *   rank 1: the same but Comm_dup 4.5-5, Comm_idup 7.5-7.8, Wait 7.8-8
 * MPI_Comm_dup is the members' agreement on the new context id over the parent (an
 * Allreduce in MPICH): one collective instance, where rank 0 waits 3-4.5 for the late
 * rank 1 at N x N (synchronization 1.5); both leave at 5: no completion wait, no time
 * variation.  MPI_Init's handle and MPI_Finalize's are no instance; the nonblocking
 * Comm_idup moves no data: no instance either.  Their time is MPI time only (the Wait's
 * is point-to-point time).  MPI 1.5 + 2 + 0.5 + 1 + 1 = 6 and 1.5 + 0.5 + 0.3 + 0.2 + 1
 * = 3.5, CPU 5 and 7.5, SendRecv 1 + 0.2; rank 0 computes 6.5-7 while its Comm_idup is
 * in flight: overlap 0.5. */
Test(scorep, communicator_handles)
{
    static const double dup[2][2] = { { 3, 5 }, { 4.5, 5 } }, idup[2][3] = { { 6, 6.5, 7 },
                                                                            { 7.5, 7.8, 7.8 } };
    struct sp *s = sp_open(2);
    uint32_t idup_region = sp_mpi(s, "MPI_Comm_idup", OTF2_REGION_ROLE_FUNCTION);
    uint32_t wait = sp_mpi(s, "MPI_Wait", OTF2_REGION_ROLE_FUNCTION);

    for (int l = 0; l < 2; l++) {
        program_begin(s, l, 0);
        mpi_env(s, l, "MPI_Init", 0.5, 2, OTF2_COLLECTIVE_OP_CREATE_HANDLE);
        mpi_env(s, l, "MPI_Comm_dup", dup[l][0], dup[l][1], OTF2_COLLECTIVE_OP_CREATE_HANDLE);
        enter(s, l, idup[l][0], idup_region);
        record(s, l, idup[l][0], OTF2_EvtWriter_NonBlockingCollectiveRequest(
                                     W(l), NULL, T(l, idup[l][0]), 1));
        leave(s, l, idup[l][1], idup_region);
        enter(s, l, idup[l][2], wait);
        record(s, l, 8 - D, OTF2_EvtWriter_NonBlockingCollectiveComplete(
                                W(l), NULL, T(l, 8 - D), OTF2_COLLECTIVE_OP_CREATE_HANDLE,
                                WORLD, OTF2_COLLECTIVE_ROOT_NONE, 0, 0, 1));
        leave(s, l, 8, wait);
        mpi_env(s, l, "MPI_Finalize", 9, 10, OTF2_COLLECTIVE_OP_DESTROY_HANDLE);
        program_end(s, l, 11);
    }
    analyze(s);

    cr_expect_eq(an.collectives, 1);
    cr_expect_eq(an.incomplete_collectives, 0);
    expect_interval("whole run", &an.nodes[0], (struct pz_characteristics){
        .execution_time = S(11), .processors = 2, .exe_count = 1, .total_time = S(22),
        .productive_time = S(12.5), .efficiency = 12.5 / 22, .lost_time = S(9.5),
        .mpi_time = S(9.5), .cpu_time = S(12.5), .communication_time = S(1.2),
        .sendrecv_time = S(1.2), .overlap = S(0.5), .load_imbalance = S(2.5),
        .synchronization = S(1.5), .real_synchronization = S(1.5), .wait_at_nxn = S(1.5) });
}

/* With SCOREP_ENABLE_UNWINDING (and without SCOREP_TRACING_CONVERT_CALLING_CONTEXT_EVENTS)
 * main and MPI_Send are CallingContextEnter and CallingContextLeave records: the analysis
 * cannot see the calls and says so, with the setting that records them as regions. */
Test(scorep, calling_context_events)
{
    struct sp *s = sp_open(2);

    sp_region(s, "main", "/home/user/heat/heat.c", 12, OTF2_REGION_ROLE_FUNCTION,
              OTF2_PARADIGM_COMPILER, OTF2_REGION_FLAG_NONE);
    sp_mpi(s, "MPI_Send", OTF2_REGION_ROLE_POINT2POINT);
    s->unwinding = 1;
    for (int l = 0; l < 2; l++)
        program_begin(s, l, 0);
    record(s, 0, 1, OTF2_EvtWriter_CallingContextEnter(W(0), NULL, T(0, 1), 0, 1));
    record(s, 0, 2, OTF2_EvtWriter_CallingContextEnter(W(0), NULL, T(0, 2), 1, 1));
    record(s, 0, 2 + D, OTF2_EvtWriter_MpiSend(W(0), NULL, T(0, 2 + D), 1, WORLD, 1, 8));
    record(s, 0, 3, OTF2_EvtWriter_CallingContextLeave(W(0), NULL, T(0, 3), 1));
    record(s, 0, 4, OTF2_EvtWriter_CallingContextLeave(W(0), NULL, T(0, 4), 0));
    for (int l = 0; l < 2; l++)
        program_end(s, l, 5);
    sp_close(s);

    cr_assert_eq(pz_analyze(dir, &an, err, sizeof(err)), -1);
    cr_expect(strstr(err, "calling-context events") != NULL, "%s", err);
    cr_expect(strstr(err, "SCOREP_TRACING_CONVERT_CALLING_CONTEXT_EVENTS=true") != NULL, "%s",
              err);
}
