/* The global definitions of a synthesized archive (synth_defs.h).
 *
 * The synthesized events carry the recording's references to regions, call sites,
 * strings and attributes, so those definitions are copied unchanged, like a predicted
 * archive's (trace_defs.c, from the same list of kinds, trace_defs_copied.h).  What
 * describes the recorded run's processes (the system tree, location groups, locations,
 * groups, communicators and all that refers to them) is left out and written new for
 * the synthesized run after the copy: each definition refers to earlier ones, and the
 * new strings come after the recording's largest reference. */
#include <stdio.h>
#include <stdlib.h>

#include "synth_defs.h"
#include "trace_complaints.h"
#include "trace_defs_copied.h"

/* The scan. */
struct scan {
    OTF2_StringRef next_string;
    int clock;
};

static OTF2_CallbackCode scan_string(void *data, OTF2_StringRef self, const char *string)
{
    struct scan *s = data;

    (void)string;
    if (self >= s->next_string)
        s->next_string = self + 1;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode scan_clock(void *data, uint64_t resolution, uint64_t offset,
                                    uint64_t length, uint64_t realtime)
{
    struct scan *s = data;

    (void)offset, (void)length, (void)realtime;
    s->clock = resolution > 0;
    return OTF2_CALLBACK_SUCCESS;
}

int pz_synth_defs_scan(const char *anchor, struct pz_synth_recorded *r, char *err,
                       size_t errlen)
{
    struct scan s = { 0, 0 };
    OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
    int rc = -1;

    if (cb) {
        OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, scan_string);
        OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, scan_clock);
        rc = pz_out_defs_read(anchor, cb, &s);
        OTF2_GlobalDefReaderCallbacks_Delete(cb);
    }
    if (rc != 0) {
        pz_out_fail(err, errlen, anchor, "cannot read the definitions");
        return -1;
    }
    if (!s.clock) {
        snprintf(err, errlen, "%s: the trace has no clock properties", anchor);
        return -1;
    }
    r->next_string = s.next_string;
    return pz_out_defs_scan(anchor, NULL, 0, r->attributes, err, errlen);
}

/* The copy. */
struct copy {
    OTF2_GlobalDefWriter *w;
    uint64_t end;
};

static OTF2_CallbackCode wrote(OTF2_ErrorCode rc)
{
    return rc == OTF2_SUCCESS ? OTF2_CALLBACK_SUCCESS : OTF2_CALLBACK_INTERRUPT;
}

/* What becomes of each kind a predicted archive copies: KEEP, the program's, copied;
 * DROP, the recorded run's processes and what refers to them.  A kind added to the
 * list without a decision here does not compile. */
#define KEEP(...) __VA_ARGS__
#define DROP(...)
#define FATE_Paradigm KEEP
#define FATE_ParadigmProperty KEEP
#define FATE_String KEEP
#define FATE_Attribute KEEP
#define FATE_SystemTreeNode DROP
#define FATE_SystemTreeNodeProperty DROP
#define FATE_SystemTreeNodeDomain DROP
#define FATE_LocationGroup DROP
#define FATE_LocationGroupProperty DROP
#define FATE_Region KEEP
#define FATE_SourceCodeLocation KEEP
#define FATE_CallingContext KEEP
#define FATE_CallingContextProperty KEEP
#define FATE_InterruptGenerator KEEP
#define FATE_Parameter KEEP
#define FATE_Group DROP
#define FATE_Comm DROP
#define FATE_InterComm DROP
#define FATE_RmaWin DROP          /* of a communicator */
#define FATE_CartDimension DROP   /* only of topologies */
#define FATE_CartTopology DROP    /* of a communicator */
#define FATE_CartCoordinate DROP
#define FATE_MetricMember KEEP
#define FATE_MetricClass KEEP
#define FATE_IoParadigm KEEP
#define FATE_IoRegularFile DROP   /* in a node of the system tree */
#define FATE_IoDirectory DROP
#define FATE_IoFileProperty DROP
#define FATE_IoHandle DROP        /* of a file, and a communicator */
#define FATE_IoPreCreatedHandleState DROP

#define UNPARENTHESIZED(...) __VA_ARGS__
#define COPY_CALLBACK(kind, parameters, arguments)                                         \
    FATE_##kind(static OTF2_CallbackCode copy_##kind(void *data, UNPARENTHESIZED parameters) \
    {                                                                                      \
        struct copy *c = data;                                                             \
                                                                                           \
        return wrote(OTF2_GlobalDefWriter_Write##kind(c->w, UNPARENTHESIZED arguments));   \
    })
PZ_OUT_COPIED_DEFS(COPY_CALLBACK)

/* The clock properties: the span of the events written. */
static OTF2_CallbackCode copy_clock(void *data, uint64_t resolution, uint64_t offset,
                                    uint64_t length, uint64_t realtime)
{
    struct copy *c = data;

    (void)length;
    return wrote(OTF2_GlobalDefWriter_WriteClockProperties(
        c->w, resolution, offset, c->end > offset ? c->end - offset : 0, realtime));
}

static int copy_program(const char *anchor, OTF2_GlobalDefWriter *w, uint64_t end)
{
    struct copy c = { w, end };
    OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
    int rc = -1;

    if (cb) {
#define SET_CALLBACK(kind, parameters, arguments) \
    FATE_##kind(OTF2_GlobalDefReaderCallbacks_Set##kind##Callback(cb, copy_##kind);)
        PZ_OUT_COPIED_DEFS(SET_CALLBACK)
#undef SET_CALLBACK
        OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, copy_clock);
        rc = pz_out_defs_read(anchor, cb, &c);
        OTF2_GlobalDefReaderCallbacks_Delete(cb);
    }
    return rc;
}

/* The run's definitions, as the recorder writes them (wrapper/globaldefs.c). */
enum { GROUP_LOCATIONS, GROUP_SELF, FIRST_COMM_GROUP };

struct strings {
    OTF2_GlobalDefWriter *w;
    OTF2_StringRef next;
    OTF2_ErrorCode rc;          /* the first failure */
};

static void check(struct strings *s, OTF2_ErrorCode rc)
{
    if (s->rc == OTF2_SUCCESS)
        s->rc = rc;
}

static OTF2_StringRef string(struct strings *s, const char *text)
{
    check(s, OTF2_GlobalDefWriter_WriteString(s->w, s->next, text));
    return s->next++;
}

/* One machine holds every process: the synthesized run has no nodes. */
static void write_processes(struct strings *s, const struct pz_synth_run *run)
{
    OTF2_StringRef machine = string(s, "machine"), master;
    char name[64];

    check(s, OTF2_GlobalDefWriter_WriteSystemTreeNode(s->w, 0, machine, machine,
                                                      OTF2_UNDEFINED_SYSTEM_TREE_NODE));
    for (int p = 0; p < run->nprocs; p++) {
        snprintf(name, sizeof(name), "MPI Rank %d", p);
        check(s, OTF2_GlobalDefWriter_WriteLocationGroup(
                     s->w, (OTF2_LocationGroupRef)p, string(s, name),
                     OTF2_LOCATION_GROUP_TYPE_PROCESS, 0, OTF2_UNDEFINED_LOCATION_GROUP));
    }
    master = string(s, "Master thread");
    for (int p = 0; p < run->nprocs; p++)
        check(s, OTF2_GlobalDefWriter_WriteLocation(s->w, (OTF2_LocationRef)p, master,
                                                    OTF2_LOCATION_TYPE_CPU_THREAD,
                                                    run->events[p], (OTF2_LocationGroupRef)p));
}

/* A COMM_GROUP of world ranks: those given, or 0..n-1 for the world. */
static void write_comm_group(struct strings *s, OTF2_GroupRef id, OTF2_StringRef name,
                             const struct pz_synth_comm *c, uint64_t *members)
{
    for (uint32_t i = 0; i < c->size; i++)
        members[i] = c->members ? (uint64_t)c->members[i] : i;
    check(s, OTF2_GlobalDefWriter_WriteGroup(s->w, id, name, OTF2_GROUP_TYPE_COMM_GROUP,
                                             OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, c->size,
                                             members));
}

/* The world's locations (location p is world rank p), MPI_COMM_SELF's group, and per
 * communicator i Comm i; members holds nprocs. */
static void write_comms(struct strings *s, const struct pz_synth_run *run, uint64_t *members)
{
    OTF2_GroupRef next = FIRST_COMM_GROUP;

    for (int p = 0; p < run->nprocs; p++)
        members[p] = (uint64_t)p;
    check(s, OTF2_GlobalDefWriter_WriteGroup(s->w, GROUP_LOCATIONS,
                                             string(s, "MPI_COMM_WORLD locations"),
                                             OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                             OTF2_GROUP_FLAG_NONE, (uint32_t)run->nprocs,
                                             members));
    check(s, OTF2_GlobalDefWriter_WriteGroup(s->w, GROUP_SELF, string(s, "MPI_COMM_SELF"),
                                             OTF2_GROUP_TYPE_COMM_SELF, OTF2_PARADIGM_MPI,
                                             OTF2_GROUP_FLAG_NONE, 0, NULL));
    for (uint32_t i = 0; i < run->ncomms; i++) {
        const struct pz_synth_comm *c = &run->comms[i];
        OTF2_StringRef name = string(s, c->name ? c->name : "");
        OTF2_GroupRef group = GROUP_SELF;

        if (!c->self)
            write_comm_group(s, group = next++, name, c, members);
        check(s, OTF2_GlobalDefWriter_WriteComm(s->w, i, name, group, OTF2_UNDEFINED_COMM,
                                                OTF2_COMM_FLAG_NONE));
    }
}

/* The windows made on each communicator (struct pz_synth_comm.windows), numbered
 * communicator after communicator, as the recorder names them. */
static void write_windows(struct strings *s, const struct pz_synth_run *run)
{
    OTF2_RmaWinRef next = 0;
    char name[32];

    for (uint32_t i = 0; i < run->ncomms; i++)
        for (uint32_t k = 0; k < run->comms[i].windows; k++, next++) {
            snprintf(name, sizeof(name), "MPI window %u", (unsigned)next);
            check(s, OTF2_GlobalDefWriter_WriteRmaWin(s->w, next, string(s, name), i,
                                                      OTF2_RMA_WIN_FLAG_NONE));
        }
}

/* The largest group: the world's locations, or a communicator. */
static size_t largest_group(const struct pz_synth_run *run)
{
    size_t n = (size_t)run->nprocs;

    for (uint32_t i = 0; i < run->ncomms; i++)
        if (!run->comms[i].self && run->comms[i].size > n)
            n = run->comms[i].size;
    return n;
}

static int write_run(OTF2_GlobalDefWriter *w, OTF2_StringRef first,
                     const struct pz_synth_run *run)
{
    struct strings s = { w, first, OTF2_SUCCESS };
    uint64_t *members = malloc(largest_group(run) * sizeof(*members));

    if (!members)
        return -1;
    for (uint32_t i = 0; i < run->nlists; i++)
        string(&s, run->lists[i]);
    write_processes(&s, run);
    write_comms(&s, run, members);
    write_windows(&s, run);
    free(members);
    return s.rc == OTF2_SUCCESS ? 0 : -1;
}

int pz_synth_defs_write(const char *anchor, const char *path, OTF2_GlobalDefWriter *w,
                        const struct pz_synth_recorded *r, const struct pz_synth_run *run,
                        char *err, size_t errlen)
{
    if (copy_program(anchor, w, run->end) != 0) {
        pz_out_fail(err, errlen, anchor, "cannot copy the definitions");
        return -1;
    }
    if (write_run(w, r->next_string, run) != 0) {
        pz_out_fail(err, errlen, path, "cannot write the definitions of the processes");
        return -1;
    }
    return 0;
}
