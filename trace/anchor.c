/* The anchor file of an OTF2 archive (anchor.h). */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "anchor.h"

void pz_anchor_path(const char *path, char *out, size_t len)
{
    struct stat st;

    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        snprintf(out, len, "%s/traces.otf2", path);
    else
        snprintf(out, len, "%s", path);
}

int pz_is_anchor(const char *path)
{
    unsigned char head[6];
    FILE *f = fopen(path, "rb");
    int ok = f && fread(head, 1, sizeof(head), f) == sizeof(head) &&
             !memcmp(head + 2, "OTF2", 4);

    if (f)
        fclose(f);
    return ok;
}
