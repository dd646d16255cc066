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

#include "trace_defs.h"
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

/* Reads the global definitions of the archive at anchor through cb. */
static int read_definitions(const char *anchor, OTF2_GlobalDefReaderCallbacks *cb,
                            void *data)
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
        rc = read_definitions(anchor, cb, &s);
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

/* The clock, paradigms, strings and attributes. */

static OTF2_CallbackCode copy_clock(void *data, uint64_t resolution, uint64_t offset,
                                    uint64_t length, uint64_t realtime)
{
    struct copy *c = data;

    (void)length;
    return wrote(OTF2_GlobalDefWriter_WriteClockProperties(
        c->w, resolution, offset, c->end > offset ? c->end - offset : 0, realtime));
}

static OTF2_CallbackCode copy_paradigm(void *data, OTF2_Paradigm paradigm,
                                       OTF2_StringRef name, OTF2_ParadigmClass class)
{
    struct copy *c = data;

    return wrote(OTF2_GlobalDefWriter_WriteParadigm(c->w, paradigm, name, class));
}

static OTF2_CallbackCode copy_paradigm_property(void *data, OTF2_Paradigm paradigm,
                                                OTF2_ParadigmProperty property,
                                                OTF2_Type type, OTF2_AttributeValue value)
{
    struct copy *c = data;

    return wrote(
        OTF2_GlobalDefWriter_WriteParadigmProperty(c->w, paradigm, property, type, value));
}

static OTF2_CallbackCode copy_string(void *data, OTF2_StringRef self, const char *string)
{
    struct copy *c = data;

    return wrote(OTF2_GlobalDefWriter_WriteString(c->w, self, string));
}

static OTF2_CallbackCode copy_attribute(void *data, OTF2_AttributeRef self,
                                        OTF2_StringRef name, OTF2_StringRef description,
                                        OTF2_Type type)
{
    struct copy *c = data;

    return wrote(OTF2_GlobalDefWriter_WriteAttribute(c->w, self, name, description, type));
}

static void set_basics(OTF2_GlobalDefReaderCallbacks *cb)
{
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, copy_clock);
    OTF2_GlobalDefReaderCallbacks_SetParadigmCallback(cb, copy_paradigm);
    OTF2_GlobalDefReaderCallbacks_SetParadigmPropertyCallback(cb, copy_paradigm_property);
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, copy_string);
    OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(cb, copy_attribute);
}

/* The system tree, processes and threads. */

static OTF2_CallbackCode copy_node(void *data, OTF2_SystemTreeNodeRef self,
                                   OTF2_StringRef name, OTF2_StringRef class_name,
                                   OTF2_SystemTreeNodeRef parent)
{
    struct copy *c = data;

    return wrote(OTF2_GlobalDefWriter_WriteSystemTreeNode(c->w, self, name, class_name,
                                                          parent));
}

static OTF2_CallbackCode copy_node_property(void *data, OTF2_SystemTreeNodeRef node,
                                            OTF2_StringRef name, OTF2_Type type,
                                            OTF2_AttributeValue value)
{
    struct copy *c = data;

    return wrote(
        OTF2_GlobalDefWriter_WriteSystemTreeNodeProperty(c->w, node, name, type, value));
}

static OTF2_CallbackCode copy_node_domain(void *data, OTF2_SystemTreeNodeRef node,
                                          OTF2_SystemTreeDomain domain)
{
    struct copy *c = data;

    return wrote(OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(c->w, node, domain));
}

static OTF2_CallbackCode copy_location_group(void *data, OTF2_LocationGroupRef self,
                                             OTF2_StringRef name, OTF2_LocationGroupType type,
                                             OTF2_SystemTreeNodeRef node,
                                             OTF2_LocationGroupRef creator)
{
    struct copy *c = data;

    return wrote(
        OTF2_GlobalDefWriter_WriteLocationGroup(c->w, self, name, type, node, creator));
}

static OTF2_CallbackCode copy_location_group_property(void *data,
                                                      OTF2_LocationGroupRef group,
                                                      OTF2_StringRef name, OTF2_Type type,
                                                      OTF2_AttributeValue value)
{
    struct copy *c = data;

    return wrote(
        OTF2_GlobalDefWriter_WriteLocationGroupProperty(c->w, group, name, type, value));
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

static void set_system(OTF2_GlobalDefReaderCallbacks *cb)
{
    OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(cb, copy_node);
    OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodePropertyCallback(cb, copy_node_property);
    OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeDomainCallback(cb, copy_node_domain);
    OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(cb, copy_location_group);
    OTF2_GlobalDefReaderCallbacks_SetLocationGroupPropertyCallback(
        cb, copy_location_group_property);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, copy_location);
    OTF2_GlobalDefReaderCallbacks_SetLocationPropertyCallback(cb, copy_location_property);
}

/* Regions, source code locations, calling contexts, parameters. */

static OTF2_CallbackCode copy_region(void *data, OTF2_RegionRef self, OTF2_StringRef name,
                                     OTF2_StringRef canonical, OTF2_StringRef description,
                                     OTF2_RegionRole role, OTF2_Paradigm paradigm,
                                     OTF2_RegionFlag flags, OTF2_StringRef file,
                                     uint32_t begin, uint32_t end)
{
    struct copy *c = data;

    return wrote(OTF2_GlobalDefWriter_WriteRegion(c->w, self, name, canonical, description,
                                                  role, paradigm, flags, file, begin, end));
}

static OTF2_CallbackCode copy_site(void *data, OTF2_SourceCodeLocationRef self,
                                   OTF2_StringRef file, uint32_t line)
{
    struct copy *c = data;

    return wrote(OTF2_GlobalDefWriter_WriteSourceCodeLocation(c->w, self, file, line));
}

static OTF2_CallbackCode copy_context(void *data, OTF2_CallingContextRef self,
                                      OTF2_RegionRef region, OTF2_SourceCodeLocationRef site,
                                      OTF2_CallingContextRef parent)
{
    struct copy *c = data;

    return wrote(OTF2_GlobalDefWriter_WriteCallingContext(c->w, self, region, site, parent));
}

static OTF2_CallbackCode copy_context_property(void *data, OTF2_CallingContextRef context,
                                               OTF2_StringRef name, OTF2_Type type,
                                               OTF2_AttributeValue value)
{
    struct copy *c = data;

    return wrote(
        OTF2_GlobalDefWriter_WriteCallingContextProperty(c->w, context, name, type, value));
}

static OTF2_CallbackCode copy_interrupt_generator(void *data, OTF2_InterruptGeneratorRef self,
                                                  OTF2_StringRef name,
                                                  OTF2_InterruptGeneratorMode mode,
                                                  OTF2_Base base, int64_t exponent,
                                                  uint64_t period)
{
    struct copy *c = data;

    return wrote(OTF2_GlobalDefWriter_WriteInterruptGenerator(c->w, self, name, mode, base,
                                                              exponent, period));
}

static OTF2_CallbackCode copy_parameter(void *data, OTF2_ParameterRef self,
                                        OTF2_StringRef name, OTF2_ParameterType type)
{
    struct copy *c = data;

    return wrote(OTF2_GlobalDefWriter_WriteParameter(c->w, self, name, type));
}

static void set_code(OTF2_GlobalDefReaderCallbacks *cb)
{
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, copy_region);
    OTF2_GlobalDefReaderCallbacks_SetSourceCodeLocationCallback(cb, copy_site);
    OTF2_GlobalDefReaderCallbacks_SetCallingContextCallback(cb, copy_context);
    OTF2_GlobalDefReaderCallbacks_SetCallingContextPropertyCallback(cb,
                                                                    copy_context_property);
    OTF2_GlobalDefReaderCallbacks_SetInterruptGeneratorCallback(cb, copy_interrupt_generator);
    OTF2_GlobalDefReaderCallbacks_SetParameterCallback(cb, copy_parameter);
}

/* Groups, communicators, windows, topologies. */

static OTF2_CallbackCode copy_group(void *data, OTF2_GroupRef self, OTF2_StringRef name,
                                    OTF2_GroupType type, OTF2_Paradigm paradigm,
                                    OTF2_GroupFlag flags, uint32_t n, const uint64_t *members)
{
    struct copy *c = data;

    return wrote(OTF2_GlobalDefWriter_WriteGroup(c->w, self, name, type, paradigm, flags, n,
                                                 members));
}

static OTF2_CallbackCode copy_comm(void *data, OTF2_CommRef self, OTF2_StringRef name,
                                   OTF2_GroupRef group, OTF2_CommRef parent,
                                   OTF2_CommFlag flags)
{
    struct copy *c = data;

    return wrote(OTF2_GlobalDefWriter_WriteComm(c->w, self, name, group, parent, flags));
}

static OTF2_CallbackCode copy_intercomm(void *data, OTF2_CommRef self, OTF2_StringRef name,
                                        OTF2_GroupRef a, OTF2_GroupRef b,
                                        OTF2_CommRef common, OTF2_CommFlag flags)
{
    struct copy *c = data;

    return wrote(OTF2_GlobalDefWriter_WriteInterComm(c->w, self, name, a, b, common, flags));
}

static OTF2_CallbackCode copy_window(void *data, OTF2_RmaWinRef self, OTF2_StringRef name,
                                     OTF2_CommRef comm, OTF2_RmaWinFlag flags)
{
    struct copy *c = data;

    return wrote(OTF2_GlobalDefWriter_WriteRmaWin(c->w, self, name, comm, flags));
}

static OTF2_CallbackCode copy_cart_dimension(void *data, OTF2_CartDimensionRef self,
                                             OTF2_StringRef name, uint32_t size,
                                             OTF2_CartPeriodicity periodicity)
{
    struct copy *c = data;

    return wrote(OTF2_GlobalDefWriter_WriteCartDimension(c->w, self, name, size, periodicity));
}

static OTF2_CallbackCode copy_cart_topology(void *data, OTF2_CartTopologyRef self,
                                            OTF2_StringRef name, OTF2_CommRef comm,
                                            uint8_t ndims,
                                            const OTF2_CartDimensionRef *dimensions)
{
    struct copy *c = data;

    return wrote(
        OTF2_GlobalDefWriter_WriteCartTopology(c->w, self, name, comm, ndims, dimensions));
}

static OTF2_CallbackCode copy_cart_coordinate(void *data, OTF2_CartTopologyRef topology,
                                              uint32_t rank, uint8_t ndims,
                                              const uint32_t *coordinates)
{
    struct copy *c = data;

    return wrote(OTF2_GlobalDefWriter_WriteCartCoordinate(c->w, topology, rank, ndims,
                                                          coordinates));
}

static void set_communication(OTF2_GlobalDefReaderCallbacks *cb)
{
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, copy_group);
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, copy_comm);
    OTF2_GlobalDefReaderCallbacks_SetInterCommCallback(cb, copy_intercomm);
    OTF2_GlobalDefReaderCallbacks_SetRmaWinCallback(cb, copy_window);
    OTF2_GlobalDefReaderCallbacks_SetCartDimensionCallback(cb, copy_cart_dimension);
    OTF2_GlobalDefReaderCallbacks_SetCartTopologyCallback(cb, copy_cart_topology);
    OTF2_GlobalDefReaderCallbacks_SetCartCoordinateCallback(cb, copy_cart_coordinate);
}

/* Metrics: their definitions, without the recorders that are not written. */

static OTF2_CallbackCode copy_metric_member(void *data, OTF2_MetricMemberRef self,
                                            OTF2_StringRef name, OTF2_StringRef description,
                                            OTF2_MetricType type, OTF2_MetricMode mode,
                                            OTF2_Type value_type, OTF2_Base base,
                                            int64_t exponent, OTF2_StringRef unit)
{
    struct copy *c = data;

    return wrote(OTF2_GlobalDefWriter_WriteMetricMember(c->w, self, name, description, type,
                                                        mode, value_type, base, exponent,
                                                        unit));
}

static OTF2_CallbackCode copy_metric_class(void *data, OTF2_MetricRef self, uint8_t n,
                                           const OTF2_MetricMemberRef *members,
                                           OTF2_MetricOccurrence occurrence,
                                           OTF2_RecorderKind recorder)
{
    struct copy *c = data;

    return wrote(OTF2_GlobalDefWriter_WriteMetricClass(c->w, self, n, members, occurrence,
                                                       recorder));
}

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

static void set_metrics(OTF2_GlobalDefReaderCallbacks *cb)
{
    OTF2_GlobalDefReaderCallbacks_SetMetricMemberCallback(cb, copy_metric_member);
    OTF2_GlobalDefReaderCallbacks_SetMetricClassCallback(cb, copy_metric_class);
    OTF2_GlobalDefReaderCallbacks_SetMetricInstanceCallback(cb, copy_metric_instance);
    OTF2_GlobalDefReaderCallbacks_SetMetricClassRecorderCallback(cb, copy_metric_recorder);
}

/* I/O paradigms, files and handles. */

static OTF2_CallbackCode copy_io_paradigm(void *data, OTF2_IoParadigmRef self,
                                          OTF2_StringRef identification, OTF2_StringRef name,
                                          OTF2_IoParadigmClass class,
                                          OTF2_IoParadigmFlag flags, uint8_t n,
                                          const OTF2_IoParadigmProperty *properties,
                                          const OTF2_Type *types,
                                          const OTF2_AttributeValue *values)
{
    struct copy *c = data;

    return wrote(OTF2_GlobalDefWriter_WriteIoParadigm(c->w, self, identification, name, class,
                                                      flags, n, properties, types, values));
}

static OTF2_CallbackCode copy_io_file(void *data, OTF2_IoFileRef self, OTF2_StringRef name,
                                      OTF2_SystemTreeNodeRef scope)
{
    struct copy *c = data;

    return wrote(OTF2_GlobalDefWriter_WriteIoRegularFile(c->w, self, name, scope));
}

static OTF2_CallbackCode copy_io_directory(void *data, OTF2_IoFileRef self,
                                           OTF2_StringRef name, OTF2_SystemTreeNodeRef scope)
{
    struct copy *c = data;

    return wrote(OTF2_GlobalDefWriter_WriteIoDirectory(c->w, self, name, scope));
}

static OTF2_CallbackCode copy_io_file_property(void *data, OTF2_IoFileRef file,
                                               OTF2_StringRef name, OTF2_Type type,
                                               OTF2_AttributeValue value)
{
    struct copy *c = data;

    return wrote(OTF2_GlobalDefWriter_WriteIoFileProperty(c->w, file, name, type, value));
}

static OTF2_CallbackCode copy_io_handle(void *data, OTF2_IoHandleRef self,
                                        OTF2_StringRef name, OTF2_IoFileRef file,
                                        OTF2_IoParadigmRef paradigm, OTF2_IoHandleFlag flags,
                                        OTF2_CommRef comm, OTF2_IoHandleRef parent)
{
    struct copy *c = data;

    return wrote(OTF2_GlobalDefWriter_WriteIoHandle(c->w, self, name, file, paradigm, flags,
                                                    comm, parent));
}

static OTF2_CallbackCode copy_io_handle_state(void *data, OTF2_IoHandleRef handle,
                                              OTF2_IoAccessMode mode,
                                              OTF2_IoStatusFlag status)
{
    struct copy *c = data;

    return wrote(
        OTF2_GlobalDefWriter_WriteIoPreCreatedHandleState(c->w, handle, mode, status));
}

static void set_io(OTF2_GlobalDefReaderCallbacks *cb)
{
    OTF2_GlobalDefReaderCallbacks_SetIoParadigmCallback(cb, copy_io_paradigm);
    OTF2_GlobalDefReaderCallbacks_SetIoRegularFileCallback(cb, copy_io_file);
    OTF2_GlobalDefReaderCallbacks_SetIoDirectoryCallback(cb, copy_io_directory);
    OTF2_GlobalDefReaderCallbacks_SetIoFilePropertyCallback(cb, copy_io_file_property);
    OTF2_GlobalDefReaderCallbacks_SetIoHandleCallback(cb, copy_io_handle);
    OTF2_GlobalDefReaderCallbacks_SetIoPreCreatedHandleStateCallback(cb,
                                                                     copy_io_handle_state);
}

int pz_out_defs_copy(const char *anchor, OTF2_GlobalDefWriter *w,
                     const struct pz_out_location *locs, size_t n, uint64_t end, char *err,
                     size_t errlen)
{
    struct copy c = { w, locs, n, end };
    OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
    int rc = -1;

    if (cb) {
        set_basics(cb);
        set_system(cb);
        set_code(cb);
        set_communication(cb);
        set_metrics(cb);
        set_io(cb);
        rc = read_definitions(anchor, cb, &c);
        OTF2_GlobalDefReaderCallbacks_Delete(cb);
    }
    if (rc != 0)
        pz_out_fail(err, errlen, anchor, "cannot copy the definitions");
    return rc;
}
