/* Opening a recorded trace (open.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "anchor.h"
#include "local_check.h"
#include "names.h"
#include "open.h"

/* The trace OTF2's errors go to (one is open at a time), and the callback before. */
static struct pz_trace_file *current;
static OTF2_ErrorCallback previous;

static OTF2_ErrorCode otf2_error(void *data, const char *file, uint64_t line,
                                 const char *function, OTF2_ErrorCode code, const char *fmt,
                                 va_list va)
{
    char msg[512];

    (void)data, (void)file, (void)line, (void)function;
    vsnprintf(msg, sizeof(msg), fmt ? fmt : "", va);
    if (current && !current->error[0]) {
        pz_trace_file_fail(current, "%s%s%s", OTF2_Error_GetDescription(code),
                           msg[0] ? ": " : "", msg);
        current->otf2_failed = current->defs != NULL;
    }
    return code;
}

void pz_trace_file_vfail(struct pz_trace_file *f, const char *fmt, va_list ap)
{
    int n;

    if (f->error[0])
        return;
    n = snprintf(f->error, sizeof(f->error), "%s: ", f->path);
    vsnprintf(f->error + n, sizeof(f->error) - (size_t)n, fmt, ap);
}

void pz_trace_file_fail(struct pz_trace_file *f, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    pz_trace_file_vfail(f, fmt, ap);
    va_end(ap);
}

/* The definitions' error is a whole line already. */
static int read_definitions(struct pz_trace_file *f, struct pz_defs *defs)
{
    if (pz_defs_read(defs, f->otf, f->path) == 0 && !f->error[0])
        return 0;
    if (!f->error[0])
        snprintf(f->error, sizeof(f->error), "%s", defs->error);
    return -1;
}

/* Only the locations of the threads are read: their def and evt files. */
static int open_files(struct pz_trace_file *f, const struct pz_defs *defs)
{
    for (int th = 0; th < defs->nthreads; th++)
        OTF2_Reader_SelectLocation(f->otf, defs->thread_location[th]);
    if (OTF2_Reader_OpenDefFiles(f->otf) != OTF2_SUCCESS ||
        OTF2_Reader_OpenEvtFiles(f->otf) != OTF2_SUCCESS)
        pz_trace_file_fail(f, "cannot open the files of the locations");
    if (f->error[0])
        return -1;
    f->defs = defs;
    return 0;
}

/* The anchor file is checked before OTF2 reads it: OTF2 trusts what it declares. */
static int open_anchor(struct pz_trace_file *f)
{
    char why[512];

    if (!pz_is_anchor(f->path)) {
        pz_trace_file_fail(f, "not an OTF2 archive (no OTF2 anchor file)");
        return -1;
    }
    if (pz_anchor_check(f->path, why, sizeof(why)) != 0) {
        pz_trace_file_fail(f, "%s", why);
        return -1;
    }
    if (!(f->otf = OTF2_Reader_Open(f->path)))
        pz_trace_file_fail(f, "not an OTF2 archive (no OTF2 anchor file)");
    return f->otf ? 0 : -1;
}

int pz_trace_file_open(struct pz_trace_file *f, const char *path, struct pz_defs *defs)
{
    struct stat st;

    f->otf = NULL;
    f->error[0] = '\0';
    f->defs = NULL;
    f->otf2_failed = 0;
    pz_anchor_path(path, f->path, sizeof(f->path));
    if (stat(f->path, &st) != 0) {
        pz_trace_file_fail(f, "%s", strerror(errno));
        return -1;
    }
    current = f;
    previous = OTF2_Error_RegisterCallback(otf2_error, NULL);
    if (open_anchor(f) != 0)
        return -1;
    if (OTF2_Reader_SetSerialCollectiveCallbacks(f->otf) != OTF2_SUCCESS)
        pz_trace_file_fail(f, "cannot open the OTF2 archive");
    else if (read_definitions(f, defs) == 0)
        open_files(f, defs);
    return f->error[0] ? -1 : 0;
}

/* The problem the checks found in location loc's local definitions, naming its file
 * (DIR/traces.otf2's locations are DIR/traces/LOC.def), in place of OTF2's complaint of
 * the reading they interrupted. */
static void fail_local_defs(struct pz_trace_file *f, uint64_t loc, const char *problem)
{
    size_t n = strlen(f->path);

    f->otf2_failed = 0;
    if (n > 5 && strcmp(f->path + n - 5, ".otf2") == 0)
        snprintf(f->error, sizeof(f->error), "%.*s/%llu.def: %s", (int)(n - 5), f->path,
                 (unsigned long long)loc, problem);
    else
        pz_trace_file_fail(f, "location %llu: %s", (unsigned long long)loc, problem);
}

/* What OTF2 writes for a location without local definitions (open.h). */
static const unsigned char empty_local_defs[20] = {
    0x03, 0x42, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x01
};

int pz_local_defs_empty(const char *file)
{
    unsigned char bytes[sizeof(empty_local_defs) + 1];
    struct stat st;
    FILE *in;
    size_t got;

    if (stat(file, &st) != 0 || st.st_size != (off_t)sizeof(empty_local_defs) ||
        !(in = fopen(file, "rb")))
        return 0;
    got = fread(bytes, 1, sizeof(bytes), in);
    fclose(in);
    return got == sizeof(empty_local_defs) &&
           memcmp(bytes, empty_local_defs, sizeof(empty_local_defs)) == 0;
}

/* The length of the archive's path less its ".otf2" (DIR/traces), 0 when it does not
 * end so. */
static size_t archive_stem(const struct pz_trace_file *f)
{
    size_t n = strlen(f->path);

    return n > 5 && strcmp(f->path + n - 5, ".otf2") == 0 ? n - 5 : 0;
}

/* Into file, location loc's file of kind ("def" or "evt") in the POSIX layout of OTF2's
 * files (DIR/traces.otf2's are DIR/traces/LOC.def and DIR/traces/LOC.evt); 0, or -1
 * when the archive's path does not end in .otf2. */
static int location_file(const struct pz_trace_file *f, uint64_t loc, const char *kind,
                         char *file, size_t size)
{
    size_t stem = archive_stem(f);

    if (!stem)
        return -1;
    snprintf(file, size, "%.*s/%llu.%s", (int)stem, f->path, (unsigned long long)loc, kind);
    return 0;
}

/* Whether location loc's local definitions file holds none. */
static int no_local_defs(const struct pz_trace_file *f, uint64_t loc)
{
    char file[4096 + 32];

    return location_file(f, loc, "def", file, sizeof(file)) == 0 &&
           pz_local_defs_empty(file);
}

int pz_trace_file_local_defs(struct pz_trace_file *f, const struct pz_defs *defs, int th)
{
    OTF2_DefReader *dr;
    struct pz_local_check check = { defs, "" };
    int failed_before = f->error[0] != '\0', ok;
    uint64_t n;

    if (no_local_defs(f, defs->thread_location[th]))
        return 0;
    dr = OTF2_Reader_GetDefReader(f->otf, defs->thread_location[th]);
    if (dr)
        pz_local_check_register(f->otf, dr, &check);
    ok = dr && OTF2_Reader_ReadAllLocalDefinitions(f->otf, dr, &n) == OTF2_SUCCESS;
    if (check.problem[0] && !failed_before)
        fail_local_defs(f, defs->thread_location[th], check.problem);
    if (dr)
        OTF2_Reader_CloseDefReader(f->otf, dr);
    if (!ok)
        pz_trace_file_fail(f, "location %llu: cannot read its local definitions",
                           (unsigned long long)defs->thread_location[th]);
    return ok ? 0 : -1;
}

uint64_t pz_trace_file_event(struct pz_trace_file *f, uint64_t loc)
{
    OTF2_EvtReader *reader = OTF2_Reader_GetEvtReader(f->otf, loc);
    uint64_t event = 0;

    if (reader)
        OTF2_EvtReader_GetPos(reader, &event);
    return event;
}

/* Whether OTF2 fails to read location loc's local definitions (def) or its events
 * (!def) with a reader of its own; 0 also when that reader cannot open the archive. */
static int location_fails(const char *anchor, uint64_t loc, int def)
{
    OTF2_Reader *r = OTF2_Reader_Open(anchor);
    OTF2_DefReader *dr;
    OTF2_EvtReader *er;
    uint64_t n;
    int fails = 0;

    if (r && OTF2_Reader_SetSerialCollectiveCallbacks(r) == OTF2_SUCCESS &&
        OTF2_Reader_SelectLocation(r, loc) == OTF2_SUCCESS &&
        OTF2_Reader_OpenDefFiles(r) == OTF2_SUCCESS && OTF2_Reader_OpenEvtFiles(r) == OTF2_SUCCESS) {
        if (def)
            fails = !(dr = OTF2_Reader_GetDefReader(r, loc)) ||
                    OTF2_Reader_ReadAllLocalDefinitions(r, dr, &n) != OTF2_SUCCESS;
        else
            fails = !(er = OTF2_Reader_GetEvtReader(r, loc)) ||
                    OTF2_Reader_ReadAllLocalEvents(r, er, &n) != OTF2_SUCCESS;
    }
    if (r)
        OTF2_Reader_Close(r);
    return fails;
}

/* The first location whose local definitions (*def = 1) or events (*def = 0) OTF2
 * cannot read alone, in the order of the threads; -1 if none.  OTF2's errors are not
 * recorded meanwhile. */
static int damaged_location(const struct pz_trace_file *f, int *def)
{
    struct pz_trace_file *was = current;
    int found = -1;

    current = NULL;
    for (int th = 0; th < f->defs->nthreads && found < 0; th++)
        for (*def = 1; *def >= 0; (*def)--)
            if (location_fails(f->path, f->defs->thread_location[th], *def)) {
                found = th;
                break;
            }
    current = was;
    return found;
}

/* Names in f->error, instead of the anchor, the file of a location OTF2 failed in
 * (DIR/traces.otf2's locations are DIR/traces/LOC.def and DIR/traces/LOC.evt), unless
 * OTF2's message names it already (a missing file). */
static void name_damaged_file(struct pz_trace_file *f)
{
    size_t n = strlen(f->path);
    char file[4096 + 32], message[1024];   /* OTF2's description and message (otf2_error) */
    int def, th;

    if (!archive_stem(f) || (th = damaged_location(f, &def)) < 0)
        return;
    location_file(f, f->defs->thread_location[th], def ? "def" : "evt", file, sizeof(file));
    if (strstr(f->error + n + 2, file))
        return;
    snprintf(message, sizeof(message), "%s", f->error + n + 2);
    n = (size_t)snprintf(f->error, sizeof(f->error), "%s: ", file);
    if (n < sizeof(f->error))
        snprintf(f->error + n, sizeof(f->error) - n, "%s", message);
}

void pz_trace_file_close(struct pz_trace_file *f)
{
    if (f->otf) {
        OTF2_Reader_CloseEvtFiles(f->otf);
        OTF2_Reader_CloseDefFiles(f->otf);
        OTF2_Reader_Close(f->otf);
        f->otf = NULL;
    }
    if (f->otf2_failed)
        name_damaged_file(f);
    if (current == f) {
        OTF2_Error_RegisterCallback(previous, NULL);
        current = NULL;
    }
}

int pz_trace_defs_read(const char *path, struct pz_defs *defs, char *err, size_t errlen)
{
    struct pz_trace_file f;

    memset(&f, 0, sizeof(f));
    memset(defs, 0, sizeof(*defs));
    pz_trace_file_open(&f, path, defs);
    pz_trace_file_close(&f);
    if (!f.error[0])
        return 0;
    snprintf(err, errlen, "%s", f.error);
    return -1;
}

char *pz_trace_file_partial(const struct pz_trace_file *f)
{
    uint32_t n = 0;
    char **names = NULL, *value = NULL, *endings = NULL;

    if (!f->otf || OTF2_Reader_GetPropertyNames(f->otf, &n, &names) != OTF2_SUCCESS)
        return NULL;
    for (uint32_t i = 0; i < n && !endings; i++)
        if (!strcmp(names[i], PZ_PARTIAL_PROPERTY) &&
            OTF2_Reader_GetProperty(f->otf, PZ_PARTIAL_PROPERTY, &value) == OTF2_SUCCESS) {
            endings = strdup(value);
            free(value);
        }
    free(names);
    return endings;
}
