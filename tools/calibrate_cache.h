/* The caches prognoz-calibrate sizes its cold buffers by (docs/calibrate.md, "Cold or
 * warm"): as the kernel describes them to this machine.  A virtual machine's processor
 * may report its host's whole last-level cache to sysconf (320 MiB here) where the
 * kernel's cache information gives the share its CPUs have (32 MiB). */
#ifndef PZ_CALIBRATE_CACHE_H
#define PZ_CALIBRATE_CACHE_H

/* Where the kernel describes the first CPU's caches. */
#define PZ_CAL_CACHE_SYSFS "/sys/devices/system/cpu/cpu0/cache"

/* The size in bytes of the cache of `level` (1, 2, 3 ...) described under dir, in the
 * kernel's layout: dir/indexN/level, dir/indexN/type ("Data", "Instruction" or
 * "Unified"; instruction caches are left out) and dir/indexN/size ("32768K"; K, M or
 * G, or bytes without a suffix), N from 0 to 15; the largest such cache of that level;
 * 0 if none is described, or none readably. */
double pz_cal_cache_level(const char *dir, int level);

/* The size of the highest level (4 down to 1) described under dir, as
 * pz_cal_cache_level reads it; 0 if none is. */
double pz_cal_cache_last_level(const char *dir);

/* The last-level cache of this machine: pz_cal_cache_last_level of PZ_CAL_CACHE_SYSFS,
 * else sysconf's third or second level; 0 if unknown. */
double pz_cal_cache_size(void);

#endif
