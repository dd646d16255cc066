# Call sites (PROGNOZ_CALLSITES=1) name the program's source file and the line of each
# MPI call, on 2 ranks: from C (programs/csites.c), the wrapper's return address; from
# Fortran (programs/fsites.f90 through use mpi_f08, whose routines the recorder wraps
# itself, fsites_f77.f90 through mpif.h and fsites_mpi.f90 through use mpi, both through
# MPICH's libmpichfort), the program's call of the binding, never a line of the binding
# or of the recorder.  prognoz report's JSON lists every site with its calls over both
# ranks.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

PY=${PZ_PYTHON:-python3}
SRC=$(cd "$PZ_TOP_SRCDIR/tests/programs" && pwd -P) || pz_fail "no tests/programs"

# sites NAME: the call sites of the report of trace NAME, one "FILE:LINE FUNCTION CALLS"
# a line, the file resolved to a physical path, in order of file and line.
sites() {
    "$PZ_PROGNOZ" report "$PZ_WORK/$1" --format json >"$PZ_WORK/$1.json" ||
        pz_fail "$1: prognoz report --format json fails"
    "$PY" - "$PZ_WORK/$1.json" <<'PYEOF' || pz_fail "$1: the report's call sites cannot be read"
import json, os, sys

with open(sys.argv[1]) as f:
    sites = json.load(f)["callsites"]
for s in sorted(sites, key=lambda s: (s["file"], s["line"])):
    print("%s:%d %s %d" % (os.path.realpath(s["file"]), s["line"], s["function"], s["calls"]))
PYEOF
}

# at FILE MARK FUNCTION CALLS: the expected line of the call marked MARK in FILE.
at() {
    echo "$SRC/$1:$(pz_line "$SRC/$1" "@$2") $3 $4"
}

prog=$(pz_program csites) || exit 77
PZ_ENV=PROGNOZ_CALLSITES=1 pz_record_ok csites 2 "$prog"
pz_expect_eq "csites' output" "csites: 14" "$(cat "$PZ_WORK/csites.out")"
expected=$(
    at csites.c c_rank MPI_Comm_rank 2
    at csites.c c_send MPI_Send 1
    at csites.c c_recv MPI_Recv 1
    at csites.c c_allreduce MPI_Allreduce 2
)
pz_expect_eq "call sites of the C program" "$expected" "$(sites csites)"

prog=$(pz_program fsites) || exit 77
PZ_ENV=PROGNOZ_CALLSITES=1 pz_record_ok fsites 2 "$prog"
# rank 0 prints the sum of ranks + 1 (3) after the use mpi part's sum of ranks (1)
pz_expect_eq "fsites' output" "fsites_mpi: 1
fsites: 3" "$(cat "$PZ_WORK/fsites.out")"
expected=$(
    at fsites.f90 f08_rank MPI_Comm_rank 2
    at fsites.f90 f08_barrier MPI_Barrier 2
    at fsites.f90 f08_allreduce MPI_Allreduce 2
    at fsites_f77.f90 f77_send MPI_Send 1
    at fsites_f77.f90 f77_recv MPI_Recv 1
    at fsites_f77.f90 f77_bcast MPI_Bcast 2
    at fsites_mpi.f90 mpi_allreduce MPI_Allreduce 2
    at fsites_mpi.f90 mpi_barrier MPI_Barrier 2
)
pz_expect_eq "call sites of the Fortran program" "$expected" "$(sites fsites)"
