/* The trace's folder: a staging folder per run, and the finished trace put in place. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime.h"
#include "trace_dir.h"

/* The files of an OTF2 archive named "traces", as OTF2 writes them. */
static const char *const top_files[] = { "traces.otf2", "traces.def" };
#define LOCATIONS_DIR "traces"

/* path = dir/name, PATH_MAX bytes at most; -1 and errno if too long. */
static int in_dir(char *path, const char *dir, const char *name)
{
    if (snprintf(path, PATH_MAX, "%s/%s", dir, name) >= PATH_MAX) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return 0;
}

static int make_dirs(const char *dir)
{
    char path[PATH_MAX];

    if (snprintf(path, sizeof(path), "%s", dir) >= (int)sizeof(path)) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = path + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            if (mkdir(path, 0777) != 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    }
    return mkdir(path, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

int pz_trace_dir_stage(const char *dir, char *stage)
{
    if (make_dirs(dir) == 0 && in_dir(stage, dir, ".prognoz-new-XXXXXX") == 0 && mkdtemp(stage))
        return 0;
    stage[0] = '\0';
    return errno;
}

/* Whether name is one prognoz writes in traces/: digits, then ".evt", ".def" or
 * ".evt.saved" (checkpoint.h). */
static int is_location_file(const char *name)
{
    const char *p = name;

    while (*p >= '0' && *p <= '9')
        p++;
    return p > name && (strcmp(p, ".evt") == 0 || strcmp(p, ".def") == 0 ||
                        strcmp(p, ".evt.saved") == 0);
}

/* Appends 'name' to the list kept (size bytes), ", " between names, "..." once the
 * next name would not fit (room for ", ..." is always left). */
static void list_name(char *kept, size_t size, const char *name)
{
    size_t len = strlen(kept), need = strlen(name) + (len ? 4 : 2);

    if (len + need + 6 <= size)
        snprintf(kept + len, size - len, "%s'%s'", len ? ", " : "", name);
    else if (len < 3 || strcmp(kept + len - 3, "...") != 0)
        snprintf(kept + len, size - len, "%s...", len ? ", " : "");
}

/* Removes the location files of folder (regular files only); returns the number of
 * entries left in it, listed in kept (size bytes), or -1 if it cannot be read. */
static int remove_location_files(const char *folder, char *kept, size_t size)
{
    DIR *d = opendir(folder);
    struct dirent *e;
    char path[PATH_MAX];
    struct stat st;
    int left = 0;

    if (!d)
        return -1;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (is_location_file(e->d_name) && in_dir(path, folder, e->d_name) == 0 &&
            lstat(path, &st) == 0 && S_ISREG(st.st_mode) && unlink(path) == 0)
            continue;
        list_name(kept, size, e->d_name);
        left++;
    }
    closedir(d);
    return left;
}

/* Moves dir/traces aside to a new folder dir/traces.kept-XXXXXX: a folder replaces
 * the empty one mkdtemp made, anything else goes inside it.  Warns once what was kept
 * (names: the entries of the folder) and where. */
static int move_aside(const char *old, const char *dir, int is_folder, const char *names)
{
    char aside[PATH_MAX], to[PATH_MAX];

    if (in_dir(aside, dir, LOCATIONS_DIR ".kept-XXXXXX") != 0 || !mkdtemp(aside))
        return -1;
    strcpy(to, aside);
    if ((!is_folder && in_dir(to, aside, LOCATIONS_DIR) != 0) || rename(old, to) != 0) {
        rmdir(aside);
        return -1;
    }
    if (is_folder)
        pz_runtime_warn("'%s' held files prognoz does not write (%s): they are kept in '%s'",
                        old, *names ? names : "unreadable", aside);
    else
        pz_runtime_warn("'%s' is not a folder of prognoz files: it is kept in '%s'", old, to);
    return 0;
}

/* Clears the way for the new traces/: an old one is removed when it held only location
 * files, else moved aside with what else it held (its location files removed first, as
 * they belong to the trace being replaced). */
static int clear_locations(const char *dir)
{
    char old[PATH_MAX], names[256] = "";
    struct stat st;

    if (in_dir(old, dir, LOCATIONS_DIR) != 0)
        return -1;
    if (lstat(old, &st) != 0)
        return errno == ENOENT ? 0 : -1;
    if (S_ISDIR(st.st_mode) && remove_location_files(old, names, sizeof(names)) == 0 &&
        rmdir(old) == 0)
        return 0;
    return move_aside(old, dir, S_ISDIR(st.st_mode), names);
}

void pz_trace_dir_unstage(const char *stage)
{
    char path[PATH_MAX], names[1] = "";

    if (in_dir(path, stage, LOCATIONS_DIR) == 0 && remove_location_files(path, names, 1) == 0)
        rmdir(path);
    for (size_t i = 0; i < sizeof(top_files) / sizeof(top_files[0]); i++)
        if (in_dir(path, stage, top_files[i]) == 0)
            unlink(path);
    rmdir(stage);
}

static int move_in(const char *stage, const char *dir, const char *name)
{
    char from[PATH_MAX], to[PATH_MAX];

    if (in_dir(from, stage, name) != 0 || in_dir(to, dir, name) != 0)
        return -1;
    return rename(from, to);
}

int pz_trace_dir_install(const char *stage, const char *dir)
{
    /* the anchor last: until it is replaced, readers see the old one */
    int ok = clear_locations(dir) == 0 && move_in(stage, dir, LOCATIONS_DIR) == 0;

    for (size_t i = sizeof(top_files) / sizeof(top_files[0]); ok && i-- > 0;)
        ok = move_in(stage, dir, top_files[i]) == 0;
    if (!ok) {
        pz_runtime_warn("cannot put the trace in place in '%s': %s; it is left in '%s'", dir,
                        strerror(errno), stage);
        return -1;
    }
    rmdir(stage);
    return 0;
}
