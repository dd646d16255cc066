/* The names of prognoz's trace format (docs/trace-format.md), written by the recorder
 * and by the replay's predicted trace, and looked for by every reader.  Changing one
 * changes the format: old traces would no longer be read as they were written. */
#ifndef PZ_TRACE_NAMES_H
#define PZ_TRACE_NAMES_H

/* prognoz's attributes: their names, and what the definitions say of them. */
#define PZ_NAME_CALLSITE "prognoz:callsite"        /* SOURCE_CODE_LOCATION, at Enter */
#define PZ_NAME_SEND_BYTES "prognoz:send_bytes"    /* STRING, "8,16,24" */
#define PZ_NAME_RECV_BYTES "prognoz:recv_bytes"    /* STRING */
#define PZ_NAME_CPU_TIME "prognoz:cpu_time"        /* UINT64, ns, at Enter and Leave */
#define PZ_NAME_ANY_SOURCE "prognoz:any_source"    /* UINT8, 1, at MpiRecv and MpiIrecv */
#define PZ_DESC_CALLSITE "the source location the MPI call was made from"
#define PZ_DESC_SEND_BYTES "bytes sent to each rank of the communicator, comma-separated"
#define PZ_DESC_RECV_BYTES "bytes received from each rank of the communicator, comma-separated"
#define PZ_DESC_ANY_SOURCE                                                                 \
    "the receive was posted with MPI_ANY_SOURCE: its sender is the one that matched"
#define PZ_DESC_CPU_TIME                                                                   \
    "CPU time of the calling thread since it started, ns (CLOCK_THREAD_CPUTIME_ID): at "   \
    "Enter read before the call, at Leave after"

/* The description of a sequential interval's region (PROGNOZ_BEGIN_SEQ). */
#define PZ_DESC_SEQUENTIAL "prognoz:sequential"

/* An interval's region name, "interval ID at FILE:LINE", with the prefix "sequential "
 * for a sequential interval; the source file of MPI functions' regions. */
#define PZ_INTERVAL_NAME_FORMAT "%sinterval %u at %s:%u"
#define PZ_INTERVAL_ID_FORMAT "interval %u at"
#define PZ_SEQUENTIAL_PREFIX "sequential "
#define PZ_MPI_FILE "MPI"

/* The archive property of a trace assembled after its run ended without MPI_Finalize
 * (wrapper/assemble.h): "0: HOW; 1: HOW; ...", HOW saying how each process ended, or
 * PZ_PARTIAL_NOTHING for a process that left no record. */
#define PZ_PARTIAL_PROPERTY "PROGNOZ::PARTIAL"

/* Archive properties of the recording, set by the recorder at MPI_Finalize: the
 * program's name, the date its run started (ISO 8601, UTC), the MPI library
 * (MPI_Get_library_version's first line), and the online cores of each node, "4,4,2",
 * in the order of the system tree's nodes. */
#define PZ_PROGRAM_PROPERTY "PROGNOZ::PROGRAM"
#define PZ_DATE_PROPERTY "PROGNOZ::DATE"
#define PZ_MPI_LIBRARY_PROPERTY "PROGNOZ::MPI_LIBRARY"
#define PZ_NODE_CORES_PROPERTY "PROGNOZ::NODE_CORES"
/* The interval-marker mistakes the recorder warned of at MPI_Finalize, one property
 * each, numbered from 1 ("FILE:LINE: end of interval 3, but no interval 3 is open:
 * ignored"); none when there were none.  (The anchor's strings hold no line ends.) */
#define PZ_MARKER_WARNING_PROPERTY "PROGNOZ::MARKER_WARNING_%u"
#define PZ_PARTIAL_NOTHING "left nothing (killed, or its part could not be written)"

#endif
