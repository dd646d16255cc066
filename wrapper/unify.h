/* Unification of per-process names at finalize: each process numbers what it saw
 * (per-peer count lists, intervals, call sites) locally, as strings; rank 0 learns every
 * distinct string of the run once and each process learns the global number of its own. */
#ifndef PZ_UNIFY_H
#define PZ_UNIFY_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

/* A list of strings being built: text holds n NUL-terminated strings, len bytes. */
struct pz_strings {
    char *text;
    size_t len, cap;
    int n;
};

/* Appends s; on memory exhaustion the list stays as it was. */
void pz_strings_add(struct pz_strings *list, const char *s);

/* Collective over comm.  packed holds this process's n strings, each NUL-terminated, len
 * bytes in all.  Global numbers go in order of first appearance, rank 0's strings first,
 * then rank 1's new ones, and so on; map[i] receives that of string i.  On rank 0 *all
 * and *nall receive the distinct strings (free with pz_free_strings), elsewhere NULL and
 * 0.  Returns 0, or -1 if memory ran out on rank 0 (map is then all zeros). */
int pz_unify_strings(MPI_Comm comm, const char *packed, int len, int n, uint32_t *map,
                     char ***all, uint32_t *nall);

void pz_free_strings(char **all, uint32_t n);

#endif
