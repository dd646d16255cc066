/* Machine files: `key = value` per line, `#` starts a comment, blank lines are ignored.
 * Each key has a kind of value (machine_keys.c); a wrong key, unit or value is reported
 * with file and line and what was expected. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine_keys.h"

void pz_machine_defaults(struct pz_machine *m)
{
    char why[256];

    memset(m, 0, sizeof(*m));
    for (int k = 0; k < PZ_NKEYS; k++)
        if (pz_machine_keys[k].fallback)
            pz_key_store(m, &pz_machine_keys[k], "", pz_machine_keys[k].fallback, why,
                         sizeof(why));
}

static char *trim(char *s)
{
    char *end;

    while (isspace((unsigned char)*s))
        s++;
    end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1]))
        *--end = '\0';
    return s;
}

/* One line of the file: "" if it is fine, else what is wrong with it in why. */
static int parse_line(struct pz_machine *m, const char *path, char *line, char *why,
                      size_t len)
{
    char *hash = strchr(line, '#'), *eq, *name, *value;

    if (hash)
        *hash = '\0';
    if (!*trim(line))
        return 0;
    if (!(eq = strchr(line, '='))) {
        snprintf(why, len, "expected 'key = value'");
        return -1;
    }
    *eq = '\0';
    name = trim(line);
    value = trim(eq + 1);
    for (int k = 0; k < PZ_NKEYS; k++)
        if (!strcmp(name, pz_machine_keys[k].name))
            return pz_key_store(m, &pz_machine_keys[k], path, value, why, len);
    snprintf(why, len, "unknown key '%s' (docs/machines.md lists the keys)", name);
    return -1;
}

int pz_machine_load(const char *path, struct pz_machine *m, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    char line[1024], why[1024];
    int lineno = 0, rc = 0;

    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    while (rc == 0 && fgets(line, sizeof(line), f)) {
        lineno++;
        if (parse_line(m, path, line, why, sizeof(why)) != 0) {
            snprintf(err, errlen, "%s:%d: %s", path, lineno, why);
            rc = -1;
        }
    }
    fclose(f);
    if (rc == 0 && !pz_key_packet_fits(m)) {
        snprintf(err, errlen, "%s: packet_header must be smaller than packet_size", path);
        rc = -1;
    }
    if (rc == 0 && !pz_key_duplex_fits(m)) {
        snprintf(err, errlen, "%s: duplex_factor and duplex_factors apply to network = switch only (a bus "
                              "carries one transfer at a time, channels are full duplex)", path);
        rc = -1;
    }
    if (rc == 0 && !pz_key_gap_fits(m)) {
        snprintf(err, errlen, "%s: link_gap applies to link_hold = bytes only (with link_hold "
                              "= message a message holds the links for its whole time)", path);
        rc = -1;
    }
    return rc;
}
