/* JSON output shared by the reports that write JSON (report_json.c, report_profile.c,
 * report_compare.c). */
#ifndef PZ_JSON_H
#define PZ_JSON_H

#include <stdio.h>

/* Writes s as a JSON string: quoted, with '"' and '\\' escaped by a backslash and the
 * control characters below 0x20 as \uXXXX; every other byte as it is. */
void pz_json_string(FILE *out, const char *s);

struct pz_analysis;

/* The version of the shape of prognoz's JSON documents, of every kind: raised when a
 * member changes meaning or goes away (a new member keeps it). */
#define PZ_JSON_FORMAT_VERSION 1

/* The members every JSON document of prognoz begins with, each followed by ",\n":
 * "format": {"name": name, "version": PZ_JSON_FORMAT_VERSION} and "prognoz": the
 * version of prognoz. */
void pz_json_format(FILE *out, const char *name);

/* pz_json_format, then "trace": a's path and "recording": what a's trace says of its
 * recording (docs/report.md, "JSON"). */
void pz_json_document_head(FILE *out, const char *name, const struct pz_analysis *a);

#endif
