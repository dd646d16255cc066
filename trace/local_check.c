/* Checks of a location's local definitions (local_check.h). */
#include <math.h>
#include <stdio.h>

#include "local_check.h"

struct bound {
    struct pz_local_check *check;
    const char *what;
    uint64_t n;
};

/* The first id mapped out of bounds makes the problem. */
static void within(uint64_t local, uint64_t global, void *data)
{
    struct bound *b = data;

    if (global < b->n || b->check->problem[0])
        return;
    snprintf(b->check->problem, sizeof(b->check->problem),
             "damaged local definitions: %s %llu maps to %llu, beyond the %llu the trace "
             "defines", b->what, (unsigned long long)local, (unsigned long long)global,
             (unsigned long long)b->n);
}

static OTF2_CallbackCode on_mapping(void *data, OTF2_MappingType type, const OTF2_IdMap *map)
{
    struct pz_local_check *c = data;
    struct bound b = { c, NULL, 0 };

    switch (type) {
    case OTF2_MAPPING_COMM:
        b = (struct bound){ c, "communicator", c->defs->ncomms };
        break;
    case OTF2_MAPPING_STRING:
        b = (struct bound){ c, "string", c->defs->nstrings };
        break;
    case OTF2_MAPPING_REGION:
        b = (struct bound){ c, "region", c->defs->nregions };
        break;
    case OTF2_MAPPING_SOURCE_CODE_LOCATION:
        b = (struct bound){ c, "call site", c->defs->nsites };
        break;
    default:
        /* another tool's (Score-P maps attributes, groups, metrics ...): not checked */
        if (type < OTF2_MAPPING_MAX)
            return OTF2_CALLBACK_SUCCESS;
        snprintf(c->problem, sizeof(c->problem),
                 "damaged local definitions: a mapping table of unknown type %u", type);
        return OTF2_CALLBACK_INTERRUPT;
    }
    if (OTF2_IdMap_Traverse(map, within, &b) != OTF2_SUCCESS && !c->problem[0])
        snprintf(c->problem, sizeof(c->problem),
                 "damaged local definitions: an unreadable %s mapping table", b.what);
    return c->problem[0] ? OTF2_CALLBACK_INTERRUPT : OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_clock_offset(void *data, OTF2_TimeStamp time, int64_t offset,
                                         double deviation)
{
    struct pz_local_check *c = data;

    (void)time, (void)offset;
    if (isfinite(deviation) && deviation >= 0)
        return OTF2_CALLBACK_SUCCESS;
    snprintf(c->problem, sizeof(c->problem),
             "damaged local definitions: a clock offset of deviation %g", deviation);
    return OTF2_CALLBACK_INTERRUPT;
}

void pz_local_check_register(OTF2_Reader *otf, OTF2_DefReader *dr, struct pz_local_check *data)
{
    OTF2_DefReaderCallbacks *cb = OTF2_DefReaderCallbacks_New();

    if (!cb)
        return;
    OTF2_DefReaderCallbacks_SetMappingTableCallback(cb, on_mapping);
    OTF2_DefReaderCallbacks_SetClockOffsetCallback(cb, on_clock_offset);
    OTF2_Reader_RegisterDefCallbacks(otf, dr, cb, data);
    OTF2_DefReaderCallbacks_Delete(cb);
}
