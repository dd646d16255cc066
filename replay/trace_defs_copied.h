/* Internal to trace_defs.c: the kinds of OTF2 global definitions a predicted archive
 * copies from the recorded one unchanged, each named once.
 *
 * PZ_OUT_COPIED_DEFS(X) calls X(Kind, (PARAMETERS), (ARGUMENTS)) for each: Kind names
 * both OTF2_GlobalDefReaderCallbacks_Set<Kind>Callback and
 * OTF2_GlobalDefWriter_Write<Kind>; PARAMETERS are those of the reader's callback after
 * its user data, ARGUMENTS the same names, passed to the writer after the writer itself.  The kinds the copy changes or
 * filters (clock properties, locations and their properties, metric instances and class
 * recorders) are written by hand in trace_defs.c. */
#ifndef PZ_TRACE_DEFS_COPIED_H
#define PZ_TRACE_DEFS_COPIED_H

#include <otf2/otf2.h>

#define PZ_OUT_COPIED_DEFS(X)                                                               \
    /* paradigms, strings and attributes */                                                 \
    X(Paradigm, (OTF2_Paradigm paradigm, OTF2_StringRef name, OTF2_ParadigmClass class),    \
      (paradigm, name, class))                                                              \
    X(ParadigmProperty,                                                                     \
      (OTF2_Paradigm paradigm, OTF2_ParadigmProperty property, OTF2_Type type,              \
       OTF2_AttributeValue value),                                                          \
      (paradigm, property, type, value))                                                    \
    X(String, (OTF2_StringRef self, const char *string), (self, string))                    \
    X(Attribute,                                                                            \
      (OTF2_AttributeRef self, OTF2_StringRef name, OTF2_StringRef description,             \
       OTF2_Type type),                                                                     \
      (self, name, description, type))                                                      \
    /* the system tree and the processes */                                                 \
    X(SystemTreeNode,                                                                       \
      (OTF2_SystemTreeNodeRef self, OTF2_StringRef name, OTF2_StringRef class_name,         \
       OTF2_SystemTreeNodeRef parent),                                                      \
      (self, name, class_name, parent))                                                     \
    X(SystemTreeNodeProperty,                                                               \
      (OTF2_SystemTreeNodeRef node, OTF2_StringRef name, OTF2_Type type,                    \
       OTF2_AttributeValue value),                                                          \
      (node, name, type, value))                                                            \
    X(SystemTreeNodeDomain, (OTF2_SystemTreeNodeRef node, OTF2_SystemTreeDomain domain),    \
      (node, domain))                                                                       \
    X(LocationGroup,                                                                        \
      (OTF2_LocationGroupRef self, OTF2_StringRef name, OTF2_LocationGroupType type,        \
       OTF2_SystemTreeNodeRef node, OTF2_LocationGroupRef creator),                         \
      (self, name, type, node, creator))                                                    \
    X(LocationGroupProperty,                                                                \
      (OTF2_LocationGroupRef group, OTF2_StringRef name, OTF2_Type type,                    \
       OTF2_AttributeValue value),                                                          \
      (group, name, type, value))                                                           \
    /* regions, source code locations, calling contexts, parameters */                      \
    X(Region,                                                                               \
      (OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef canonical,                  \
       OTF2_StringRef description, OTF2_RegionRole role, OTF2_Paradigm paradigm,            \
       OTF2_RegionFlag flags, OTF2_StringRef file, uint32_t begin, uint32_t end),           \
      (self, name, canonical, description, role, paradigm, flags, file, begin, end))        \
    X(SourceCodeLocation, (OTF2_SourceCodeLocationRef self, OTF2_StringRef file,            \
                           uint32_t line),                                                  \
      (self, file, line))                                                                   \
    X(CallingContext,                                                                       \
      (OTF2_CallingContextRef self, OTF2_RegionRef region, OTF2_SourceCodeLocationRef site, \
       OTF2_CallingContextRef parent),                                                      \
      (self, region, site, parent))                                                         \
    X(CallingContextProperty,                                                               \
      (OTF2_CallingContextRef context, OTF2_StringRef name, OTF2_Type type,                 \
       OTF2_AttributeValue value),                                                          \
      (context, name, type, value))                                                         \
    X(InterruptGenerator,                                                                   \
      (OTF2_InterruptGeneratorRef self, OTF2_StringRef name,                                \
       OTF2_InterruptGeneratorMode mode, OTF2_Base base, int64_t exponent, uint64_t period), \
      (self, name, mode, base, exponent, period))                                           \
    X(Parameter, (OTF2_ParameterRef self, OTF2_StringRef name, OTF2_ParameterType type),    \
      (self, name, type))                                                                   \
    /* groups, communicators, windows, topologies */                                        \
    X(Group,                                                                                \
      (OTF2_GroupRef self, OTF2_StringRef name, OTF2_GroupType type, OTF2_Paradigm paradigm, \
       OTF2_GroupFlag flags, uint32_t n, const uint64_t *members),                          \
      (self, name, type, paradigm, flags, n, members))                                      \
    X(Comm,                                                                                 \
      (OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef group, OTF2_CommRef parent,    \
       OTF2_CommFlag flags),                                                                \
      (self, name, group, parent, flags))                                                   \
    X(InterComm,                                                                            \
      (OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef a, OTF2_GroupRef b,            \
       OTF2_CommRef common, OTF2_CommFlag flags),                                           \
      (self, name, a, b, common, flags))                                                    \
    X(RmaWin,                                                                               \
      (OTF2_RmaWinRef self, OTF2_StringRef name, OTF2_CommRef comm, OTF2_RmaWinFlag flags), \
      (self, name, comm, flags))                                                            \
    X(CartDimension,                                                                        \
      (OTF2_CartDimensionRef self, OTF2_StringRef name, uint32_t size,                      \
       OTF2_CartPeriodicity periodicity),                                                   \
      (self, name, size, periodicity))                                                      \
    X(CartTopology,                                                                         \
      (OTF2_CartTopologyRef self, OTF2_StringRef name, OTF2_CommRef comm, uint8_t ndims,    \
       const OTF2_CartDimensionRef *dimensions),                                            \
      (self, name, comm, ndims, dimensions))                                                \
    X(CartCoordinate,                                                                       \
      (OTF2_CartTopologyRef topology, uint32_t rank, uint8_t ndims,                         \
       const uint32_t *coordinates),                                                        \
      (topology, rank, ndims, coordinates))                                                 \
    /* metrics (their members and classes; instances and recorders are filtered) */         \
    X(MetricMember,                                                                         \
      (OTF2_MetricMemberRef self, OTF2_StringRef name, OTF2_StringRef description,          \
       OTF2_MetricType type, OTF2_MetricMode mode, OTF2_Type value_type, OTF2_Base base,    \
       int64_t exponent, OTF2_StringRef unit),                                              \
      (self, name, description, type, mode, value_type, base, exponent, unit))              \
    X(MetricClass,                                                                          \
      (OTF2_MetricRef self, uint8_t n, const OTF2_MetricMemberRef *members,                 \
       OTF2_MetricOccurrence occurrence, OTF2_RecorderKind recorder),                       \
      (self, n, members, occurrence, recorder))                                             \
    /* I/O paradigms, files and handles */                                                  \
    X(IoParadigm,                                                                           \
      (OTF2_IoParadigmRef self, OTF2_StringRef identification, OTF2_StringRef name,         \
       OTF2_IoParadigmClass class, OTF2_IoParadigmFlag flags, uint8_t n,                    \
       const OTF2_IoParadigmProperty *properties, const OTF2_Type *types,                   \
       const OTF2_AttributeValue *values),                                                  \
      (self, identification, name, class, flags, n, properties, types, values))             \
    X(IoRegularFile, (OTF2_IoFileRef self, OTF2_StringRef name,                             \
                      OTF2_SystemTreeNodeRef scope),                                        \
      (self, name, scope))                                                                  \
    X(IoDirectory, (OTF2_IoFileRef self, OTF2_StringRef name, OTF2_SystemTreeNodeRef scope), \
      (self, name, scope))                                                                  \
    X(IoFileProperty,                                                                       \
      (OTF2_IoFileRef file, OTF2_StringRef name, OTF2_Type type, OTF2_AttributeValue value), \
      (file, name, type, value))                                                            \
    X(IoHandle,                                                                             \
      (OTF2_IoHandleRef self, OTF2_StringRef name, OTF2_IoFileRef file,                     \
       OTF2_IoParadigmRef paradigm, OTF2_IoHandleFlag flags, OTF2_CommRef comm,             \
       OTF2_IoHandleRef parent),                                                            \
      (self, name, file, paradigm, flags, comm, parent))                                    \
    X(IoPreCreatedHandleState,                                                              \
      (OTF2_IoHandleRef handle, OTF2_IoAccessMode mode, OTF2_IoStatusFlag status),          \
      (handle, mode, status))

#endif
