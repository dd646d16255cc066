# Checkpoints (programs/partial_kill.c on 2 ranks, PROGNOZ_FLUSH_INTERVAL=1): the first
# barrier after the program's 1.5 s sleep takes one on each rank.
# kill: rank 1 dies of SIGKILL, where no handler runs, and rank 0 is killed by mpiexec
#   (MPICH's hydra: SIGKILL): the assembled trace holds exactly the calls up to the
#   checkpoint, MPI_Init, MPI_Comm_rank and four MPI_Barrier, and says both were killed.
# term: rank 1 dies of SIGTERM, caught: its trace holds every call, the events saved at
#   the checkpoint joined to those after it; its barriers after rank 0's last checkpoint
#   have no partner: predict replays the run up to the first of them and says so.
# finalize: a whole run taking checkpoints leaves a whole trace, and nothing else.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

prog=$(pz_program partial_kill) || exit 77

# run MODE: prognoz record of MODE into $PZ_WORK/MODE; sets rc
run() {
    PROGNOZ_FLUSH_INTERVAL=1 PROGNOZ_LIB=$PZ_LIB pz_mpiexec "$PZ_PROGNOZ" record -o "$PZ_WORK/$1" -- \
        "$MPIEXEC" -n 2 "$prog" "$1" >"$PZ_WORK/$1.out" 2>"$PZ_WORK/$1.err"
    rc=$?
}

# expect_calls MODE RANK CALLS...: the functions RANK called, in order, are CALLS
expect_calls() {
    _m=$1 _r=$2
    shift 2
    pz_expect_eq "$_m: the calls of rank $_r" "$*" \
        "$(pz_calls "$_m" "$_r" | cut -d' ' -f1 | tr '\n' ' ' | sed 's/ $//')"
}

# first_line MODE: the first line of prognoz report on MODE's trace
first_line() {
    "$PZ_PROGNOZ" report "$PZ_WORK/$1" >"$PZ_WORK/$1.report" 2>"$PZ_WORK/$1.report.err" ||
        pz_fail "$1: prognoz report fails: $(cat "$PZ_WORK/$1.report.err")"
    head -n 1 "$PZ_WORK/$1.report"
}

killed="killed by an unknown signal (SIGKILL?): recorded until its last flush"
upto="MPI_Init MPI_Comm_rank MPI_Barrier MPI_Barrier MPI_Barrier MPI_Barrier"
# the time the checkpoint took shows as a flush of the buffer ("!")
all="$upto ! MPI_Barrier MPI_Barrier"

# bare_MODE: the exit status of mpiexec running MODE without prognoz
for mode in kill term; do
    pz_mpiexec -n 2 "$prog" $mode >/dev/null 2>&1
    eval "bare_$mode=$?"
done

run kill
pz_expect_eq "kill: exit status as without prognoz" "$bare_kill" "$rc"
pz_trace kill
expect_calls kill 0 $upto
expect_calls kill 1 $upto
pz_expect_eq "kill: first line of the report" \
    "Partial trace: the run ended without MPI_Finalize (0: $killed; 1: $killed); what was in progress then ends at the last event of its process" \
    "$(first_line kill)"

# predict and export say it in the same line (export on stderr), and predict's JSON
# carries it as report's does
notice="Partial trace: the run ended without MPI_Finalize (0: $killed; 1: $killed); what was in progress then ends at the last event of its process"
ideal=$PZ_TOP_SRCDIR/tests/integration/ideal.conf
"$PZ_PROGNOZ" predict --machine "$ideal" "$PZ_WORK/kill" >"$PZ_WORK/kill.predict" 2>"$PZ_WORK/kill.predict.err" ||
    pz_fail "kill: prognoz predict fails: $(cat "$PZ_WORK/kill.predict.err")"
pz_expect_eq "kill: the line of predict after its machine" "$notice" "$(sed -n 2p "$PZ_WORK/kill.predict")"
"$PZ_PROGNOZ" predict --format json --machine "$ideal" "$PZ_WORK/kill" >"$PZ_WORK/kill.predict.json" ||
    pz_fail "kill: prognoz predict --format json fails"
grep -q '^"recorded": {"partial": {"processes": \[{"rank": 0, "ended": ' "$PZ_WORK/kill.predict.json" ||
    pz_fail "kill: the JSON of predict has no \"partial\""
"$PZ_PROGNOZ" export --simgrid "$PZ_WORK/kill.simgrid" --machine "$ideal" "$PZ_WORK/kill" \
    >/dev/null 2>"$PZ_WORK/kill.export.err" || pz_fail "kill: prognoz export fails: $(cat "$PZ_WORK/kill.export.err")"
pz_expect_eq "kill: the line of export on stderr" "prognoz export: $notice" \
    "$(head -n 1 "$PZ_WORK/kill.export.err")"

run term
pz_expect_eq "term: exit status as without prognoz" "$bare_term" "$rc"
pz_trace term
expect_calls term 0 $upto
expect_calls term 1 $all
pz_expect_eq "term: first line of the report" \
    "Partial trace: the run ended without MPI_Finalize (0: $killed; 1: killed by signal 15 (SIGTERM)); what was in progress then ends at the last event of its process" \
    "$(first_line term)"
# rank 1's barriers after rank 0's recording ended cannot be replayed: predict replays
# the run up to them and says where it ended
"$PZ_PROGNOZ" predict --machine "$ideal" "$PZ_WORK/term" >"$PZ_WORK/term.predict" 2>"$PZ_WORK/term.predict.err" ||
    pz_fail "term: prognoz predict fails: $(cat "$PZ_WORK/term.predict.err")"
pz_expect_eq "term: what predict says of its end" \
    "prognoz predict: the recording is partial: on ideal the replay ends at S s, where rank 1 waits in MPI_Barrier (the whole run), for a process whose recording had ended; what was recorded after that is not predicted" \
    "$(sed 's/ends at [0-9.]* s/ends at S s/' "$PZ_WORK/term.predict.err")"
# rank 1's four barriers replayed (its fifth is where it waits), as rank 0's
pz_expect_eq "term: the predicted run's collectives" "Trace: 2 processes, 0 messages, 4 collective operations" \
    "$(sed -n 3p "$PZ_WORK/term.predict")"

run finalize
pz_expect_eq "finalize: exit status" 0 "$rc"
pz_trace finalize
expect_calls finalize 0 $all MPI_Finalize
expect_calls finalize 1 $all MPI_Finalize
case $(first_line finalize) in
Partial*) pz_fail "finalize: a whole run is reported partial" ;;
esac

for m in kill term finalize; do
    if ls -d "$PZ_WORK/$m"/.prognoz-new-* >/dev/null 2>&1; then
        pz_fail "$m: the staging folder is left after the run"
    fi
    if ls "$PZ_WORK/$m"/traces/*.saved >/dev/null 2>&1; then
        pz_fail "$m: a saved event file is left in the trace"
    fi
done

# an interval that is no number of seconds: one warning, from rank 0, and the default
p2p=$(pz_program p2p) || exit 77
PZ_ENV=PROGNOZ_FLUSH_INTERVAL=-1 pz_record badinterval 2 "$p2p" || pz_fail "badinterval: the run fails"
pz_expect_eq "badinterval: the warnings" \
    "prognoz: warning: PROGNOZ_FLUSH_INTERVAL='-1' is not a number of seconds from 0 to 1000000; using 10" \
    "$(grep 'warning' "$PZ_WORK/badinterval.err")"
