/* Keeping OTF2's first complaint for the error messages of a predicted archive
 * (trace_complaints.h). */
#include <stdarg.h>
#include <stdio.h>

#include "trace_complaints.h"

/* OTF2's complaints, kept between pz_out_listen() and pz_out_unlisten(). */
static char heard[256];

static OTF2_ErrorCode remember(void *data, const char *file, uint64_t line,
                               const char *function, OTF2_ErrorCode code, const char *fmt,
                               va_list va)
{
    char msg[200];

    (void)data, (void)file, (void)line, (void)function;
    if (!heard[0]) {
        vsnprintf(msg, sizeof(msg), fmt ? fmt : "", va);
        snprintf(heard, sizeof(heard), "%s%s%s", OTF2_Error_GetDescription(code),
                 msg[0] ? ": " : "", msg);
    }
    return code;
}

OTF2_ErrorCallback pz_out_listen(void)
{
    heard[0] = '\0';
    return OTF2_Error_RegisterCallback(remember, NULL);
}

/* The other users of OTF2's error callback in prognoz register it without data. */
void pz_out_unlisten(OTF2_ErrorCallback previous)
{
    OTF2_Error_RegisterCallback(previous, NULL);
}

int pz_out_heard(void)
{
    return heard[0] != '\0';
}

void pz_out_fail(char *err, size_t errlen, const char *path, const char *what)
{
    snprintf(err, errlen, "%s: %s%s%s", path, what, heard[0] ? ": " : "", heard);
}

int pz_out_close_archive(OTF2_Archive *archive, const char *path, int rc, char *err,
                         size_t errlen)
{
    if (OTF2_Archive_Close(archive) != OTF2_SUCCESS || (rc == 0 && pz_out_heard())) {
        if (rc == 0)
            pz_out_fail(err, errlen, path, "cannot write the archive");
        rc = -1;
    }
    return rc;
}
