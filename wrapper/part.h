/* The part of a run that one process leaves when the run ends without MPI_Finalize
 * (docs/record.md): a text file STAGE/part.RANK beside the event files the process
 * closed, holding what the unification at finalize would have received from it, so
 * that the global definitions can be rebuilt afterwards without it (assemble.h).
 *
 * Lines, each "KEY VALUE...", in this order:
 *   prognoz-part 1
 *   rank R / size N / ending TEXT (how the process ended, one line)
 *   node NAME (one per node of the run, in order) / node_of_rank I0 I1 ... (N values)
 *   cpu 0|1 / offset TIME OFFSET DEVIATION (the clock offset measured at start)
 *   clock NOW REALTIME (its clock and the epoch's, in ns, when the part was written)
 *   thread INDEX EVENTS FIRST LAST (one per thread: events written, span in ns)
 *   comm GID CREATOR SIZE REMOTE NDIMS MEMBERS... CART... (one per local reference)
 *   list S / interval S / site S (count lists, interval and call-site identities in
 *                                 local-id order, '\' and newline escaped as \\ and \n)
 *   end
 * A part without its "end" line was cut short and is not used. */
#ifndef PZ_PART_H
#define PZ_PART_H

#define PZ_PART_MAGIC "prognoz-part 1"
#define PZ_PART_PREFIX "part."

#endif
