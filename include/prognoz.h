/* prognoz: the public header for MPI programs recorded by prognoz.
 *
 * Recording needs no change to a program: run it with libprognoz.so preloaded
 * (`prognoz record -o DIR -- mpiexec -n 4 ./app`).  This header lets a program mark the
 * parts of it that matter, the intervals, so that the analysis gives every
 * characteristic for each of them:
 *
 *     PROGNOZ_BEGIN(1);
 *     for (it = 0; it < n; it++) {
 *         PROGNOZ_BEGIN(2);  exchange_halo();  PROGNOZ_END(2);
 *         PROGNOZ_BEGIN(3);  compute();        PROGNOZ_END(3);
 *     }
 *     PROGNOZ_END(1);
 *
 * A computation that every process executes in full, duplicating it instead of sharing
 * it (reading the input on every process, a sequential loop each process runs whole),
 * is a sequential interval: begin it with PROGNOZ_BEGIN_SEQ(id) and end it with
 * PROGNOZ_END(id).  The analysis counts its computation once as productive and the
 * duplicates as lost time, insufficient parallelism (docs/characteristics.md).
 *
 * The id (0 to 65535) is the programmer's number for the interval; an interval is known
 * by the source file and line of its PROGNOZ_BEGIN and its id, so one id used at two
 * places gives two intervals.  Intervals nest to any depth; an interval may be entered
 * many times.  Every process that executes an interval marks it.  Call them between
 * MPI_Init and MPI_Finalize, from the thread that does the work they enclose.
 *
 * A marker is a zero-length MPI_Send of the process to itself followed by the matching
 * MPI_Recv, with a tag that reads, as 32 unsigned bits, 0xAA id_hi id_lo 0xAA (begin),
 * 0xAA id_hi id_lo 0xCC (begin a sequential interval) or 0xAA id_hi id_lo 0xBB (end).
 * Such tags exceed every MPI implementation's MPI_TAG_UB: the recorder recognises the
 * pair and consumes it, so MPI never sees it, and the program gets MPI_SUCCESS and the
 * status of an empty message from itself.  The macros issue the pair only while the
 * recorder records, so a marked program runs unchanged, at full speed, without prognoz.
 * Programs that cannot include this header may issue the pair themselves (only when run
 * under the recorder), on any communicator, also as MPI_Isend/MPI_Irecv completed by a
 * wait, or as one MPI_Sendrecv to themselves:
 *
 *     MPI_Send(NULL, 0, MPI_BYTE, 0, (int)0xAA0002AA, MPI_COMM_SELF);   // begin 2
 *     MPI_Recv(NULL, 0, MPI_BYTE, 0, (int)0xAA0002AA, MPI_COMM_SELF, MPI_STATUS_IGNORE);
 *
 * Fortran programs include prognoz.fh and call prognoz_begin(id) / prognoz_end(id)
 * (prognoz_begin_seq(id) for a sequential interval), linking libprognoz-markers (see
 * docs/intervals.md).
 */
#ifndef PROGNOZ_H
#define PROGNOZ_H

#include <mpi.h>
#include <stddef.h>

#define PROGNOZ_VERSION_MAJOR 0
#define PROGNOZ_VERSION_MINOR 1

#ifdef __cplusplus
extern "C" {
#endif

/* Defined by libprognoz.so: nonzero while it records.  Weak, so that a program not run
 * under prognoz links and sees its address as null. */
extern int prognoz_recorder __attribute__((weak));

/* Defined by libprognoz.so: the call site to attribute the calling thread's next marker
 * to, for marker functions in libraries (libprognoz-markers). */
extern void prognoz_marker_site(void *site) __attribute__((weak));

#ifdef __cplusplus
}
#endif

#define PROGNOZ_TAG_BEGIN(id) ((int)(0xAA0000AAu | ((unsigned)(id) & 0xFFFFu) << 8))
#define PROGNOZ_TAG_END(id) ((int)(0xAA0000BBu | ((unsigned)(id) & 0xFFFFu) << 8))
#define PROGNOZ_TAG_BEGIN_SEQ(id) ((int)(0xAA0000CCu | ((unsigned)(id) & 0xFFFFu) << 8))

/* A macro, not a function, so that the marker's call site is the line that uses it. */
#define PROGNOZ_MARK_(tag)                                                              \
    do {                                                                                \
        if (&prognoz_recorder && prognoz_recorder) {                                    \
            MPI_Send(NULL, 0, MPI_BYTE, 0, (tag), MPI_COMM_SELF);                       \
            MPI_Recv(NULL, 0, MPI_BYTE, 0, (tag), MPI_COMM_SELF, MPI_STATUS_IGNORE);    \
        }                                                                               \
    } while (0)

#define PROGNOZ_BEGIN(id) PROGNOZ_MARK_(PROGNOZ_TAG_BEGIN(id))
#define PROGNOZ_END(id) PROGNOZ_MARK_(PROGNOZ_TAG_END(id))
#define PROGNOZ_BEGIN_SEQ(id) PROGNOZ_MARK_(PROGNOZ_TAG_BEGIN_SEQ(id))

#endif
