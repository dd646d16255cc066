/* What a trace says of its recording (defs.h, struct pz_recording): the nodes and their
 * processes from the system tree, and the recorder's archive properties. */
#define _XOPEN_SOURCE 700
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "defs_int.h"
#include "names.h"

static OTF2_CallbackCode on_location_group(void *ud, OTF2_LocationGroupRef self,
                                           OTF2_StringRef name, OTF2_LocationGroupType type,
                                           OTF2_SystemTreeNodeRef parent,
                                           OTF2_LocationGroupRef creator)
{
    struct pz_defs *d = ud;

    (void)name, (void)type, (void)creator;
    if (pz_defs_reserve(d, (void **)&d->group_node, &d->ngroup_nodes, self,
                        sizeof(*d->group_node)) != 0)
        return OTF2_CALLBACK_INTERRUPT;
    d->group_node[self] = parent == OTF2_UNDEFINED_SYSTEM_TREE_NODE ? 0 : (uint64_t)parent + 1;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_system_tree_node(void *ud, OTF2_SystemTreeNodeRef self,
                                             OTF2_StringRef name, OTF2_StringRef class_name,
                                             OTF2_SystemTreeNodeRef parent)
{
    struct pz_defs *d = ud;

    (void)class_name, (void)parent;
    if (pz_defs_reserve(d, (void **)&d->node_names, &d->nnode_names, self,
                        sizeof(*d->node_names)) != 0)
        return OTF2_CALLBACK_INTERRUPT;
    d->node_names[self] = name;
    return OTF2_CALLBACK_SUCCESS;
}

void pz_defs_recording_callbacks(OTF2_GlobalDefReaderCallbacks *cb)
{
    OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(cb, on_location_group);
    OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(cb, on_system_tree_node);
}

/* The archive's property name, or NULL: OTF2 reports a missing one as an error, so
 * only the names it lists are asked for. */
static char *property(OTF2_Reader *otf, char **names, uint32_t n, const char *name)
{
    char *value = NULL, *copy;

    for (uint32_t i = 0; i < n; i++) {
        if (strcmp(names[i], name) != 0)
            continue;
        if (OTF2_Reader_GetProperty(otf, name, &value) != OTF2_SUCCESS)
            return NULL;
        copy = strdup(value);
        free(value);
        return copy;
    }
    return NULL;
}

/* The node of slot k (system tree node id + 1) in r, added if new; NULL out of memory. */
static struct pz_recorded_node *node_of(struct pz_recording *r, uint64_t *ids, uint64_t k)
{
    struct pz_recorded_node *grown;
    int i = 0;

    while (i < r->nnodes && ids[i] != k)
        i++;
    if (i < r->nnodes)
        return &r->nodes[i];
    if (!(grown = realloc(r->nodes, (size_t)(r->nnodes + 1) * sizeof(*grown))))
        return NULL;
    r->nodes = grown;
    ids[r->nnodes] = k;
    r->nodes[r->nnodes] = (struct pz_recorded_node){ NULL, 0, 0 };
    return &r->nodes[r->nnodes++];
}

/* The nodes of the processes (their location groups' parents), in the order of their
 * ids; ids[i] gets node i's system tree id + 1. */
static int count_nodes(struct pz_defs *d, uint64_t *ids)
{
    for (uint32_t i = 0; i < d->nlocations; i++) {
        const struct pz_location_def *l = &d->locations[i];
        struct pz_recorded_node *node;
        uint64_t k;

        if (l->thread < 0 || d->first_thread[d->thread_rank[l->thread]] != l->thread)
            continue;
        k = l->group < d->ngroup_nodes ? d->group_node[l->group] : 0;
        if (!k)
            continue;
        if (!(node = node_of(&d->recording, ids, k)))
            return -1;
        node->processes++;
    }
    return 0;
}

/* The marker warnings' properties, one a line; NULL if none (or out of memory). */
static char *marker_warnings(OTF2_Reader *otf, char **names, uint32_t n)
{
    char name[64], *all = NULL, *one;
    size_t len = 0;

    for (unsigned i = 1;; i++) {
        size_t more;
        char *grown;

        snprintf(name, sizeof(name), PZ_MARKER_WARNING_PROPERTY, i);
        if (!(one = property(otf, names, n, name)))
            break;
        more = strlen(one);
        if (!(grown = realloc(all, len + more + 2))) {
            free(one);
            break;
        }
        all = grown;
        memcpy(all + len, one, more);
        len += more;
        all[len++] = '\n';
        all[len] = '\0';
        free(one);
    }
    return all;
}

/* "4,4,2": the cores of system tree nodes 1, 2, 3 (node 0 is the machine). */
static void read_cores(struct pz_recording *r, const uint64_t *ids, const char *list)
{
    for (int i = 0; i < r->nnodes; i++) {
        const char *s = list;

        for (uint64_t k = 1; s && k + 1 < ids[i]; k++)
            if ((s = strchr(s, ',')))
                s++;
        r->nodes[i].cores = s ? atoi(s) : 0;
    }
}

int pz_defs_read_recording(struct pz_defs *d, OTF2_Reader *otf)
{
    struct pz_recording *r = &d->recording;
    uint64_t *ids = malloc(((size_t)d->nprocs + 1) * sizeof(*ids));
    char **names = NULL, *cores;
    uint32_t n = 0;

    if (!ids || count_nodes(d, ids) != 0) {
        free(ids);
        return -1;
    }
    for (int i = 0; i < r->nnodes; i++) {
        uint64_t node = ids[i] - 1;
        const char *name = NULL;

        if (node < d->nnode_names)
            name = pz_defs_string(d, d->node_names[node]);
        if (!(r->nodes[i].name = strdup(name ? name : "?"))) {
            free(ids);
            return -1;
        }
    }
    r->cpu_times = d->cpu != OTF2_UNDEFINED_ATTRIBUTE;
    if (OTF2_Reader_GetPropertyNames(otf, &n, &names) == OTF2_SUCCESS) {
        r->program = property(otf, names, n, PZ_PROGRAM_PROPERTY);
        r->date = property(otf, names, n, PZ_DATE_PROPERTY);
        r->mpi_library = property(otf, names, n, PZ_MPI_LIBRARY_PROPERTY);
        r->marker_warnings = marker_warnings(otf, names, n);
        if ((cores = property(otf, names, n, PZ_NODE_CORES_PROPERTY)))
            read_cores(r, ids, cores);
        free(cores);
        free(names);
    }
    free(ids);
    return 0;
}

int pz_recording_oversubscribed(const struct pz_recording *r)
{
    for (int i = 0; i < r->nnodes; i++)
        if (r->nodes[i].cores > 0 && r->nodes[i].processes > r->nodes[i].cores)
            return 1;
    return 0;
}

int pz_recording_caveat(const struct pz_recording *r, char *line, size_t len)
{
    const struct pz_recorded_node *worst = NULL;

    for (int i = 0; i < r->nnodes; i++) {
        const struct pz_recorded_node *n = &r->nodes[i];

        if (n->cores > 0 && n->processes > n->cores &&
            (!worst || (double)n->processes / n->cores >
                           (double)worst->processes / worst->cores))
            worst = n;
    }
    if (!worst)
        return 0;
    snprintf(line, len, "the run was oversubscribed: node %s ran %d processes on %d cores, so "
             "they waited for a core and computations took up to %.3g times longer by the "
             "wall clock than on cores of their own", worst->name, worst->processes,
             worst->cores, (double)worst->processes / worst->cores);
    return 1;
}

void pz_recording_release(struct pz_recording *r)
{
    for (int i = 0; i < r->nnodes; i++)
        free(r->nodes[i].name);
    free(r->nodes);
    free(r->program);
    free(r->date);
    free(r->mpi_library);
    free(r->marker_warnings);
    memset(r, 0, sizeof(*r));
}
