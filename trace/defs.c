/* Reading the global definitions (defs.h): one callback per definition record, then
 * the regions named and classified once every string is known. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calls_gen.h"
#include "defs_int.h"
#include "grow.h"
#include "large_count.h"
#include "names.h"

void pz_defs_fail(struct pz_defs *d, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (d->error[0])
        return;
    n = snprintf(d->error, sizeof(d->error), "%s: ", d->path);
    va_start(ap, fmt);
    vsnprintf(d->error + n, sizeof(d->error) - (size_t)n, fmt, ap);
    va_end(ap);
}

/* An id beyond PZ_DEFS_MAX_ID is an error of the trace, not a reason to allocate
 * gigabytes. */
int pz_defs_reserve(struct pz_defs *d, void **v, uint32_t *n, uint32_t id, size_t size)
{
    if (id > PZ_DEFS_MAX_ID) {
        pz_defs_fail(d, "definition id %u out of range", id);
        return -1;
    }
    if (pz_grow(v, n, id, size) != 0) {
        pz_defs_fail(d, "out of memory");
        return -1;
    }
    return 0;
}

static OTF2_CallbackCode on_string(void *ud, OTF2_StringRef self, const char *s)
{
    struct pz_defs *d = ud;

    if (pz_defs_reserve(d, (void **)&d->strings, &d->nstrings, self, sizeof(*d->strings)) != 0)
        return OTF2_CALLBACK_INTERRUPT;
    free(d->strings[self]);
    if ((d->strings[self] = strdup(s)))
        return OTF2_CALLBACK_SUCCESS;
    pz_defs_fail(d, "out of memory");
    return OTF2_CALLBACK_INTERRUPT;
}

static OTF2_CallbackCode on_region(void *ud, OTF2_RegionRef self, OTF2_StringRef name,
                                   OTF2_StringRef canonical, OTF2_StringRef description,
                                   OTF2_RegionRole role, OTF2_Paradigm paradigm,
                                   OTF2_RegionFlag flags, OTF2_StringRef file, uint32_t begin,
                                   uint32_t end)
{
    struct pz_defs *d = ud;
    struct pz_region_info *g;

    (void)canonical, (void)role, (void)end;
    if (pz_defs_reserve(d, (void **)&d->regions, &d->nregions, self, sizeof(*d->regions)) != 0)
        return OTF2_CALLBACK_INTERRUPT;
    g = &d->regions[self];
    g->name_ref = name;
    g->file_ref = file;
    g->line = begin;
    g->description_ref = description;
    g->kind = paradigm == OTF2_PARADIGM_MPI ? PZ_REGION_MPI
              : (flags & OTF2_REGION_FLAG_PHASE) ? PZ_REGION_INTERVAL : PZ_REGION_OTHER;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_site(void *ud, OTF2_SourceCodeLocationRef self,
                                 OTF2_StringRef file, uint32_t line)
{
    struct pz_defs *d = ud;

    if (pz_defs_reserve(d, (void **)&d->sites, &d->nsites, self, sizeof(*d->sites)) != 0)
        return OTF2_CALLBACK_INTERRUPT;
    d->sites[self] = (struct pz_site_def){ file, line };
    return OTF2_CALLBACK_SUCCESS;
}

/* Locations are listed in the order of their definitions, numbered afterwards. */
static OTF2_CallbackCode on_location(void *ud, OTF2_LocationRef self, OTF2_StringRef name,
                                     OTF2_LocationType type, uint64_t events,
                                     OTF2_LocationGroupRef group)
{
    struct pz_defs *d = ud;

    (void)name;
    if (pz_grow((void **)&d->locations, &d->location_cap, d->nlocations,
                sizeof(*d->locations)) != 0) {
        pz_defs_fail(d, "out of memory");
        return OTF2_CALLBACK_INTERRUPT;
    }
    d->locations[d->nlocations++] = (struct pz_location_def){ self, group, type, -1, events };
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_clock(void *ud, uint64_t resolution, uint64_t offset,
                                  uint64_t length, uint64_t realtime)
{
    struct pz_defs *d = ud;

    (void)length, (void)realtime;
    d->resolution = resolution;
    d->offset = offset;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_group(void *ud, OTF2_GroupRef self, OTF2_StringRef name,
                                  OTF2_GroupType type, OTF2_Paradigm paradigm,
                                  OTF2_GroupFlag flags, uint32_t n, const uint64_t *members)
{
    struct pz_defs *d = ud;
    struct pz_group_def *g;

    (void)name, (void)flags;
    if (pz_defs_reserve(d, (void **)&d->groups, &d->ngroups, self, sizeof(*d->groups)) != 0)
        return OTF2_CALLBACK_INTERRUPT;
    g = &d->groups[self];
    free(g->members);
    g->type = type;
    g->paradigm = paradigm;
    g->n = n;
    if (!(g->members = malloc((n ? n : 1) * sizeof(uint64_t)))) {
        pz_defs_fail(d, "out of memory");
        return OTF2_CALLBACK_INTERRUPT;
    }
    memcpy(g->members, members, n * sizeof(uint64_t));
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_comm(void *ud, OTF2_CommRef self, OTF2_StringRef name,
                                 OTF2_GroupRef group, OTF2_CommRef parent, OTF2_CommFlag flags)
{
    struct pz_defs *d = ud;

    (void)name, (void)parent, (void)flags;
    if (pz_defs_reserve(d, (void **)&d->comms, &d->ncomms, self, sizeof(*d->comms)) != 0)
        return OTF2_CALLBACK_INTERRUPT;
    d->comms[self].group = group;
    d->comms[self].defined = 1;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_intercomm(void *ud, OTF2_CommRef self, OTF2_StringRef name,
                                      OTF2_GroupRef a, OTF2_GroupRef b, OTF2_CommRef common,
                                      OTF2_CommFlag flags)
{
    struct pz_defs *d = ud;

    (void)name, (void)common, (void)flags;
    if (pz_defs_reserve(d, (void **)&d->comms, &d->ncomms, self, sizeof(*d->comms)) != 0)
        return OTF2_CALLBACK_INTERRUPT;
    d->comms[self].group = a;
    d->comms[self].remote = b;
    d->comms[self].inter = 1;
    d->comms[self].defined = 1;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_window(void *ud, OTF2_RmaWinRef self, OTF2_StringRef name,
                                   OTF2_CommRef comm, OTF2_RmaWinFlag flags)
{
    struct pz_defs *d = ud;

    (void)name, (void)flags;
    if (pz_defs_reserve(d, (void **)&d->window_comms, &d->nwindows, self,
                        sizeof(*d->window_comms)) != 0)
        return OTF2_CALLBACK_INTERRUPT;
    d->window_comms[self] = comm + 1;
    return OTF2_CALLBACK_SUCCESS;
}

/* prognoz's attributes, by name and type (names.h); the name is a string defined
 * before. */
static OTF2_CallbackCode on_attribute(void *ud, OTF2_AttributeRef self, OTF2_StringRef name,
                                      OTF2_StringRef description, OTF2_Type type)
{
    struct pz_defs *d = ud;
    const char *s = pz_defs_string(d, name);

    (void)description;
    if (!s)
        return OTF2_CALLBACK_SUCCESS;
    if (type == OTF2_TYPE_SOURCE_CODE_LOCATION && !strcmp(s, PZ_NAME_CALLSITE))
        d->callsite = self;
    else if (type == OTF2_TYPE_STRING && !strcmp(s, PZ_NAME_SEND_BYTES))
        d->send_list = self;
    else if (type == OTF2_TYPE_STRING && !strcmp(s, PZ_NAME_RECV_BYTES))
        d->recv_list = self;
    else if (type == OTF2_TYPE_UINT64 && !strcmp(s, PZ_NAME_CPU_TIME))
        d->cpu = self;
    else if (type == OTF2_TYPE_UINT8 && !strcmp(s, PZ_NAME_ANY_SOURCE))
        d->any_source = self;
    return OTF2_CALLBACK_SUCCESS;
}

/* An interval's number from its name, "interval 2 at heat.c:57" (or "sequential
 * interval ..."), and whether it is sequential: its description says so
 * (docs/trace-format.md). */
static void name_interval(const struct pz_defs *d, struct pz_region_info *g)
{
    const char *name = pz_defs_string(d, g->name_ref);
    const char *description = pz_defs_string(d, g->description_ref);

    if (name && (name = strstr(name, "interval ")))
        sscanf(name, PZ_INTERVAL_ID_FORMAT, &g->interval);
    g->sequential = description && !strcmp(description, PZ_DESC_SEQUENTIAL);
}

/* Names once every string is known: the MPI functions among them by name. */
static void name_regions(struct pz_defs *d)
{
    for (uint32_t i = 0; i < d->nregions; i++) {
        struct pz_region_info *g = &d->regions[i];
        const char *name = pz_defs_string(d, g->name_ref);
        int form = g->kind == PZ_REGION_MPI ? pz_int_form_call(name) : -1;

        g->name = name ? name : "?";
        g->call = g->kind == PZ_REGION_MPI ? pz_call_named(name) : -1;
        g->synchronous = form == PZ_CALL_MPI_Ssend || form == PZ_CALL_MPI_Issend;
        g->buffered = form == PZ_CALL_MPI_Bsend || form == PZ_CALL_MPI_Ibsend;
        if (g->kind == PZ_REGION_INTERVAL)
            name_interval(d, g);
    }
}

static OTF2_GlobalDefReaderCallbacks *callbacks(void)
{
    OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();

    if (!cb)
        return NULL;
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, on_string);
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, on_region);
    OTF2_GlobalDefReaderCallbacks_SetSourceCodeLocationCallback(cb, on_site);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, on_location);
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, on_clock);
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, on_group);
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, on_comm);
    OTF2_GlobalDefReaderCallbacks_SetInterCommCallback(cb, on_intercomm);
    OTF2_GlobalDefReaderCallbacks_SetRmaWinCallback(cb, on_window);
    OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(cb, on_attribute);
    pz_defs_cart_callbacks(cb);
    pz_defs_recording_callbacks(cb);
    return cb;
}

int pz_defs_read(struct pz_defs *d, OTF2_Reader *otf, const char *path)
{
    OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(otf);
    OTF2_GlobalDefReaderCallbacks *cb = callbacks();
    uint64_t n;

    memset(d, 0, sizeof(*d));
    d->path = path;
    d->callsite = d->send_list = d->recv_list = d->cpu = d->any_source =
        OTF2_UNDEFINED_ATTRIBUTE;
    if (!gdr || !cb) {
        OTF2_GlobalDefReaderCallbacks_Delete(cb);
        pz_defs_fail(d, "cannot read the global definitions");
        return -1;
    }
    OTF2_Reader_RegisterGlobalDefCallbacks(otf, gdr, cb, d);
    if (OTF2_Reader_ReadAllGlobalDefinitions(otf, gdr, &n) != OTF2_SUCCESS)
        pz_defs_fail(d, "cannot read the global definitions");
    OTF2_GlobalDefReaderCallbacks_Delete(cb);
    OTF2_Reader_CloseGlobalDefReader(otf, gdr);
    if (d->error[0] || pz_defs_sort_carts(d) != 0)
        return -1;
    name_regions(d);
    if (!d->resolution) {
        pz_defs_fail(d, "the trace has no clock properties");
        return -1;
    }
    if (pz_defs_number(d) != 0 || pz_defs_resolve_comms(d) != 0 ||
        pz_defs_read_recording(d, otf) != 0) {
        pz_defs_fail(d, "out of memory");
        return -1;
    }
    if (d->nprocs == 0) {
        pz_defs_fail(d, "the trace has no locations");
        return -1;
    }
    return 0;
}

void pz_defs_release(struct pz_defs *d)
{
    for (uint32_t i = 0; i < d->nstrings; i++)
        free(d->strings[i]);
    free(d->strings);
    free(d->regions);
    free(d->sites);
    free(d->locations);
    free(d->location_slots);
    for (uint32_t i = 0; i < d->ngroups; i++)
        free(d->groups[i].members);
    free(d->groups);
    for (uint32_t i = 0; i < d->ncomms; i++)
        free(d->comms[i].procs);
    free(d->comms);
    free(d->window_comms);
    pz_defs_release_carts(d);
    free(d->thread_location);
    free(d->thread_rank);
    free(d->first_thread);
    free(d->group_node);
    free(d->node_names);
    pz_recording_release(&d->recording);
    memset(d, 0, sizeof(*d));
}

const char *pz_defs_string(const struct pz_defs *d, uint32_t ref)
{
    return ref < d->nstrings ? d->strings[ref] : NULL;
}

int pz_defs_add_strings(struct pz_defs *d, const char *const *texts, uint32_t n,
                        uint32_t *first)
{
    uint32_t next = d->nstrings;

    while (next > 0 && !d->strings[next - 1])
        next--;
    *first = next;
    for (uint32_t i = 0; i < n; i++) {
        if (pz_defs_reserve(d, (void **)&d->strings, &d->nstrings, next + i,
                            sizeof(*d->strings)) != 0 ||
            !(d->strings[next + i] = strdup(texts[i])))
            return -1;
    }
    return 0;
}
