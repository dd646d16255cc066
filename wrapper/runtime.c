/* The recorder's state and configuration.  The state is UNINIT until MPI is initialised,
 * ON while recording, OFF when disabled, failed or finished; lifecycle.c drives it at
 * MPI_Init and MPI_Finalize. */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comms.h"
#include "prognoz.h"
#include "hooks.h"
#include "runtime.h"
#include "session.h"
#include "sites.h"
#include "size.h"

enum { UNINIT, ON, OFF };

#define DEFAULT_BUFFER ((size_t)64 << 20)
#define MIN_BUFFER ((size_t)64 << 10)
/* Each thread's buffer is allocated and touched at once: more than this is a mistake
 * that would make every thread's allocation fail. */
#define MAX_BUFFER ((size_t)4 << 30)

struct pz_session pz_session = { .comm = MPI_COMM_NULL };
static _Atomic int state = UNINIT;

/* Nonzero while calls are recorded: include/prognoz.h issues interval markers only
 * then, so that a marked program runs unchanged without the recorder. */
PZ_EXPORT int prognoz_recorder;

int pz_runtime_multiple;
static size_t buffer_size = DEFAULT_BUFFER;
static pthread_mutex_t start_lock = PTHREAD_MUTEX_INITIALIZER;

/* The buffer size PROGNOZ_BUFFER=text asks for if it is a size from 64K to 4G, else
 * the default, with one warning for the job (from rank 0: every process reads the same
 * environment).  A sign is refused: strtoull would take "-5" as 2^64 - 5. */
static size_t buffer_size_of(const char *text)
{
    size_t size = isdigit((unsigned char)text[0]) ? pz_parse_size(text) : 0;

    if (size >= MIN_BUFFER && size <= MAX_BUFFER)
        return size;
    if (pz_session.rank == 0)
        pz_runtime_warn("PROGNOZ_BUFFER='%s' is not a size from 64K to 4G; using 64M", text);
    return DEFAULT_BUFFER;
}

/* Reads the environment; returns 0 if recording is wanted. */
static int configure(void)
{
    const char *disable = getenv("PROGNOZ_DISABLE"), *dir = getenv("PROGNOZ_DIR");
    const char *buffer = getenv("PROGNOZ_BUFFER"), *sites = getenv("PROGNOZ_CALLSITES");
    const char *cpu = getenv("PROGNOZ_CPU_TIME");

    if (disable && *disable && strcmp(disable, "0") != 0)
        return -1;
    snprintf(pz_session.dir, sizeof(pz_session.dir), "%s", dir && *dir ? dir : "prognoz-trace");
    pz_record_sites = sites && *sites && strcmp(sites, "0") != 0;
    pz_record_cpu = cpu && *cpu && strcmp(cpu, "0") != 0;
    if (buffer && *buffer)
        buffer_size = buffer_size_of(buffer);
    return 0;
}

/* Whether MPI_Comm_spawn started this process: its MPI_COMM_WORLD is another job's,
 * whose ranks would write over the files of the spawning job's own in the same trace,
 * so it is not recorded (said once, by its rank 0). */
static int spawned(void)
{
    MPI_Comm parent = MPI_COMM_NULL;

    PMPI_Comm_get_parent(&parent);
    if (parent == MPI_COMM_NULL)
        return 0;
    if (pz_session.rank == 0)
        pz_runtime_warn("processes started by MPI_Comm_spawn are not recorded; the trace "
                        "is of the processes that started them");
    return 1;
}

/* What needs no communication: used by MPI_Init and by the lazy start alike. */
static int begin_local(int thread_level)
{
    PMPI_Comm_rank(MPI_COMM_WORLD, &pz_session.rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &pz_session.size);
    if (configure() != 0 || spawned() || pz_comms_init() != 0)
        return -1;
    pz_runtime_multiple = thread_level == MPI_THREAD_MULTIPLE;
    return 0;
}

static int lazy_start(void)
{
    int initialized = 0, finalized = 0, level = MPI_THREAD_SINGLE;

    pthread_mutex_lock(&start_lock);
    if (atomic_load(&state) == UNINIT) {
        PMPI_Initialized(&initialized);
        PMPI_Finalized(&finalized);
        if (initialized && !finalized) {
            PMPI_Query_thread(&level);
            atomic_store(&state, begin_local(level) == 0 ? ON : OFF);
            prognoz_recorder = atomic_load(&state) == ON;
        }
    }
    pthread_mutex_unlock(&start_lock);
    return atomic_load(&state) == ON;
}

int pz_runtime_recording(void)
{
    int s = atomic_load_explicit(&state, memory_order_acquire);

    return s == ON || (s == UNINIT && lazy_start());
}

size_t pz_runtime_buffer_size(void)
{
    return buffer_size;
}

uint64_t pz_runtime_location(uint32_t index)
{
    return pz_location_id(pz_session.rank, index);
}

OTF2_EvtWriter *pz_runtime_evt_writer(uint64_t location)
{
    return pz_session.archive_open ? pz_archive_evt_writer(location) : NULL;
}

int pz_runtime_begin(int thread_level)
{
    int ok;

    pthread_mutex_lock(&start_lock);
    ok = begin_local(thread_level) == 0;
    /* every process must take part in opening, or none: agree first */
    PMPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    return ok;
}

void pz_runtime_begun(int ok)
{
    atomic_store(&state, ok ? ON : OFF);
    prognoz_recorder = ok;
    pthread_mutex_unlock(&start_lock);
}

int pz_runtime_on(void)
{
    return atomic_load(&state) == ON;
}

void pz_runtime_stop(void)
{
    atomic_store(&state, OFF);
}
