/* The recorded archive's global definitions in a predicted archive (trace_defs.h).
 *
 * The predicted events carry the recorded archive's global references (regions,
 * communicators, strings, attributes), so its definitions are copied with every
 * reference unchanged and no mapping table.  Each callback writes back what it was
 * given; only the clock properties (the predicted span) and the locations (those
 * written, with their counts) change.  Everything OTF2 defines globally is copied but
 * Callsite, Callpath and CallpathParameter, which belong to profiles, not traces; clock
 * offsets are local definitions, and the predicted times need none. */
#include <stdlib.h>
#include <string.h>

#include "trace_complaints.h"
#include "trace_defs.h"
#include "trace_defs_copied.h"
#include "names.h"

/* The names and types under which the recorder defines its attributes. */
static const struct {
    const char *name;
    OTF2_Type type;
} wanted[PZ_OUT_NATTRIBUTES] = {
    [PZ_OUT_CALLSITE] = { PZ_NAME_CALLSITE, OTF2_TYPE_SOURCE_CODE_LOCATION },
    [PZ_OUT_SEND_BYTES] = { PZ_NAME_SEND_BYTES, OTF2_TYPE_STRING },
    [PZ_OUT_RECV_BYTES] = { PZ_NAME_RECV_BYTES, OTF2_TYPE_STRING },
    [PZ_OUT_CPU_TIME] = { PZ_NAME_CPU_TIME, OTF2_TYPE_UINT64 },
};

static int by_id(const void *key, const void *element)
{
    uint64_t id = *(const uint64_t *)key;
    const struct pz_out_location *l = element;

    return (id > l->id) - (id < l->id);
}

const struct pz_out_location *pz_out_location_find(const struct pz_out_location *locs,
                                                   size_t n, uint64_t id)
{
    return n ? bsearch(&id, locs, n, sizeof(*locs), by_id) : NULL;
}

int pz_out_defs_read(const char *anchor, OTF2_GlobalDefReaderCallbacks *cb, void *data)
{
    OTF2_Reader *r = OTF2_Reader_Open(anchor);
    OTF2_GlobalDefReader *gdr = NULL;
    uint64_t n;
    int ok = r && OTF2_Reader_SetSerialCollectiveCallbacks(r) == OTF2_SUCCESS &&
             (gdr = OTF2_Reader_GetGlobalDefReader(r)) &&
             OTF2_Reader_RegisterGlobalDefCallbacks(r, gdr, cb, data) == OTF2_SUCCESS &&
             OTF2_Reader_ReadAllGlobalDefinitions(r, gdr, &n) == OTF2_SUCCESS;

    if (r)
        OTF2_Reader_Close(r);
    return ok ? 0 : -1;
}

/* The scan.  Definitions refer to earlier ones, as the recorder and Score-P write
 * them, so an attribute's name is known when the attribute comes. */
struct scan {
    struct pz_out_location *locs;
    size_t n;
    OTF2_StringRef names[PZ_OUT_NATTRIBUTES];
    OTF2_AttributeRef *attributes;
};

static OTF2_CallbackCode scan_string(void *data, OTF2_StringRef self, const char *string)
{
    struct scan *s = data;

    for (int i = 0; i < PZ_OUT_NATTRIBUTES; i++)
        if (!strcmp(string, wanted[i].name))
            s->names[i] = self;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode scan_attribute(void *data, OTF2_AttributeRef self,
                                        OTF2_StringRef name, OTF2_StringRef description,
                                        OTF2_Type type)
{
    struct scan *s = data;

    (void)description;
    for (int i = 0; i < PZ_OUT_NATTRIBUTES; i++)
        if (name == s->names[i] && type == wanted[i].type)
            s->attributes[i] = self;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode scan_location(void *data, OTF2_LocationRef self,
                                       OTF2_StringRef name, OTF2_LocationType type,
                                       uint64_t events, OTF2_LocationGroupRef group)
{
    struct scan *s = data;
    const struct pz_out_location *l = pz_out_location_find(s->locs, s->n, self);

    (void)name, (void)type, (void)events, (void)group;
    if (l)
        s->locs[l - s->locs].defined = 1;
    return OTF2_CALLBACK_SUCCESS;
}

int pz_out_defs_scan(const char *anchor, struct pz_out_location *locs, size_t n,
                     OTF2_AttributeRef attributes[PZ_OUT_NATTRIBUTES], char *err,
                     size_t errlen)
{
    struct scan s = { .locs = locs, .n = n, .attributes = attributes };
    OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
    int rc = -1;

    for (int i = 0; i < PZ_OUT_NATTRIBUTES; i++) {
        s.names[i] = OTF2_UNDEFINED_STRING;
        attributes[i] = OTF2_UNDEFINED_ATTRIBUTE;
    }
    if (cb) {
        OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, scan_string);
        OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(cb, scan_attribute);
        OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, scan_location);
        rc = pz_out_defs_read(anchor, cb, &s);
        OTF2_GlobalDefReaderCallbacks_Delete(cb);
    }
    if (rc != 0)
        pz_out_fail(err, errlen, anchor, "cannot read the definitions");
    return rc;
}

/* The copy. */
struct copy {
    OTF2_GlobalDefWriter *w;
    const struct pz_out_location *locs;
    size_t n;
    uint64_t end;
};

/* Every copying callback ends here: a failed write stops the reading. */
static OTF2_CallbackCode wrote(OTF2_ErrorCode rc)
{
    return rc == OTF2_SUCCESS ? OTF2_CALLBACK_SUCCESS : OTF2_CALLBACK_INTERRUPT;
}

static int written(const struct copy *c, OTF2_LocationRef location)
{
    return pz_out_location_find(c->locs, c->n, location) != NULL;
}

/* The definitions copied unchanged (trace_defs_copied.h). */

#define UNPARENTHESIZED(...) __VA_ARGS__
#define COPY_CALLBACK(kind, parameters, arguments)                                         \
    static OTF2_CallbackCode copy_##kind(void *data, UNPARENTHESIZED parameters)           \
    {                                                                                      \
        struct copy *c = data;                                                             \
                                                                                           \
        return wrote(OTF2_GlobalDefWriter_Write##kind(c->w, UNPARENTHESIZED arguments));   \
    }
PZ_OUT_COPIED_DEFS(COPY_CALLBACK)

static void set_copied(OTF2_GlobalDefReaderCallbacks *cb)
{
#define SET_CALLBACK(kind, parameters, arguments) \
    OTF2_GlobalDefReaderCallbacks_Set##kind##Callback(cb, copy_##kind);
    PZ_OUT_COPIED_DEFS(SET_CALLBACK)
#undef SET_CALLBACK
}

/* The clock properties: the predicted span. */
static OTF2_CallbackCode copy_clock(void *data, uint64_t resolution, uint64_t offset,
                                    uint64_t length, uint64_t realtime)
{
    struct copy *c = data;

    (void)length;
    return wrote(OTF2_GlobalDefWriter_WriteClockProperties(
        c->w, resolution, offset, c->end > offset ? c->end - offset : 0, realtime));
}

/* Only the locations written, with what was written on them. */
static OTF2_CallbackCode copy_location(void *data, OTF2_LocationRef self,
                                       OTF2_StringRef name, OTF2_LocationType type,
                                       uint64_t events, OTF2_LocationGroupRef group)
{
    struct copy *c = data;
    const struct pz_out_location *l = pz_out_location_find(c->locs, c->n, self);

    (void)events;
    if (!l)
        return OTF2_CALLBACK_SUCCESS;
    return wrote(OTF2_GlobalDefWriter_WriteLocation(c->w, self, name, type, l->events, group));
}

static OTF2_CallbackCode copy_location_property(void *data, OTF2_LocationRef location,
                                                OTF2_StringRef name, OTF2_Type type,
                                                OTF2_AttributeValue value)
{
    struct copy *c = data;

    if (!written(c, location))
        return OTF2_CALLBACK_SUCCESS;
    return wrote(
        OTF2_GlobalDefWriter_WriteLocationProperty(c->w, location, name, type, value));
}

/* Metrics: the recorders that are not written are left out. */
static OTF2_CallbackCode copy_metric_instance(void *data, OTF2_MetricRef self,
                                              OTF2_MetricRef class, OTF2_LocationRef recorder,
                                              OTF2_MetricScope scope_type, uint64_t scope)
{
    struct copy *c = data;

    if (!written(c, recorder) || (scope_type == OTF2_SCOPE_LOCATION && !written(c, scope)))
        return OTF2_CALLBACK_SUCCESS;
    return wrote(OTF2_GlobalDefWriter_WriteMetricInstance(c->w, self, class, recorder,
                                                          scope_type, scope));
}

static OTF2_CallbackCode copy_metric_recorder(void *data, OTF2_MetricRef metric,
                                              OTF2_LocationRef recorder)
{
    struct copy *c = data;

    if (!written(c, recorder))
        return OTF2_CALLBACK_SUCCESS;
    return wrote(OTF2_GlobalDefWriter_WriteMetricClassRecorder(c->w, metric, recorder));
}

static void set_changed(OTF2_GlobalDefReaderCallbacks *cb)
{
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, copy_clock);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, copy_location);
    OTF2_GlobalDefReaderCallbacks_SetLocationPropertyCallback(cb, copy_location_property);
    OTF2_GlobalDefReaderCallbacks_SetMetricInstanceCallback(cb, copy_metric_instance);
    OTF2_GlobalDefReaderCallbacks_SetMetricClassRecorderCallback(cb, copy_metric_recorder);
}

int pz_out_defs_copy(const char *anchor, OTF2_GlobalDefWriter *w,
                     const struct pz_out_location *locs, size_t n, uint64_t end, char *err,
                     size_t errlen)
{
    struct copy c = { w, locs, n, end };
    OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
    int rc = -1;

    if (cb) {
        set_copied(cb);
        set_changed(cb);
        rc = pz_out_defs_read(anchor, cb, &c);
        OTF2_GlobalDefReaderCallbacks_Delete(cb);
    }
    if (rc != 0)
        pz_out_fail(err, errlen, anchor, "cannot copy the definitions");
    return rc;
}
