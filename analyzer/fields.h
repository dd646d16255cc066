/* The characteristics by name, in report order: one table for the text and JSON
 * reports, the comparative tables and the comparison of predictions (report_compare.c). */
#ifndef PZ_FIELDS_H
#define PZ_FIELDS_H

#include <stddef.h>

#include "analysis.h"

struct pz_field {
    const char *label;       /* text report */
    const char *key;         /* JSON */
    size_t offset;           /* a double of struct pz_characteristics */
    int comparative;         /* in the comparative table */
    const char *predicted;   /* its label in the comparison of predictions, NULL: not there */
    int predicted_row;       /* its row there, from 0 */
};

#define PZ_FIELD(label, key, member, cmp) \
    { label, key, offsetof(struct pz_characteristics, member), cmp, NULL, 0 }
/* a field also in the comparison of predictions, in row `row` labelled `predicted` */
#define PZ_PREDICTED(label, key, member, cmp, predicted, row) \
    { label, key, offsetof(struct pz_characteristics, member), cmp, predicted, row }

static const struct pz_field pz_fields[] = {
    PZ_PREDICTED("Execution Time", "execution_time", execution_time, 1,
                 "Execution time (s)", 0),
    PZ_FIELD("Total Time", "total_time", total_time, 0),
    PZ_FIELD("Productive Time", "productive_time", productive_time, 0),
    PZ_PREDICTED("Efficiency", "efficiency", efficiency, 0,
                 "Efficiency", 1),
    PZ_PREDICTED("Lost Time", "lost_time", lost_time, 1,
                 "Lost time (s)", 2),
    PZ_FIELD("Insuff. Par.", "insufficient_parallelism", insufficient_parallelism, 1),
    PZ_FIELD("MPI Time", "mpi_time", mpi_time, 1),
    PZ_FIELD("CPU Time", "cpu_time", cpu_time, 1),
    PZ_PREDICTED("Idle Time", "idle_time", idle_time, 1,
                 "Idle time (s)", 5),
    PZ_PREDICTED("Comm. Time", "communication_time", communication_time, 1,
                 "Communication (s)", 3),
    PZ_FIELD("SendRecv Time", "sendrecv_time", sendrecv_time, 0),
    PZ_FIELD("Collective Time", "collective_time", collective_time, 0),
    PZ_FIELD("AllToAll Time", "alltoall_time", alltoall_time, 0),
    PZ_FIELD("Time of Start", "time_of_start", time_of_start, 1),
    PZ_FIELD("Overlap", "overlap", overlap, 1),
    PZ_FIELD("Load Imbalance", "load_imbalance", load_imbalance, 1),
    PZ_PREDICTED("Synchronization", "synchronization", synchronization, 1,
                 "Synchronization (s)", 4),
    PZ_FIELD("Real Sync.", "real_synchronization", real_synchronization, 1),
    PZ_FIELD("Time Variation", "time_variation", time_variation, 1),
    PZ_FIELD("Late Sender", "late_sender", late_sender, 0),
    PZ_FIELD("Wrong Order", "late_sender_wrong_order", late_sender_wrong_order, 0),
    PZ_FIELD("Late Receiver", "late_receiver", late_receiver, 0),
    PZ_FIELD("Wait at Barrier", "wait_at_barrier", wait_at_barrier, 0),
    PZ_FIELD("Barrier Completion", "barrier_completion", barrier_completion, 0),
    PZ_FIELD("Wait at NxN", "wait_at_nxn", wait_at_nxn, 0),
    PZ_FIELD("NxN Completion", "nxn_completion", nxn_completion, 0),
    PZ_FIELD("Early Reduce", "early_reduce", early_reduce, 0),
    PZ_FIELD("Late Broadcast", "late_broadcast", late_broadcast, 0),
};

#define PZ_NFIELDS (sizeof(pz_fields) / sizeof(pz_fields[0]))
#define PZ_NPREDICTED 6   /* rows of the comparison of predictions */

static inline double pz_field_value(const struct pz_characteristics *c, size_t offset)
{
    return *(const double *)((const char *)c + offset);
}

#endif
