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

#endif
