# prognoz export --simgrid on real runs, replayed by SimGrid's smpirun.
#
# The command's errors first (no trace, a missing trace, a bad machine file, an output
# directory holding an export already: one line on stderr each, status 2 for a usage
# error and 1 otherwise).  Then three recorded runs on 4 processes: programs/coll
# (every collective on MPI_COMM_WORLD), programs/coll with nonblocking collectives and
# programs/commsplit (collectives and messages on sub-communicators), exported on each
# machine of share/machines: the files are there, each rank's actions start with init
# and end with finalize.  If smpirun is installed (Debian's libsimgrid-dev, which
# scripts/setup.sh installs), each export is replayed with
#   smpirun -np 4 -platform OUT/platform.xml -hostfile OUT/hostfile -replay OUT/traces.txt
# and must complete; on the switched machine SimGrid's simulated time must be within 25%
# of prognoz predict's (here 2 to 3% apart): the bound catches a broken export.  Both
# make MPI_Init instantaneous, every process leaving it at the latest Enter of any
# (docs/predict.md), so what is compared is 10 to 20 ms of program, where SimGrid runs a
# nonblocking collective whole where it starts (docs/simgrid.md).
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

test -x "${PZ_PROGNOZ:-}" || pz_skip "the prognoz command '${PZ_PROGNOZ:-}' is not built"
coll=$(pz_program coll) || exit 77
split=$(pz_program commsplit) || exit 77
machines=$PZ_TOP_SRCDIR/share/machines
switch=$machines/gigabit-switch.conf
err=$PZ_WORK/export.err

# expect_error STATUS WHAT ARGS...: prognoz export ARGS fails with STATUS and one line
# on stderr mentioning WHAT.
expect_error() {
    _want=$1 _what=$2
    shift 2
    "$PZ_PROGNOZ" export "$@" >/dev/null 2>"$err"
    _st=$?
    test "$_st" -eq "$_want" || pz_fail "export $*: status $_st, expected $_want"
    grep -q -- "$_what" "$err" || pz_fail "export $*: no '$_what' in: $(cat "$err")"
    case $_want in
    1) test "$(wc -l <"$err")" -eq 1 || pz_fail "export $*: not one line: $(cat "$err")" ;;
    esac
}

expect_error 2 "no trace given" --simgrid "$PZ_WORK/x"
expect_error 2 "no --simgrid given" "$PZ_WORK/nothing"
expect_error 1 "$PZ_WORK/nothing" "$PZ_WORK/nothing" --simgrid "$PZ_WORK/x" --machine "$switch"
printf 'network = ring\n' >"$PZ_WORK/bad.conf"
expect_error 1 "bad.conf:1" "$PZ_WORK/nothing" --simgrid "$PZ_WORK/x" --machine "$PZ_WORK/bad.conf"

pz_record_ok coll 4 "$coll"
pz_record_ok nbc 4 "$coll" nonblocking
pz_record_ok split 4 "$split"

"$PZ_PROGNOZ" export "$PZ_WORK/coll" --simgrid "$PZ_WORK/once" --machine "$switch" \
    >"$PZ_WORK/once.out" 2>"$err" || pz_fail "export: $(cat "$err")"
grep -q "smpirun -np 4 -platform" "$PZ_WORK/once.out" || pz_fail "export: no smpirun command"
expect_error 1 "holds an export already" "$PZ_WORK/coll" --simgrid "$PZ_WORK/once" \
    --machine "$switch"

# export RUN MACHINE: RUN exported for MACHINE into $PZ_WORK/sg-RUN-MACHINE; prints it.
export_run() {
    _out=$PZ_WORK/sg-$1-$(basename "$2" .conf)
    "$PZ_PROGNOZ" export "$PZ_WORK/$1" --simgrid "$_out" --machine "$2" >/dev/null 2>"$err" ||
        pz_fail "export $1 for $2: $(cat "$err")"
    for _f in platform.xml hostfile traces.txt rank-0.txt rank-3.txt; do
        test -s "$_out/$_f" || pz_fail "export $1: no $_f"
    done
    test "$(wc -l <"$_out/traces.txt")" -eq 4 || pz_fail "export $1: traces.txt is not 4 lines"
    for _r in 0 1 2 3; do
        test "$(head -n 1 "$_out/rank-$_r.txt")" = "$_r init" || pz_fail "export $1: rank $_r starts with $(head -n 1 "$_out/rank-$_r.txt")"
        test "$(tail -n 1 "$_out/rank-$_r.txt")" = "$_r finalize" || pz_fail "export $1: rank $_r ends with $(tail -n 1 "$_out/rank-$_r.txt")"
    done
    echo "$_out"
}

for run in coll nbc split; do
    for conf in "$machines"/*.conf; do
        export_run "$run" "$conf" >/dev/null
    done
done
grep -q -- " -100000" "$PZ_WORK/sg-split-gigabit-switch/rank-0.txt" ||
    pz_fail "commsplit: no message of a sub-communicator collective"

command -v smpirun >/dev/null 2>&1 ||
    pz_skip "smpirun is not installed (Debian: libsimgrid-dev; scripts/setup.sh installs it)"

# simulated RUN MACHINE: SimGrid's simulated time of the export of RUN on MACHINE.
simulated() {
    _out=$PZ_WORK/sg-$1-$(basename "$2" .conf)
    (cd "$PZ_WORK" && timeout "$PZ_TIMEOUT" smpirun -np 4 -platform "$_out/platform.xml" \
        -hostfile "$_out/hostfile" -replay "$_out/traces.txt" >"$_out.log" 2>&1) ||
        pz_fail "smpirun $1 on $2: $(tail -n 5 "$_out.log")"
    sed -n 's/.*Simulation time \([0-9.e+-]*\).*/\1/p' "$_out.log" | tail -n 1
}

# predicted RUN MACHINE: prognoz predict's end of RUN on MACHINE.
predicted() {
    "$PZ_PROGNOZ" predict "$PZ_WORK/$1" --machine "$2" --format json 2>"$err" |
        sed -n 's/.*"prediction": {"end": \([0-9.e+-]*\),.*/\1/p'
}

for run in coll nbc split; do
    for conf in "$machines"/*.conf; do
        t=$(simulated "$run" "$conf")
        test -n "$t" || pz_fail "smpirun $run on $conf: no simulated time"
    done
    sg=$(simulated "$run" "$switch")
    pz=$(predicted "$run" "$switch")
    test -n "$pz" || pz_fail "predict $run: no predicted end: $(cat "$err")"
    awk -v a="$sg" -v b="$pz" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.25 * b) }' ||
        pz_fail "$run: SimGrid simulated $sg s, prognoz predicted $pz s"
    echo "$run on gigabit-switch: SimGrid $sg s, prognoz $pz s"
done
exit 0
