/* A map of processes to nodes, from a file named by a machine file's `node_map` key:
 * the node of rank 0, of rank 1, ... as whole numbers separated by blanks or lines, `#`
 * starting a comment. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "machine.h"

static int append(struct pz_machine *m, long node)
{
    if ((m->node_map_size & (m->node_map_size - 1)) == 0) {
        int cap = m->node_map_size ? 2 * m->node_map_size : 16;
        int *grown = realloc(m->node_map, (size_t)cap * sizeof(int));

        if (!grown)
            return -1;
        m->node_map = grown;
    }
    m->node_map[m->node_map_size++] = (int)node;
    return 0;
}

/* The numbers of one line; 0, or -1 with the reason in why. */
static int parse_line(struct pz_machine *m, char *line, char *why, size_t len)
{
    char *hash = strchr(line, '#'), *s = line;

    if (hash)
        *hash = '\0';
    while (*s) {
        char *end;
        long node;

        if (isspace((unsigned char)*s)) {
            s++;
            continue;
        }
        node = strtol(s, &end, 10);
        if (end == s || (*end && !isspace((unsigned char)*end)) || node < 0 || node > 1000000) {
            snprintf(why, len, "'%.*s': expected a node number (0, 1, ...)",
                     (int)strcspn(s, " \t\r\n"), s);
            return -1;
        }
        if (append(m, node) != 0) {
            snprintf(why, len, "out of memory");
            return -1;
        }
        s = end;
    }
    return 0;
}

/* A path relative to the machine file is taken from the machine file's directory. */
static void resolve(const char *machine_file, const char *path, char *out, size_t len)
{
    const char *slash = strrchr(machine_file, '/');

    if (path[0] == '/' || !slash)
        snprintf(out, len, "%s", path);
    else
        snprintf(out, len, "%.*s/%s", (int)(slash - machine_file), machine_file, path);
}

/* A map of a million ranks takes a few MiB: a larger file is a mistake, and a device
 * such as /dev/zero would never end. */
#define MAX_MAP_BYTES (64L << 20)

/* Opens the map at full for reading if it is a regular file of at most MAX_MAP_BYTES;
 * NULL with the reason in why.  O_NONBLOCK keeps a FIFO from blocking the open. */
static FILE *open_map(const char *path, const char *full, char *why, size_t len)
{
    int fd = open(full, O_RDONLY | O_NONBLOCK);
    const char *problem = NULL;
    struct stat st;
    FILE *f;

    if (fd < 0 || fstat(fd, &st) != 0)
        problem = strerror(errno);
    else if (!S_ISREG(st.st_mode))
        problem = "not a regular file";
    else if (st.st_size > MAX_MAP_BYTES)
        problem = "larger than 64 MiB";
    else if (!(f = fdopen(fd, "r")))
        problem = strerror(errno);
    else
        return f;
    snprintf(why, len, "node_map = '%s': %s: %s", path, full, problem);
    if (fd >= 0)
        close(fd);
    return NULL;
}

int pz_node_map_load(struct pz_machine *m, const char *machine_file, const char *path,
                     char *why, size_t len)
{
    char full[4096], line[1024];
    FILE *f;
    int lineno = 0, rc = 0;

    resolve(machine_file, path, full, sizeof(full));
    if (!(f = open_map(path, full, why, len)))
        return -1;
    free(m->node_map);
    m->node_map = NULL;
    m->node_map_size = 0;
    while (rc == 0 && fgets(line, sizeof(line), f)) {
        char reason[256];

        lineno++;
        if (!strchr(line, '\n') && !feof(f)) {
            snprintf(reason, sizeof(reason), "line longer than %zu bytes", sizeof(line) - 2);
            rc = -1;
        } else {
            rc = parse_line(m, line, reason, sizeof(reason));
        }
        if (rc != 0)
            snprintf(why, len, "node_map = '%s': %s:%d: %s", path, full, lineno, reason);
    }
    fclose(f);
    if (rc == 0 && m->node_map_size == 0) {
        snprintf(why, len, "node_map = '%s': %s: no node numbers", path, full);
        rc = -1;
    }
    return rc;
}

void pz_machine_release(struct pz_machine *m)
{
    free(m->node_map);
    m->node_map = NULL;
    m->node_map_size = 0;
}
