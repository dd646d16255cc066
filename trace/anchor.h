/* The anchor file of an OTF2 archive, as every prognoz command accepts it: the
 * directory DIR (whose anchor is DIR/traces.otf2, as the recorder writes it) or the
 * anchor file itself.  Shared by every reader of a trace and the predicted trace writer. */
#ifndef PZ_ANCHOR_H
#define PZ_ANCHOR_H

#include <stddef.h>

/* The anchor file's path of path (DIR or DIR/traces.otf2) into out. */
void pz_anchor_path(const char *path, char *out, size_t len);

/* Whether path is an OTF2 anchor file (it starts with a byte-order mark and "OTF2"):
 * anything else gets a plain answer rather than OTF2's complaint about its name.  When
 * the file cannot be opened, errno says why. */
int pz_is_anchor(const char *path);

/* Whether the anchor file at path (one pz_is_anchor accepts) holds together, checked
 * before OTF2 parses it: OTF2 3.0 trusts the counts it declares (a flipped bit in the
 * number of properties has it allocate and walk 2^30 entries for seconds or minutes).
 * Each field of OTF2 3.0's format is read in the file's byte order; strings must end
 * within the file, counts must fit in the bytes that hold what they count (the number
 * of locations and of global definitions in the definition file beside it), chunk
 * sizes, substrate and compression must be ones OTF2 writes.  0, or -1 with why set to
 * one line naming the field ("damaged anchor file: its number of properties
 * (1073741824) does not fit in its 72 bytes"), or the system's error. */
int pz_anchor_check(const char *path, char *why, size_t len);

#endif
