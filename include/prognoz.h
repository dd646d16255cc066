/* prognoz: the public header of MPI programs recorded by prognoz.
 *
 * Recording needs no change to a program: run it with libprognoz.so preloaded
 * (`prognoz record -o DIR -- mpiexec -n 4 ./app`).  This header only gives the version;
 * the interval markers PROGNOZ_BEGIN/PROGNOZ_END come with the analysis of intervals.
 */
#ifndef PROGNOZ_H
#define PROGNOZ_H

#define PROGNOZ_VERSION_MAJOR 0
#define PROGNOZ_VERSION_MINOR 1

#endif
