/* The recording's properties (recording.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "archive.h"
#include "names.h"
#include "recording.h"

/* s on one line, its runs of blanks (MPICH's "Version:\t4.0.2") as one space. */
static void one_line(char *s)
{
    char *to = s;

    for (const char *from = s; *from && *from != '\n'; from++)
        if (!isspace((unsigned char)*from) || (to > s && to[-1] != ' '))
            *to++ = isspace((unsigned char)*from) ? ' ' : *from;
    *to = '\0';
}

/* "4,4,2": the cores of each node, seen by its first rank. */
static void node_cores(char *list, size_t len, const int *cores, int size,
                       const int *node_of_rank, int nnodes)
{
    size_t used = 0;

    list[0] = '\0';
    for (int k = 0; k < nnodes && used < len; k++) {
        int r = 0;

        while (r < size && node_of_rank[r] != k)
            r++;
        used += (size_t)snprintf(list + used, len - used, "%s%d", k ? "," : "",
                                 r < size ? cores[r] : 0);
    }
}

void pz_recording_library(char *library, size_t len)
{
    char text[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int n;

    if (PMPI_Get_library_version(text, &n) != MPI_SUCCESS)
        text[0] = '\0';
    one_line(text);
    snprintf(library, len, "%s", text);
}

static void set_properties(const int *cores, int size, const int *node_of_rank, int nnodes,
                           uint64_t realtime_begin)
{
    char library[MPI_MAX_LIBRARY_VERSION_STRING], date[32] = "", *list;
    time_t start = (time_t)(realtime_begin / 1000000000u);
    struct tm tm;

    pz_archive_set_property(PZ_PROGRAM_PROPERTY, program_invocation_short_name);
    if (gmtime_r(&start, &tm) && strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm))
        pz_archive_set_property(PZ_DATE_PROPERTY, date);
    pz_recording_library(library, sizeof(library));
    if (library[0])
        pz_archive_set_property(PZ_MPI_LIBRARY_PROPERTY, library);
    if ((list = malloc(12 * (size_t)nnodes + 1))) {
        node_cores(list, 12 * (size_t)nnodes + 1, cores, size, node_of_rank, nnodes);
        pz_archive_set_property(PZ_NODE_CORES_PROPERTY, list);
        free(list);
    }
}

/* The online cores of this node; PROGNOZ_CORES=N says N instead, so that a test's
 * recording is, or is not, oversubscribed whatever machine runs it. */
int pz_recording_cores(void)
{
    const char *forced = getenv("PROGNOZ_CORES");

    return forced && atoi(forced) > 0 ? atoi(forced) : (int)sysconf(_SC_NPROCESSORS_ONLN);
}

void pz_recording_note(MPI_Comm comm, int rank, int size, const int *node_of_rank,
                       int nnodes, uint64_t realtime_begin)
{
    int mine = pz_recording_cores();
    int *cores = rank == 0 ? malloc((size_t)size * sizeof(int)) : NULL;

    PMPI_Gather(&mine, 1, MPI_INT, cores, 1, MPI_INT, 0, comm);
    if (rank == 0 && cores)
        set_properties(cores, size, node_of_rank, nnodes, realtime_begin);
    free(cores);
}
