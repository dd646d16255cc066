/* Quantities written by people in machine files: times ("50us"), bandwidths
 * ("12.5MB/s", "1Gbit/s") and sizes ("64KiB").  Decimal prefixes are powers of 1000,
 * binary ones (Ki, Mi, Gi) powers of 1024; bits are an eighth of a byte. */
#ifndef PZ_UNITS_H
#define PZ_UNITS_H

/* Each returns 0 and the value in SI base units (seconds, bytes per second, bytes), or
 * -1 if text is not such a quantity.  Negative values are refused. */
int pz_parse_time(const char *text, double *seconds);
int pz_parse_bandwidth(const char *text, double *bytes_per_second);
int pz_parse_bytes(const char *text, double *bytes);

#endif
