/* JSON output shared by the reports that write JSON (report_json.c, report_profile.c,
 * report_compare.c). */
#ifndef PZ_JSON_H
#define PZ_JSON_H

#include <stdio.h>

/* Writes s as a JSON string: quoted, with '"' and '\\' escaped by a backslash and the
 * control characters below 0x20 as \uXXXX; every other byte as it is. */
void pz_json_string(FILE *out, const char *s);

#endif
