/* What a process leaves when the run ends without MPI_Finalize (partial.h, part.h). */
#include <errno.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "archive.h"
#include "callsite.h"
#include "checkpoint.h"
#include "clock.h"
#include "comms.h"
#include "handles.h"
#include "interval_defs.h"
#include "markers.h"
#include "part.h"
#include "partial.h"
#include "prognoz.h"
#include "recording.h"
#include "runtime.h"
#include "session.h"
#include "sites.h"
#include "thread.h"
#include "unify.h"
#include "rma_groups.h"
#include "vcounts.h"

static atomic_int saving;

int pz_partial_saved(void)
{
    return atomic_load(&saving);
}

static void put_escaped(FILE *f, const char *key, const char *s)
{
    fprintf(f, "%s ", key);
    for (; *s; s++) {
        if (*s == '\\')
            fputs("\\\\", f);
        else if (*s == '\n')
            fputs("\\n", f);
        else
            fputc(*s, f);
    }
    fputc('\n', f);
}

/* n NUL-terminated strings one after the other in packed, each on a line of key. */
static void put_packed(FILE *f, const char *key, const char *packed, uint32_t n)
{
    for (uint32_t i = 0; packed && i < n; i++, packed += strlen(packed) + 1)
        put_escaped(f, key, packed);
}

static void put_session(FILE *f, const struct pz_session *s, const char *ending)
{
    char library[MPI_MAX_LIBRARY_VERSION_STRING];
    struct timespec real;

    clock_gettime(CLOCK_REALTIME, &real);
    fprintf(f, "%s\nrank %d\nsize %d\n", PZ_PART_MAGIC, s->rank, s->size);
    put_escaped(f, "ending", ending);
    put_escaped(f, "program", program_invocation_short_name);
    pz_recording_library(library, sizeof(library));
    put_escaped(f, "library", library);
    fprintf(f, "cores %d\n", pz_recording_cores());
    for (int k = 0; k < s->nnodes; k++)
        put_escaped(f, "node", s->node_names[k]);
    fputs("node_of_rank", f);
    for (int r = 0; r < s->size; r++)
        fprintf(f, " %d", s->node_of_rank[r]);
    fprintf(f, "\ncpu %d\noffset %llu %lld %.17g\nclock %llu %llu\n", pz_record_cpu,
            (unsigned long long)s->offsets[0].time, (long long)s->offsets[0].offset,
            s->offsets[0].deviation, (unsigned long long)pz_now(),
            (unsigned long long)real.tv_sec * 1000000000u + (unsigned long long)real.tv_nsec);
}

static void put_comms(FILE *f)
{
    for (uint32_t r = 0; r < pz_comms_count(); r++) {
        const struct pz_comm_info *c = pz_comm_get(r);
        int nmembers = c->members ? c->size + c->remote_size : 0;

        /* a communicator whose members are unknown here is described with none */
        fprintf(f, "comm %llu %u %d %d %d", (unsigned long long)c->gid, c->creator,
                nmembers ? c->size : 0, nmembers ? c->remote_size : 0, c->cart ? c->ndims : 0);
        for (int i = 0; i < nmembers; i++)
            fprintf(f, " %d", c->members[i]);
        for (int i = 0; c->cart && i < 2 * c->ndims; i++)
            fprintf(f, " %d", c->cart[i]);
        fputc('\n', f);
    }
}

/* Count lists, then interval, call-site, file-handle, window and epoch-group
 * identities as the unification would have received them (intervals.c, sites.c,
 * handles.c, rma_groups.c). */
static void put_strings(FILE *f)
{
    /* reading the program's debug information takes time, which a process that mpiexec
     * is about to kill does not have: only when there is something to resolve */
    struct pz_callsites *cs = pz_markers_count() || pz_sites_count() ? pz_callsites_open()
                                                                     : NULL;
    struct pz_strings ids = { 0 }, sites = { 0 }, files = { 0 }, windows = { 0 },
                      groups = { 0 };
    int len;
    char *lists = pz_vcounts_pack(&len);

    put_packed(f, "list", lists, pz_vcounts_count());
    free(lists);
    for (uint32_t i = 0; i < pz_markers_count(); i++)
        pz_intervals_add_identity(&ids, cs, pz_markers_site(i), pz_markers_id(i),
                                  pz_markers_sequential(i));
    put_packed(f, "interval", ids.text, (uint32_t)ids.n);
    pz_sites_identities(cs, &sites);
    put_packed(f, "site", sites.text, (uint32_t)sites.n);
    pz_callsites_close(cs);
    pz_handles_identities(&pz_io_files, &files);
    put_packed(f, "iohandle", files.text, (uint32_t)files.n);
    pz_handles_identities(&pz_rma_windows, &windows);
    put_packed(f, "window", windows.text, (uint32_t)windows.n);
    pz_rma_groups_identities(&groups);
    put_packed(f, "rmagroup", groups.text, (uint32_t)groups.n);
    free(ids.text);
    free(sites.text);
    free(files.text);
    free(windows.text);
    free(groups.text);
}

/* Writes every thread's records to its event file and closes it; one line each. */
static void close_threads(FILE *f)
{
    for (struct pz_thread *t = pz_thread_first(); t; t = t->next) {
        pz_thread_flush(t);
        pz_archive_close_evt_writer(t->writer);
        t->writer = NULL;
        fprintf(f, "thread %u %llu %llu %llu\n", t->index, (unsigned long long)t->nevents,
                (unsigned long long)t->first_ns, (unsigned long long)t->last_ns);
    }
}

/* Writes STAGE/part.RANK, complete or not at all; the thread lines by close_threads,
 * or for a checkpoint the one of thread only, whose events are the first saved bytes
 * of its saved file.  0, or -1 after a warning. */
static int write_part(const char *ending, const struct pz_thread *only, uint64_t saved)
{
    struct pz_session *s = &pz_session;
    char path[PATH_MAX + 128], tmp[PATH_MAX + 128];
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s%d", s->stage, PZ_PART_PREFIX, s->rank);
    snprintf(tmp, sizeof(tmp), "%s/%s%d.tmp", s->stage, PZ_PART_PREFIX, s->rank);
    if (!(f = fopen(tmp, "w"))) {
        pz_runtime_warn("cannot save the trace of rank %d in '%s': %s", s->rank, tmp,
                        strerror(errno));
        return -1;
    }
    put_session(f, s, ending);
    if (only) {
        fprintf(f, "thread %u %llu %llu %llu\nsaved %u %llu\n", only->index,
                (unsigned long long)only->nevents, (unsigned long long)only->first_ns,
                (unsigned long long)only->last_ns, only->index, (unsigned long long)saved);
    } else {
        close_threads(f);
        pz_checkpoint_join();
    }
    put_comms(f);
    put_strings(f);
    fputs("end\n", f);
    /* the part appears complete or not at all */
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        pz_runtime_warn("cannot save the trace of rank %d in '%s': %s", s->rank, path,
                        strerror(errno));
        return -1;
    }
    return 0;
}

void pz_partial_save(const char *ending, uint64_t when)
{
    struct pz_session *s = &pz_session;
    int expected = 0;

    if (!pz_runtime_on() || !s->archive_open ||
        !atomic_compare_exchange_strong(&saving, &expected, 1))
        return;
    prognoz_recorder = 0;
    pz_runtime_stop();
    for (struct pz_thread *t = pz_thread_first(); t; t = t->next)
        pz_markers_close_all(t, when);
    if (pz_archive_failed()) {
        /* its event files could not be closed: a part would describe broken ones */
        pz_runtime_warn("cannot save the trace of rank %d: a write failed (is the disk "
                        "full?)", s->rank);
        return;
    }
    write_part(ending, NULL, 0);
}

int pz_partial_checkpoint(const struct pz_thread *t, uint64_t saved)
{
    return write_part(PZ_PARTIAL_KILLED, t, saved);
}
