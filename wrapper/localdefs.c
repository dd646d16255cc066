/* The local definitions of a location: its mappings to global ids and its clock
 * offsets (archive.h).  Needs no MPI: the assembly of partial traces writes them too. */
#include "archive.h"

static void write_mapping(OTF2_DefWriter *w, OTF2_MappingType type, struct pz_id_map m)
{
    OTF2_IdMap *map;

    if (m.n == 0 || !(map = OTF2_IdMap_Create(OTF2_ID_MAP_DENSE, m.n)))
        return;
    for (uint32_t i = 0; i < m.n; i++)
        OTF2_IdMap_AddIdPair(map, i, m.global[i]);
    OTF2_DefWriter_WriteMappingTable(w, type, map);
    OTF2_IdMap_Free(map);
}

void pz_write_local_definitions(OTF2_DefWriter *w, const struct pz_local_maps *maps,
                                const struct pz_clock_offset *offsets, int noffsets)
{
    write_mapping(w, OTF2_MAPPING_COMM, maps->comms);
    write_mapping(w, OTF2_MAPPING_STRING, maps->strings);
    write_mapping(w, OTF2_MAPPING_REGION, maps->regions);
    write_mapping(w, OTF2_MAPPING_SOURCE_CODE_LOCATION, maps->sites);
    write_mapping(w, OTF2_MAPPING_IO_HANDLE, maps->io_handles);
    write_mapping(w, OTF2_MAPPING_RMA_WIN, maps->rma_windows);
    write_mapping(w, OTF2_MAPPING_GROUP, maps->rma_groups);
    for (int i = 0; i < noffsets; i++)
        OTF2_DefWriter_WriteClockOffset(w, offsets[i].time, offsets[i].offset,
                                        offsets[i].deviation);
}
