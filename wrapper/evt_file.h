/* Joining OTF2 event files of one location written one after the other, so that the
 * events of a run survive a process that is killed without warning (checkpoint.h).
 *
 * An event file as OTF2 3 writes it (POSIX substrate, no compression) is a sequence of
 * chunks of the archive's chunk size; each chunk begins with a header (byte 0x03, the
 * byte order, then the numbers of its first and last event as native 64-bit integers)
 * and its records end with an end-of-chunk byte 0x00 (the zeros that pad it) or, in the
 * last chunk, written short, with the end-of-file byte 0x02 and the end-of-buffer byte
 * 0x01, the file's last two bytes.
 * Two such files join into one by turning the first's end of file into an end of chunk,
 * padding its last chunk to the chunk size, and renumbering the second's events after
 * the first's.  Needs no MPI. */
#ifndef PZ_EVT_FILE_H
#define PZ_EVT_FILE_H

#include <stddef.h>
#include <stdint.h>

/* The chunk size of event files, both in the recorder's archive and in an assembled
 * one (archive.c, assemble.c): OTF2's smallest, since a reader of every location at once
 * (prognoz report's, Vampir's, Scalasca's) holds a chunk of each, 1 GiB at 1024
 * processes with chunks of 1 MiB (bench/README.md, "The chunks of the event files"). */
#define PZ_EVT_CHUNK ((size_t)256 * 1024)

/* Appends the whole event file from to the event file to, whose first *size bytes are a
 * whole event file (the rest, if any, left by an append cut short, is overwritten);
 * *size becomes the new length, and from is removed.  When to does not exist (*size is
 * 0), from is renamed to it.  Returns 0, or -1 with errno (EINVAL: a file not laid out
 * as described above); pz_evt_cut(to, *size) then gives back the file to was. */
int pz_evt_append(const char *to, uint64_t *size, const char *from);

/* Turns the first size bytes of path, a whole event file followed by what an append
 * cut short may have written, back into that event file (checkpoint.h).  Returns 0, or
 * -1 with errno. */
int pz_evt_cut(const char *path, uint64_t size);

#endif
