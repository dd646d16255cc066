/* The trace reader and locations the benchmarks share (locations.h). */
#include <stdlib.h>

#include "locations.h"

static OTF2_CallbackCode def_location(void *ud, OTF2_LocationRef self, OTF2_StringRef name,
                                      OTF2_LocationType type, uint64_t events,
                                      OTF2_LocationGroupRef group)
{
    struct locations *l = ud;

    (void)name, (void)type, (void)group;
    if (l->n == l->cap) {
        uint64_t cap = l->cap ? 2 * l->cap : 64;
        OTF2_LocationRef *grown = realloc(l->id, cap * sizeof(*grown));

        if (!grown)
            return OTF2_CALLBACK_INTERRUPT;
        l->id = grown;
        l->cap = cap;
    }
    l->id[l->n++] = self;
    l->events += events;
    return OTF2_CALLBACK_SUCCESS;
}

int read_locations(OTF2_Reader *otf, struct locations *l)
{
    OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(otf);
    OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
    uint64_t n;
    int ok;

    if (!gdr || !cb) {
        OTF2_GlobalDefReaderCallbacks_Delete(cb);
        return -1;
    }
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, def_location);
    OTF2_Reader_RegisterGlobalDefCallbacks(otf, gdr, cb, l);
    ok = OTF2_Reader_ReadAllGlobalDefinitions(otf, gdr, &n) == OTF2_SUCCESS;
    OTF2_Reader_CloseGlobalDefReader(otf, gdr);
    OTF2_GlobalDefReaderCallbacks_Delete(cb);
    return ok && l->n > 0 ? 0 : -1;
}

OTF2_Reader *open_trace(const char *anchor)
{
    OTF2_Reader *otf = OTF2_Reader_Open(anchor);

    if (otf && OTF2_Reader_SetSerialCollectiveCallbacks(otf) != OTF2_SUCCESS) {
        OTF2_Reader_Close(otf);
        return NULL;
    }
    return otf;
}

uint64_t announced_events(const char *anchor)
{
    struct locations l = { 0 };
    OTF2_Reader *otf = open_trace(anchor);
    uint64_t events = 0;

    if (otf && read_locations(otf, &l) == 0)
        events = l.events;
    if (otf)
        OTF2_Reader_Close(otf);
    free(l.id);
    return events;
}
