# The recorder of Open MPI programs, libprognoz-openmpi.so, on programs of tests/programs
# built by mpicc.openmpi (integration/openmpi.mk) and run by mpiexec.openmpi on 2 ranks:
#  (a) p2p.sh, coll.sh, requests.sh, the interval markers' intervals.sh,
#      markers_misuse.sh and markers_disabled.sh, and the Fortran fortran.sh ('use
#      mpi': send, receive, broadcast, allreduce, Irecv/Isend/Waitall, barrier),
#      fortran_f08.sh ('use mpi_f08') and fortran_markers.sh (prognoz.fh), unchanged, with Open MPI's library, programs
#      and mpiexec (PZ_MPI=openmpi, lib.sh): every call, peer, tag, length, byte count
#      and interval recorded exactly as for MPICH (make check-openmpi runs more);
#  (b) prognoz record picks libprognoz-openmpi.so by itself (PROGNOZ_LIBDIR, no
#      PROGNOZ_LIB) and says so in one line: the trace names Open MPI as its MPI
#      library, has as many calls as p2p makes, and report says of it what it says of
#      the same program recorded with MPICH; predict runs on it; --quiet leaves out the
#      line; an MPICH program gets the MPICH recorder, said so;
#  (c) without libprognoz-openmpi.so in PROGNOZ_LIBDIR, record names the missing
#      library in one line and exits 1;
#  (d) a Fortran program ('use mpi') is recorded by prognoz record with Open MPI's
#      recorder, each call once;
#  (e) a program linked only with a library of its own that is linked with Open MPI
#      (as one linked with ScaLAPACK or PETSc is) gets Open MPI's recorder, said so, and
#      its calls are recorded;
#  (f) a program that no word of the command names, started by a shell as an
#      interpreter starts the MPI it loads (python with mpi4py), under Open MPI's
#      mpiexec, gets Open MPI's recorder from the launcher, said so, and its calls are
#      recorded; and so under a launcher linked as Open MPI 5's mpiexec is (libopen-pal,
#      no MPI library), which runs Open MPI's mpiexec;
#  (g) prognoz calibrate under Open MPI's mpiexec runs the calibration program built
#      with Open MPI (PROGNOZ_CALIBRATE's name followed by -openmpi): one MPI job of 2
#      ranks, whose machine file names Open MPI and has a latency and a bandwidth;
#  (g2) the calibration program is chosen by the mpiexec that started the process: an
#      MPICH job started from inside an Open MPI one (which inherits Open MPI's
#      variables) runs MPICH's, an Open MPI job inside an MPICH one (which inherits
#      MPICH's PMI_FD: only the parent tells) Open MPI's, Open MPI's mpiexec through a
#      shell Open MPI's;
#  (h) a job whose 2 processes start 2 more with MPI_Comm_spawn runs as without the
#      recorder; the trace is the 2 parents' (MPI_Barrier, no MPI_Allreduce of the
#      children, whose ranks would have written over theirs), and one line says that
#      the spawned processes are not recorded;
#  (i) a program of one MPI started by the other's mpiexec (each process then starts
#      alone, as a run of 1) gets a warning saying so, in both directions, after the
#      recorder's line; a program started by its own MPI's mpiexec gets none.
# Skipped when configure found no Open MPI.  As root, Open MPI is allowed to run by the
# two variables it documents for containers.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

test -n "${PZ_OPENMPI_LIB:-}" ||
    pz_skip "configure found no Open MPI: libprognoz-openmpi.so is not built"
test -r "$PZ_OPENMPI_LIB" || pz_skip "the recorder '$PZ_OPENMPI_LIB' is not built"
test -x "${PZ_PROGNOZ:-}" || pz_skip "prognoz is not built"
programs=$PZ_PROGRAMS
mpich_p2p=$(pz_program p2p) || exit 77
p2p=$(pz_program openmpi/p2p) || exit 77
if test "$(id -u)" = 0; then
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
fi
# 2 ranks on a machine of one core too (mpiexec --oversubscribe)
OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_rmaps_base_oversubscribe
unset PROGNOZ_DIR PROGNOZ_LIB LD_PRELOAD

# (a)
for t in p2p coll requests intervals markers_misuse markers_disabled \
    fortran fortran_f08 fortran_markers; do
    PZ_MPI=openmpi PZ_PROGRAMS=$programs \
        sh "$PZ_TOP_SRCDIR/tests/integration/$t.sh" >"$PZ_WORK/$t.log" 2>&1
    rc=$?
    # without a Fortran compiler, the Fortran tests skip
    if test $rc -eq 77 && test "$t" != "${t#fortran}"; then
        echo "$t.sh skipped with Open MPI: $(cat "$PZ_WORK/$t.log")"
    elif test $rc -ne 0; then
        cat "$PZ_WORK/$t.log" >&2
        pz_fail "integration/$t.sh with Open MPI: exit status $rc (above)"
    fi
done

# (b)
libdir=$(dirname "$PZ_OPENMPI_LIB")
PROGNOZ_LIBDIR=$libdir timeout "$PZ_TIMEOUT" "$PZ_PROGNOZ" record -o "$PZ_WORK/auto" -- \
    "$OPENMPI_MPIEXEC" --oversubscribe -n 2 "$p2p" >"$PZ_WORK/auto.out" 2>"$PZ_WORK/auto.err"
rc=$?
test $rc -eq 0 || { cat "$PZ_WORK/auto.err" >&2; pz_fail "auto: prognoz record exited with $rc"; }
test "$(grep -c . "$PZ_WORK/auto.err")" = 2 &&
    test "$(head -1 "$PZ_WORK/auto.err")" = "prognoz: recording with the Open MPI recorder (libmpi.so.40)" &&
    grep -q "^prognoz: recorded [0-9]* events of 2 processes in $PZ_WORK/auto/traces.otf2\$" "$PZ_WORK/auto.err" ||
    { cat "$PZ_WORK/auto.err" >&2; pz_fail "auto: expected the recorder's line, then the summary line on stderr"; }
pz_trace auto
for r in 0 1; do
    # the calls p2p.sh expects of each rank
    pz_expect_eq "auto: rank $r: number of calls" $((r == 0 ? 31 : 24)) "$(pz_calls auto $r | grep -c .)"
done
pz_print "$PZ_WORK/auto.info" -I "$PZ_WORK/auto/traces.otf2"
library=$(grep -A1 '^Property name  *PROGNOZ::MPI_LIBRARY$' "$PZ_WORK/auto.info" |
    sed -n 's/^Property value  *//p')
case $library in
"Open MPI v$OPENMPI_VERSION,"*) ;;
*) pz_fail "auto: the MPI library recorded is '$library', not Open MPI v$OPENMPI_VERSION" ;;
esac

pz_record_ok mpich 2 "$mpich_p2p"
for t in auto mpich; do
    "$PZ_PROGNOZ" report "$PZ_WORK/$t" >"$PZ_WORK/$t.report" 2>"$PZ_WORK/$t.report.err" ||
        { cat "$PZ_WORK/$t.report.err" >&2; pz_fail "$t: prognoz report failed"; }
done
pz_expect_eq "report's first line for Open MPI as for MPICH" "$(head -1 "$PZ_WORK/mpich.report")" \
    "$(head -1 "$PZ_WORK/auto.report")"
"$PZ_PROGNOZ" report "$PZ_WORK/auto" --format json -o "$PZ_WORK/auto.json" ||
    pz_fail "auto: prognoz report --format json failed"
grep -q "\"mpi_library\": \"Open MPI v$OPENMPI_VERSION" "$PZ_WORK/auto.json" ||
    pz_fail "auto: the JSON report does not name Open MPI v$OPENMPI_VERSION as the MPI library"
"$PZ_PROGNOZ" predict "$PZ_WORK/auto" --machine gigabit-switch >"$PZ_WORK/auto.predict" \
    2>"$PZ_WORK/auto.predict.err" ||
    { cat "$PZ_WORK/auto.predict.err" >&2; pz_fail "auto: prognoz predict failed"; }
test -s "$PZ_WORK/auto.predict" || pz_fail "auto: prognoz predict printed nothing"

PROGNOZ_LIBDIR=$libdir timeout "$PZ_TIMEOUT" "$PZ_PROGNOZ" record --quiet -o "$PZ_WORK/quiet" -- \
    "$OPENMPI_MPIEXEC" --oversubscribe -n 2 "$p2p" >"$PZ_WORK/quiet.out" 2>"$PZ_WORK/quiet.err" ||
    { cat "$PZ_WORK/quiet.err" >&2; pz_fail "quiet: prognoz record --quiet failed"; }
grep -v '^prognoz: recorded [0-9]* events of 2 processes in ' "$PZ_WORK/quiet.err" >&2 &&
    pz_fail "quiet: prognoz record --quiet wrote more than the summary line on stderr (above)"

# (c)
mkdir "$PZ_WORK/mpich_only"
cp "$PZ_LIB" "$PZ_WORK/mpich_only/"
PROGNOZ_LIBDIR=$PZ_WORK/mpich_only timeout "$PZ_TIMEOUT" "$PZ_PROGNOZ" record -o "$PZ_WORK/mpich_auto" -- \
    "$MPIEXEC" -n 2 "$mpich_p2p" >"$PZ_WORK/mpich_auto.out" 2>"$PZ_WORK/mpich_auto.err" ||
    { cat "$PZ_WORK/mpich_auto.err" >&2; pz_fail "mpich_auto: prognoz record failed"; }
mpich_lib=$(objdump -p "$mpich_p2p" | awk '$1 == "NEEDED" && $2 ~ /^libmpi/ { print $2; exit }')
pz_expect_eq "an MPICH program: the recorder's line" \
    "prognoz: recording with the MPICH recorder ($mpich_lib)" "$(head -1 "$PZ_WORK/mpich_auto.err")"
! grep -q warning "$PZ_WORK/mpich_auto.err" ||
    pz_fail "(i): an MPICH program under MPICH's mpiexec is warned of: $(cat "$PZ_WORK/mpich_auto.err")"
PROGNOZ_LIBDIR=$PZ_WORK/mpich_only "$PZ_PROGNOZ" record -o "$PZ_WORK/none" -- \
    "$OPENMPI_MPIEXEC" -n 2 "$p2p" >"$PZ_WORK/none.out" 2>"$PZ_WORK/none.err"
pz_expect_eq "record without Open MPI's recorder: exit status" 1 $?
pz_expect_eq "record without Open MPI's recorder: stderr" \
    "prognoz record: cannot read the recorder library '$PZ_WORK/mpich_only/libprognoz-openmpi.so': No such file or directory" \
    "$(cat "$PZ_WORK/none.err")"
test ! -e "$PZ_WORK/none" || pz_fail "record without Open MPI's recorder ran the program"

# (e), (f)
# record_via NAME LINE COMMAND...: prognoz record of COMMAND, which runs via on 2 ranks,
# into $PZ_WORK/NAME: the first line on stderr is LINE, and each rank made via's calls.
record_via() {
    _name=$1 _line=$2
    shift 2
    PROGNOZ_LIBDIR=$libdir timeout "$PZ_TIMEOUT" "$PZ_PROGNOZ" record -o "$PZ_WORK/$_name" -- "$@" \
        >"$PZ_WORK/$_name.out" 2>"$PZ_WORK/$_name.err" ||
        { cat "$PZ_WORK/$_name.err" >&2; pz_fail "$_name: prognoz record failed"; }
    pz_expect_eq "$_name: the recorder's line" "$_line" "$(head -1 "$PZ_WORK/$_name.err")"
    pz_trace "$_name"
    for r in 0 1; do
        pz_expect_eq "$_name: rank $r: calls" \
            "MPI_Init MPI_Comm_rank MPI_Comm_size MPI_Sendrecv MPI_Finalize" \
            "$(pz_calls "$_name" $r | awk '{ print $1 }' | tr '\n' ' ' | sed 's/ $//')"
    done
}

via=$programs/openmpi/via
test -x "$via" || pz_fail "(e): $via is not built"
objdump -p "$via" | awk '$1 == "NEEDED" { print $2 }' | grep -q '^libmpi' &&
    pz_fail "via: the program itself is linked with MPI; the test needs it linked through libvia"
record_via via "prognoz: recording with the Open MPI recorder (libmpi.so.40)" \
    "$OPENMPI_MPIEXEC" --oversubscribe -n 2 "$via"
pz_expect_eq "via's output" "via: received 0
via: received 1" "$(sort "$PZ_WORK/via.out")"

# (f): under Open MPI's mpiexec, and under a launcher linked as Open MPI 5's mpiexec
# (OPENMPI_MPIEXEC, exported by the test environment, names the mpiexec it runs)
no_program="prognoz: recording with the Open MPI recorder (no program of the command is \
linked with an MPI library;"
record_via by_launcher "$no_program $OPENMPI_MPIEXEC is Open MPI's mpiexec)" \
    "$OPENMPI_MPIEXEC" --oversubscribe -n 2 sh -c "exec $via"
launcher=$programs/openmpi/pal_launcher
test -x "$launcher" || pz_fail "(f): $launcher is not built"
objdump -p "$launcher" | awk '$1 == "NEEDED" { print $2 }' | grep -q '^libopen-pal' ||
    pz_fail "pal_launcher is not linked with libopen-pal"
record_via by_pal "$no_program $launcher is Open MPI's mpiexec)" \
    "$launcher" --oversubscribe -n 2 sh -c "exec $via"

# (g)
calibrate=$(dirname "$PZ_PROGNOZ")/prognoz-calibrate
test -x "$calibrate-openmpi" || pz_fail "(g): $calibrate-openmpi is not built"
PROGNOZ_CALIBRATE=$calibrate timeout "$PZ_TIMEOUT" "$OPENMPI_MPIEXEC" --oversubscribe -n 2 \
    "$PZ_PROGNOZ" calibrate --quick -o "$PZ_WORK/ompi.conf" >"$PZ_WORK/ompi_cal.out" \
    2>"$PZ_WORK/ompi_cal.err" ||
    { cat "$PZ_WORK/ompi_cal.out" "$PZ_WORK/ompi_cal.err" >&2; pz_fail "calibrate under Open MPI failed"; }
grep -q '^# MPI: Open MPI v' "$PZ_WORK/ompi.conf" ||
    pz_fail "calibrate under Open MPI: the machine file does not name Open MPI"
for key in latency bandwidth; do
    awk -v k=$key '$1 == k && $2 == "=" && $3 + 0 > 0 { found = 1 } END { exit !found }' \
        "$PZ_WORK/ompi.conf" || pz_fail "calibrate under Open MPI: no $key above 0"
done

# (g2): stand-ins for the two calibration programs say which one ran
printf '#!/bin/sh\necho mpich\n' >"$PZ_WORK/which"
printf '#!/bin/sh\necho openmpi\n' >"$PZ_WORK/which-openmpi"
chmod +x "$PZ_WORK/which" "$PZ_WORK/which-openmpi"
pz_expect_eq "(g2): calibrate in an MPICH job inside an Open MPI job" mpich \
    "$(PROGNOZ_CALIBRATE=$PZ_WORK/which timeout "$PZ_TIMEOUT" "$OPENMPI_MPIEXEC" -n 1 \
        "$MPIEXEC" -n 1 "$PZ_PROGNOZ" calibrate 2>&1)"
pz_expect_eq "(g2): calibrate in an Open MPI job inside an MPICH job" openmpi \
    "$(PROGNOZ_CALIBRATE=$PZ_WORK/which timeout "$PZ_TIMEOUT" "$MPIEXEC" -n 1 \
        "$OPENMPI_MPIEXEC" -n 1 "$PZ_PROGNOZ" calibrate 2>&1)"
pz_expect_eq "(g2): calibrate under Open MPI's mpiexec through a shell" openmpi \
    "$(PROGNOZ_CALIBRATE=$PZ_WORK/which timeout "$PZ_TIMEOUT" "$OPENMPI_MPIEXEC" -n 1 \
        sh -c "'$PZ_PROGNOZ' calibrate; exit \$?" 2>&1)"
pz_expect_eq "(g2): calibrate under MPICH's mpiexec" mpich \
    "$(PROGNOZ_CALIBRATE=$PZ_WORK/which timeout "$PZ_TIMEOUT" "$MPIEXEC" -n 1 \
        "$PZ_PROGNOZ" calibrate 2>&1)"

# (h)
PROGNOZ_LIBDIR=$libdir timeout "$PZ_TIMEOUT" "$PZ_PROGNOZ" record --quiet -o "$PZ_WORK/spawn" -- \
    "$OPENMPI_MPIEXEC" --oversubscribe -n 2 "$programs/openmpi/spawn" >"$PZ_WORK/spawn.out" \
    2>"$PZ_WORK/spawn.err" || { cat "$PZ_WORK/spawn.err" >&2; pz_fail "spawn: prognoz record failed"; }
pz_expect_eq "spawn's output" "child 0: 42
child 1: 42
parent 0
parent 1" "$(sort "$PZ_WORK/spawn.out")"
pz_expect_eq "spawn: the line saying the spawned processes are not recorded" 1 \
    "$(grep -c '^prognoz: warning: processes started by MPI_Comm_spawn are not recorded; the trace is of the processes that started them$' "$PZ_WORK/spawn.err")"
pz_trace spawn
for r in 0 1; do
    pz_expect_eq "spawn: rank $r: MPI_Barrier, MPI_Allreduce" "1 0" \
        "$(pz_calls spawn $r | grep -c '^MPI_Barrier') $(pz_calls spawn $r | grep -c '^MPI_Allreduce')"
done

# (i): one rank each, whose run (a program of 2 ranks alone) may fail: only the warning
# is looked at
ompi_lib=$(objdump -p "$p2p" | awk '$1 == "NEEDED" && $2 ~ /^libmpi\.so/ { print $2; exit }')
PROGNOZ_LIBDIR=$libdir timeout "$PZ_TIMEOUT" "$PZ_PROGNOZ" record -o "$PZ_WORK/crossed1" -- \
    "$MPIEXEC" -n 1 "$p2p" >/dev/null 2>"$PZ_WORK/crossed1.err"
pz_expect_eq "(i): an Open MPI program under MPICH's mpiexec" \
    "prognoz record: warning: $p2p is linked with Open MPI ($ompi_lib) but it is started by MPICH's mpiexec: each of its processes will run alone, as a run of 1 process, and they will write one trace over each other; start it with Open MPI's mpiexec (mpiexec.openmpi)" \
    "$(sed -n 2p "$PZ_WORK/crossed1.err")"
PROGNOZ_LIBDIR=$libdir timeout "$PZ_TIMEOUT" "$PZ_PROGNOZ" record -o "$PZ_WORK/crossed2" -- \
    "$OPENMPI_MPIEXEC" -n 1 "$mpich_p2p" >/dev/null 2>"$PZ_WORK/crossed2.err"
pz_expect_eq "(i): an MPICH program under Open MPI's mpiexec" \
    "prognoz record: warning: $mpich_p2p is linked with MPICH ($mpich_lib) but it is started by Open MPI's mpiexec: each of its processes will run alone, as a run of 1 process, and they will write one trace over each other; start it with MPICH's mpiexec (mpiexec.mpich)" \
    "$(sed -n 2p "$PZ_WORK/crossed2.err")"

# (d)
test -x "$programs/openmpi/fhello" || { echo "no Fortran program built for Open MPI: (d) skipped"; exit 0; }
PROGNOZ_LIBDIR=$libdir timeout "$PZ_TIMEOUT" "$PZ_PROGNOZ" record -o "$PZ_WORK/fhello" -- \
    "$OPENMPI_MPIEXEC" --oversubscribe -n 2 "$programs/openmpi/fhello" \
    >"$PZ_WORK/fhello.out" 2>"$PZ_WORK/fhello.err" ||
    { cat "$PZ_WORK/fhello.err" >&2; pz_fail "fhello: prognoz record failed"; }
# the dependency that told: libmpi.so.N, else (linked --as-needed) Open MPI's Fortran library
needed=$(objdump -p "$programs/openmpi/fhello" | awk '$1 == "NEEDED" { print $2 }')
told=$(echo "$needed" | grep '^libmpi\.so\.' || echo "$needed" | grep -m1 '^libmpi_')
pz_expect_eq "fhello: the recorder's line" "prognoz: recording with the Open MPI recorder ($told)" \
    "$(head -1 "$PZ_WORK/fhello.err")"
pz_expect_eq "fhello's output" "fhello: total 3" "$(cat "$PZ_WORK/fhello.out")"
pz_trace fhello
for r in 0 1; do
    {
        pz_fortran_calls $r
        printf '%s\n' "MPI_Barrier | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: BARRIER, Communicator: \"MPI_COMM_WORLD\", Root: NONE, Sent: 0, Received: 0" MPI_Finalize
    } | pz_expect_calls fhello $r
done
exit 0
