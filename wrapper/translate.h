/* Turning the wrapper's records into OTF2 events, encoded as Score-P encodes MPI:
 * Enter, the call's MPI events, Leave (docs/trace-format.md). */
#ifndef PZ_TRANSLATE_H
#define PZ_TRANSLATE_H

#include <otf2/otf2.h>

#include "record.h"

/* Writes record r and its items, the mark of a buffer flush, or an interval boundary
 * (region PZ_NCALLS + local interval number, mapped at finalize); returns the number of
 * events written. */
uint64_t pz_translate(OTF2_EvtWriter *w, const struct pz_record *r,
                      const struct pz_item *items);

/* The OTF2 collective operation of an enum pz_coll_op. */
OTF2_CollectiveOp pz_otf2_collective(int collective);

#endif
