/* Global definitions, in the order readers expect them: each definition only refers to
 * definitions written before it. */
#include <stdio.h>
#include <string.h>

#include "archive.h"
#include "calls_gen.h"
#include "defs.h"
#include "globaldefs.h"
#include "io_defs.h"
#include "names.h"
#include "vcounts.h"

enum { GROUP_LOCATIONS, GROUP_SELF, FIRST_COMM_GROUP };

struct strings {
    OTF2_GlobalDefWriter *w;
    OTF2_StringRef next;
};

static OTF2_StringRef string(struct strings *s, const char *text)
{
    OTF2_GlobalDefWriter_WriteString(s->w, s->next, text);
    return s->next++;
}

static OTF2_RegionRole collective_role(enum pz_coll_op c)
{
    switch (c) {
    case PZ_COLL_BARRIER:
        return OTF2_REGION_ROLE_BARRIER;
    case PZ_COLL_BCAST:
    case PZ_COLL_SCATTER:
    case PZ_COLL_SCATTERV:
        return OTF2_REGION_ROLE_COLL_ONE2ALL;
    case PZ_COLL_GATHER:
    case PZ_COLL_GATHERV:
    case PZ_COLL_REDUCE:
        return OTF2_REGION_ROLE_COLL_ALL2ONE;
    case PZ_COLL_SCAN:
    case PZ_COLL_EXSCAN:
        return OTF2_REGION_ROLE_COLL_OTHER;
    default:
        return OTF2_REGION_ROLE_COLL_ALL2ALL;
    }
}

static OTF2_RegionRole region_role(const struct pz_call_info *call)
{
    switch (call->category) {
    case PZ_CAT_SEND: case PZ_CAT_RECV: case PZ_CAT_SENDRECV: case PZ_CAT_SENDRECV_REPLACE:
    case PZ_CAT_ISEND: case PZ_CAT_IRECV: case PZ_CAT_MRECV: case PZ_CAT_IMRECV:
    case PZ_CAT_PSEND_INIT: case PZ_CAT_PRECV_INIT: case PZ_CAT_PROBE:
        return OTF2_REGION_ROLE_POINT2POINT;
    case PZ_CAT_COLL:
        return collective_role(call->collective);
    default:
        return OTF2_REGION_ROLE_FUNCTION;
    }
}

static void write_regions(struct strings *s)
{
    OTF2_StringRef mpi_file = string(s, PZ_MPI_FILE), empty = string(s, "");

    for (int id = 0; id < PZ_NCALLS; id++) {
        OTF2_StringRef name = string(s, pz_calls[id].name);

        OTF2_GlobalDefWriter_WriteRegion(s->w, (OTF2_RegionRef)id, name, name, empty,
                                         region_role(&pz_calls[id]), OTF2_PARADIGM_MPI,
                                         OTF2_REGION_FLAG_NONE, mpi_file, 0, 0);
    }
}

/* Intervals are phases of the program's own code, named so that a timeline shows
 * where each begins: "interval 2 at heat.c:57".  A sequential interval is named
 * "sequential interval 2 at heat.c:57" and its description says so to the analyzer
 * (docs/trace-format.md). */
static void write_intervals(struct strings *s, const struct pz_run_info *run)
{
    OTF2_StringRef empty = string(s, ""), sequential = string(s, PZ_DESC_SEQUENTIAL);

    for (uint32_t i = 0; i < run->nintervals; i++) {
        const struct pz_interval_def *d = &run->intervals[i];
        const char *base = d->file ? strrchr(d->file, '/') : NULL;
        char name[4200];
        OTF2_StringRef ref;

        snprintf(name, sizeof(name), PZ_INTERVAL_NAME_FORMAT, d->sequential ? PZ_SEQUENTIAL_PREFIX : "",
                 d->id, base ? base + 1 : d->file ? d->file : "??", d->line);
        ref = string(s, name);
        OTF2_GlobalDefWriter_WriteRegion(s->w, PZ_NCALLS + i, ref, ref,
                                         d->sequential ? sequential : empty,
                                         OTF2_REGION_ROLE_CODE, OTF2_PARADIGM_USER,
                                         OTF2_REGION_FLAG_PHASE,
                                         string(s, d->file ? d->file : "??"), d->line,
                                         d->line);
    }
}

static void write_system_tree(struct strings *s, const struct pz_run_info *run)
{
    OTF2_StringRef node_class = string(s, "node");

    OTF2_GlobalDefWriter_WriteSystemTreeNode(s->w, 0, string(s, "machine"),
                                             string(s, "machine"), OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    for (int n = 0; n < run->nnodes; n++)
        OTF2_GlobalDefWriter_WriteSystemTreeNode(s->w, (OTF2_SystemTreeNodeRef)(n + 1),
                                                 string(s, run->node_names[n]), node_class, 0);
}

static void write_locations(struct strings *s, const struct pz_run_info *run)
{
    char name[64];
    size_t loc = 0;

    for (int r = 0; r < run->nprocs; r++) {
        snprintf(name, sizeof(name), "MPI Rank %d", r);
        OTF2_GlobalDefWriter_WriteLocationGroup(s->w, (OTF2_LocationGroupRef)r, string(s, name),
                                                OTF2_LOCATION_GROUP_TYPE_PROCESS,
                                                (OTF2_SystemTreeNodeRef)(run->node_of_rank[r] + 1),
                                                OTF2_UNDEFINED_LOCATION_GROUP);
    }
    for (int r = 0; r < run->nprocs; r++) {
        for (int t = 0; t < run->nthreads[r]; t++, loc++) {
            if (t == 0)
                snprintf(name, sizeof(name), "Master thread");
            else
                snprintf(name, sizeof(name), "Thread %d", t);
            OTF2_GlobalDefWriter_WriteLocation(s->w, pz_location_id(r, (uint32_t)t),
                                               string(s, name), OTF2_LOCATION_TYPE_CPU_THREAD,
                                               run->events[loc], (OTF2_LocationGroupRef)r);
        }
    }
}

static void write_group(struct strings *s, OTF2_GroupRef id, const char *name,
                        const int *ranks, int n)
{
    uint64_t members[n > 0 ? n : 1];

    for (int i = 0; i < n; i++)
        members[i] = (uint64_t)ranks[i];
    OTF2_GlobalDefWriter_WriteGroup(s->w, id, string(s, name), OTF2_GROUP_TYPE_COMM_GROUP,
                                    OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, (uint32_t)n,
                                    members);
}

static void comm_name(char *buf, size_t len, uint32_t index, const struct pz_global_comm *c)
{
    if (index == 0)
        snprintf(buf, len, "MPI_COMM_WORLD");
    else if (index == 1)
        snprintf(buf, len, "MPI_COMM_SELF");
    else if (!c->members)
        snprintf(buf, len, "unknown communicator");
    else
        snprintf(buf, len, "Comm %u (%s)", index, pz_calls[c->creator].name);
}

/* The groups communicator i defines: MPI_COMM_SELF's is the common one, an
 * intercommunicator has one per side. */
static uint32_t comm_groups(uint32_t i, const struct pz_global_comm *c)
{
    return i == 1 ? 0 : c->remote_size > 0 ? 2 : 1;
}

uint32_t pz_rma_groups_base(const struct pz_run_info *run)
{
    uint32_t next = FIRST_COMM_GROUP;

    for (uint32_t i = 0; i < run->ncomms; i++)
        next += comm_groups(i, &run->comms[i]);
    return next;
}

/* The groups of one-sided epochs, "MPI group N", their members world ranks as
 * rma_groups.h's identities list them. */
static void write_rma_groups(struct strings *s, const struct pz_run_info *run)
{
    OTF2_GroupRef base = pz_rma_groups_base(run);
    char name[48];

    for (uint32_t i = 0; i < run->nrma_groups; i++) {
        const char *p = run->rma_groups[i];
        int n = 0, used = 0;

        if (sscanf(p, "%d%n", &n, &used) != 1 || n < 0)
            n = 0;
        int ranks[n > 0 ? n : 1];

        for (int m = 0; m < n; m++) {
            p += used;
            if (sscanf(p, "%d%n", &ranks[m], &used) != 1)
                n = m;
        }
        snprintf(name, sizeof(name), "MPI group %u", i);
        write_group(s, base + i, name, ranks, n);
    }
}

static void write_comms(struct strings *s, const struct pz_run_info *run)
{
    uint64_t locations[run->nprocs];
    OTF2_GroupRef next = FIRST_COMM_GROUP;
    char name[96];

    for (int r = 0; r < run->nprocs; r++)
        locations[r] = pz_location_id(r, 0);
    OTF2_GlobalDefWriter_WriteGroup(s->w, GROUP_LOCATIONS, string(s, "MPI_COMM_WORLD locations"),
                                    OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                    OTF2_GROUP_FLAG_NONE, (uint32_t)run->nprocs, locations);
    OTF2_GlobalDefWriter_WriteGroup(s->w, GROUP_SELF, string(s, "MPI_COMM_SELF"),
                                    OTF2_GROUP_TYPE_COMM_SELF, OTF2_PARADIGM_MPI,
                                    OTF2_GROUP_FLAG_NONE, 0, NULL);
    for (uint32_t i = 0; i < run->ncomms; i++) {
        const struct pz_global_comm *c = &run->comms[i];

        comm_name(name, sizeof(name), i, c);
        if (i == 1) {
            OTF2_GlobalDefWriter_WriteComm(s->w, i, string(s, name), GROUP_SELF,
                                           OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
        } else if (c->remote_size > 0) {
            write_group(s, next, name, c->members, c->size);
            write_group(s, next + 1, name, c->members + c->size, c->remote_size);
            OTF2_GlobalDefWriter_WriteInterComm(s->w, i, string(s, name), next, next + 1,
                                                OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
            next += 2;
        } else {
            write_group(s, next, name, c->members, c->members ? c->size : 0);
            OTF2_GlobalDefWriter_WriteComm(s->w, i, string(s, name), next++,
                                           OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
        }
    }
}

/* The coordinates of rank r in c's grid: MPI numbers a Cartesian grid's processes in
 * row-major order, the last dimension varying fastest. */
static void row_major(const struct pz_global_comm *c, int r, uint32_t *coords)
{
    for (int d = c->ndims - 1; d >= 0; d--) {
        coords[d] = (uint32_t)(r % c->cart[d]);
        r /= c->cart[d];
    }
}

/* Topology id of communicator comm (c), its dimensions from first on (names:
 * dim_names), named as Score-P names them: "MPI_Cartesian_4x2", "Sub MPI_Cartesian_4"
 * for MPI_Cart_sub's; then the coordinates of every rank of comm. */
static void write_topology(struct strings *s, uint32_t comm, const struct pz_global_comm *c,
                           OTF2_CartTopologyRef id, OTF2_CartDimensionRef first,
                           const OTF2_StringRef *dim_names)
{
    OTF2_CartDimensionRef dims[PZ_CART_MAX_DIMS];
    uint32_t coords[PZ_CART_MAX_DIMS];
    char name[32 + 12 * PZ_CART_MAX_DIMS];
    int len = snprintf(name, sizeof(name), "%sMPI_Cartesian",
                       c->creator == PZ_CALL_MPI_Cart_sub ? "Sub " : "");

    for (int d = 0; d < c->ndims; d++) {
        dims[d] = first + (uint32_t)d;
        OTF2_GlobalDefWriter_WriteCartDimension(
            s->w, dims[d], dim_names[d], (uint32_t)c->cart[d],
            c->cart[c->ndims + d] ? OTF2_CART_PERIODIC_TRUE : OTF2_CART_PERIODIC_FALSE);
        len += snprintf(name + len, sizeof(name) - (size_t)len, "%c%d", d ? 'x' : '_',
                        c->cart[d]);
    }
    OTF2_GlobalDefWriter_WriteCartTopology(s->w, id, string(s, name), comm,
                                           (uint8_t)c->ndims, dims);
    for (int r = 0; r < c->size; r++) {
        row_major(c, r, coords);
        OTF2_GlobalDefWriter_WriteCartCoordinate(s->w, id, (uint32_t)r, (uint8_t)c->ndims,
                                                 coords);
    }
}

/* The Cartesian topologies of communicators (MPI_Cart_create, MPI_Cart_sub), after the
 * communicators, as Score-P writes them: dimensions of each topology of their own, named
 * "dimension 0", ...; a coordinate's rank is a rank of the topology's communicator. */
static void write_topologies(struct strings *s, const struct pz_run_info *run)
{
    OTF2_StringRef dim_names[PZ_CART_MAX_DIMS];
    OTF2_CartDimensionRef next_dim = 0;
    OTF2_CartTopologyRef next = 0;
    int named = 0;
    char name[32];

    for (uint32_t i = 0; i < run->ncomms; i++) {
        int ndims = run->comms[i].ndims;

        for (; named < ndims; named++) {
            snprintf(name, sizeof(name), "dimension %d", named);
            dim_names[named] = string(s, name);
        }
        if (ndims == 0)
            continue;
        write_topology(s, i, &run->comms[i], next++, next_dim, dim_names);
        next_dim += (uint32_t)ndims;
    }
}

/* The count lists take the first string ids, the ones the processes' mappings use. */
static void write_count_lists(struct strings *s, const struct pz_run_info *run)
{
    for (uint32_t i = 0; i < run->ncount_lists; i++)
        string(s, run->count_lists[i]);
    OTF2_GlobalDefWriter_WriteAttribute(
        s->w, PZ_ATTR_SEND_BYTES, string(s, PZ_NAME_SEND_BYTES), string(s, PZ_DESC_SEND_BYTES),
        OTF2_TYPE_STRING);
    OTF2_GlobalDefWriter_WriteAttribute(
        s->w, PZ_ATTR_RECV_BYTES, string(s, PZ_NAME_RECV_BYTES), string(s, PZ_DESC_RECV_BYTES),
        OTF2_TYPE_STRING);
}

/* Call sites of MPI calls (PROGNOZ_CALLSITES=1), an attribute of their Enter events. */
static void write_sites(struct strings *s, const struct pz_run_info *run)
{
    OTF2_GlobalDefWriter_WriteAttribute(
        s->w, PZ_ATTR_CALLSITE, string(s, PZ_NAME_CALLSITE), string(s, PZ_DESC_CALLSITE),
        OTF2_TYPE_SOURCE_CODE_LOCATION);
    for (uint32_t i = 0; i < run->nsites; i++)
        OTF2_GlobalDefWriter_WriteSourceCodeLocation(
            s->w, i, string(s, run->sites[i].file ? run->sites[i].file : "??"),
            run->sites[i].line);
}

/* The mark of receives posted with MPI_ANY_SOURCE, defined in every run (as the ids are
 * written in order: after the call sites' and before the CPU time's). */
static void write_any_source(struct strings *s)
{
    OTF2_GlobalDefWriter_WriteAttribute(
        s->w, PZ_ATTR_ANY_SOURCE, string(s, PZ_NAME_ANY_SOURCE), string(s, PZ_DESC_ANY_SOURCE),
        OTF2_TYPE_UINT8);
}

/* The thread CPU time at the Enter and Leave of MPI calls (PROGNOZ_CPU_TIME=1), defined
 * only in a run that recorded it, so that a reader knows from the definitions. */
static void write_cpu_time(struct strings *s, const struct pz_run_info *run)
{
    if (!run->cpu_time)
        return;
    OTF2_GlobalDefWriter_WriteAttribute(
        s->w, PZ_ATTR_CPU_TIME, string(s, PZ_NAME_CPU_TIME), string(s, PZ_DESC_CPU_TIME),
        OTF2_TYPE_UINT64);
}

void pz_write_global_definitions(OTF2_GlobalDefWriter *w, const struct pz_run_info *run)
{
    struct strings s = { w, 0 };

    write_count_lists(&s, run);

    OTF2_GlobalDefWriter_WriteClockProperties(w, 1000000000u, run->begin,
                                              run->end - run->begin, run->realtime_begin);
    OTF2_GlobalDefWriter_WriteParadigm(w, OTF2_PARADIGM_MPI, string(&s, "MPI"),
                                       OTF2_PARADIGM_CLASS_PROCESS);
    write_system_tree(&s, run);
    write_locations(&s, run);
    write_regions(&s);
    write_intervals(&s, run);
    write_sites(&s, run);
    write_any_source(&s);
    write_cpu_time(&s, run);
    write_comms(&s, run);
    write_topologies(&s, run);
    write_rma_groups(&s, run);
    pz_write_io_definitions(w, &s.next, run);
    pz_write_rma_definitions(w, &s.next, run);
}
