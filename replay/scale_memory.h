/* The memory a run of prognoz scale needs, estimated before it starts, against the
 * memory it may take: a count whose synthesis and replay cannot fit is refused with one
 * line, instead of running until the machine's memory is exhausted.
 *
 * Twice: before the recordings are read, with a floor that every program needs
 * (PZ_SCALE_FLOOR_BYTES_PER_PROCESS), which refuses at once only counts that cannot fit
 * whatever the program; then, once the model is built, with the estimate of that
 * program's run (struct pz_scale_memory_figures, pz_scale_memory_estimate): the state the
 * synthesis, the replay and the analysis keep per process, per step of the template, per
 * request slot, per message channel and per communicator, and the lists of the v
 * collectives, which grow as the square of their members. */
#ifndef PZ_SCALE_MEMORY_H
#define PZ_SCALE_MEMORY_H

#include <stddef.h>
#include <stdint.h>

/* The bytes every process of a synthesized run takes whatever the program, rounded
 * down: its synthesis's cursor (184 bytes and 5 arrays), the engine's thread (264) and
 * the communication model's per-process arrays (108), the analysis's statistics of the
 * whole run (216), its process (112) and stack of 64 frames (3072), the first ring of the
 * records waiting for the engine (8 records of 80 bytes) and for the analysis (16): more
 * than 6 KiB, of which 4 KiB are taken. */
#define PZ_SCALE_FLOOR_BYTES_PER_PROCESS (4u * 1024u)

/* The least memory the run at nprocs processes needs, in bytes: nprocs times
 * PZ_SCALE_FLOOR_BYTES_PER_PROCESS. */
uint64_t pz_scale_memory_floor(int nprocs);

/* The memory a run may take: its bytes and where that bound comes from
 * ("MemAvailable", "free pages", "ulimit -v", "ulimit -d"); bytes UINT64_MAX with
 * source NULL when nothing bounds it. */
struct pz_scale_memory {
    uint64_t bytes;
    const char *source;
};

/* The MemAvailable line of /proc/meminfo's text ("MemAvailable:  22000000 kB"), in
 * bytes into *bytes: 0, or -1 when the text has no such line. */
int pz_scale_meminfo_available(const char *text, uint64_t *bytes);

/* Lowers *m to bytes, from source, when bytes is smaller; UINT64_MAX (no limit) leaves
 * it as it is. */
void pz_scale_memory_bound(struct pz_scale_memory *m, uint64_t bytes, const char *source);

/* The memory this process may take in all, holding `held` bytes now: the machine's
 * available memory (MemAvailable of /proc/meminfo, else the free pages sysconf counts)
 * plus held, and the soft limits of its address space and data (RLIMIT_AS,
 * RLIMIT_DATA), the smallest. */
struct pz_scale_memory pz_scale_memory_available(uint64_t held);

/* The bytes this process holds in memory now, its resident set (/proc/self/statm); 0
 * when that cannot be read. */
uint64_t pz_scale_memory_resident(void);

/* The bytes of its heap that are free, which later allocations take again (glibc's
 * mallinfo2); 0 where that is not known. */
uint64_t pz_scale_memory_heap_free(void);

/* The most memory this process held so far (its peak resident set, getrusage's
 * ru_maxrss), in bytes; 0 when not known. */
uint64_t pz_scale_memory_peak(void);

/* Whether the run at nprocs processes fits in m by the floor: 1, or 0 with one line in
 * msg naming the count, the floor and the memory available, e.g. "the run at 4194304
 * processes needs at least 16.0 GiB of memory (4 KiB a process whatever the program),
 * more than the 4.0 GiB available (ulimit -v)". */
int pz_scale_memory_floor_fits(int nprocs, const struct pz_scale_memory *m, char *msg,
                               size_t len);

/* What the estimate of a program's run at one count is made of, read from its model
 * (scale_memory_model.c) and counted at that count. */
struct pz_scale_memory_figures {
    int nprocs;
    uint64_t held;             /* bytes held before the run (the recordings, the model) */
    uint64_t heap_free;        /* of which free in the heap, for the run to take again */
    uint64_t peak;             /* the most bytes held so far (reading the recordings and
                                  building the model): the run's peak is no less */
    uint64_t kept;             /* processes of the analyses kept for the report by then:
                                  the smaller counts' on every machine, and this count's
                                  on the machines before the last */
    uint32_t nodes, slots;     /* the template's steps and loops; its request slots */
    uint32_t step_records;     /* the most records one step makes */
    uint64_t records;          /* the records of a process, from its start to its end */
    uint64_t stretch;          /* the most a process makes between two collectives on the
                                  world that synchronize it (Allreduce, Alltoall ...),
                                  from the end of one to the end of the next; 0: none */
    uint64_t loose;            /* the most before the first or after the last such
                                  collective; all of them without any */
    uint32_t intervals;        /* the analysis's intervals, the whole run included */
    uint64_t channels;         /* (communicator, sender, receiver, tag) of the messages
                                  of one process, its sends' */
    uint64_t comms;            /* communicators of the run: the world, the process
                                  alone, every instance of every other */
    uint64_t members;          /* members of the communicators other than the world and
                                  the process alone, summed */
    uint64_t coll_members;     /* P for each communicator a collective runs on */
    uint32_t coll_classes;     /* the classes of those communicators (the world, the rows
                                  ...): a process is in a collective of each at once */
    uint64_t list_texts;       /* the distinct per-peer lists of the v collectives */
    uint64_t list_bytes;       /* their text */
    uint64_t v_counts;         /* the per-peer counts the model keeps while a v collective
                                  runs, 2 x members for each member with lists, over its
                                  instances; the largest collective's */
    uint64_t in_flight;        /* the messages of an all-to-all collective posted at once
                                  over its instances, the largest collective's */
};

/* The terms of an estimate, in bytes. */
enum pz_scale_memory_term {
    PZ_SCALE_MEM_HELD,         /* the recordings and the model: what is held, less the
                                  free heap the run's allocations on the same thread
                                  take again */
    PZ_SCALE_MEM_SYNTHESIS,    /* the cursors of the processes' syntheses */
    PZ_SCALE_MEM_WAITING,      /* the records made, waiting for the engine */
    PZ_SCALE_MEM_ENGINE,       /* the engine's and the communication model's processes */
    PZ_SCALE_MEM_QUEUED,       /* the records waiting for the analysis */
    PZ_SCALE_MEM_ANALYSIS,     /* the analysis's processes and statistics, those kept */
    PZ_SCALE_MEM_CHANNELS,     /* the analysis's queues of messages */
    PZ_SCALE_MEM_COMMS,        /* the communicators, per process and member */
    PZ_SCALE_MEM_LISTS,        /* the per-peer lists of the v collectives */
    PZ_SCALE_MEM_PAIRS,        /* the all-to-all collectives' messages in flight */
    PZ_SCALE_MEM_SLACK,        /* a tenth of the terms of the run (all but HELD): what the
                                  allocator leaves between blocks, and the drift the
                                  queue's bound does not follow */
    PZ_SCALE_MEM_NTERMS
};

/* The records each process holds queued for the analysis (analyzer/stream.c) until no
 * earlier record can come.  No process passes a collective on the world that
 * synchronizes it before every other entered it, so between two such collectives the
 * queue holds at most what a process makes from one to the next (struct
 * pz_scale_memory_figures' stretch, and a step).  Outside them, how far apart the
 * processes' predicted times drift is not told by the model: about 90 records were
 * measured in a ring (bench/README.md, "Memory of a synthesized run, estimated"), 128
 * are taken, or the process's records where it makes fewer. */
#define PZ_SCALE_QUEUED_RECORDS 128u

struct pz_scale_memory_estimate {
    uint64_t term[PZ_SCALE_MEM_NTERMS];
    uint64_t total;            /* the terms' sum, or the peak so far when larger */
};

/* The estimate of the run f describes (each term's derivation in scale_memory.c). */
void pz_scale_memory_estimate(const struct pz_scale_memory_figures *f,
                              struct pz_scale_memory_estimate *out);

/* The words naming a term in a message ("the per-peer lists of the v collectives"). */
const char *pz_scale_memory_term_name(enum pz_scale_memory_term t);

/* Whether the run at nprocs processes, estimated e, fits in m: 1, or 0 with one line in
 * msg naming the count, the estimate, its largest term and the memory available, e.g.
 * "the run at 16384 processes needs about 19.7 GiB of memory (the largest part: 17.5
 * GiB for the per-peer lists of the v collectives), more than the 8.0 GiB available
 * (ulimit -v)". */
int pz_scale_memory_fits(int nprocs, const struct pz_scale_memory_estimate *e,
                         const struct pz_scale_memory *m, char *msg, size_t len);

/* The figures of program m's run at nprocs processes (struct pz_scale_memory_figures),
 * held and kept left for the caller. */
struct pz_scale_program;
void pz_scale_memory_figures_of(const struct pz_scale_program *m, int nprocs,
                                struct pz_scale_memory_figures *f);

#endif
