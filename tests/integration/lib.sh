# Shared helpers of the MPI integration tests; each test script sources this file.
#
# A test runs one of the programs of tests/programs under mpiexec with the wrapper
# preloaded, then reads the trace with otf2-print.  pz_trace checks what must hold for
# every trace (otf2-print exits 0 and writes nothing to stderr, event counts agree with
# the definitions and with the wrapper's own summary, every location's timestamps are
# in order, ENTER and LEAVE pair up and nest) and writes each location's events as one
# line per MPI call, so a test can compare a whole location with what it expects:
#
#   MPI_Send | MPI_SEND Receiver: 1, Communicator: "MPI_COMM_WORLD", Tag: 5, Length: 8
#
# Timestamps and definition ids are left out, and request ids are renumbered #1, #2...
# per location in order of first appearance, so linked events show the same #k.
# An event's additional attributes follow it on the line as otf2-print shows them
# ("ADDITIONAL ATTRIBUTES: (...)"), without ids.  An event outside any call (a buffer
# flush) gets a line of its own starting with '!'.  Regions with the PHASE flag (the
# intervals of include/prognoz.h) nest around calls and each other: their ENTER is a
# line "> NAME", their LEAVE a line "< NAME", and they must nest properly.
#
# Exit codes: 0 pass, 77 skip, anything else fails (automake's convention).  The work
# files (traces, otf2-print output) are removed at exit unless PZ_KEEP is set; before,
# every JSON document of prognoz among them is validated against its schema
# (share/schema, tests/schema_check.py), and an invalid one fails the test.

set -u

# The attribute a receive posted with MPI_ANY_SOURCE carries, as a call's line shows it
# after its MPI_RECV or MPI_IRECV (docs/trace-format.md, prognoz:any_source).
PZ_ANY=' ADDITIONAL ATTRIBUTES: ("prognoz:any_source"; UINT8; 1)'

# pz_fail MESSAGE: fails the test.  Called in a subshell (the end of a pipeline), it
# leaves a mark that makes the test fail when it exits.
pz_fail() {
    echo "FAIL: $*" >&2
    test -n "${PZ_WORK:-}" && : >"$PZ_WORK/failed"
    exit 1
}

pz_skip() {
    echo "SKIP: $*" >&2
    exit 77
}

# PZ_MPI=openmpi (make check-openmpi): the test runs with Open MPI: its recorder
# (PZ_OPENMPI_LIB), its mpiexec (OPENMPI_MPIEXEC) and the programs built by Open MPI's
# compilers (PZ_PROGRAMS/openmpi, integration/openmpi.mk), on as many processes as it
# asks whatever the cores, allowed as root by the two variables Open MPI documents for
# containers.  Unset or mpich: MPICH's, as configured.
case ${PZ_MPI:-mpich} in
mpich) ;;
openmpi)
    test -n "${PZ_OPENMPI_LIB:-}" && test -r "$PZ_OPENMPI_LIB" ||
        pz_skip "configure found no Open MPI: libprognoz-openmpi.so is not built"
    PZ_LIB=$PZ_OPENMPI_LIB MPIEXEC=$OPENMPI_MPIEXEC PZ_PROGRAMS=$PZ_PROGRAMS/openmpi PZ_MPI=mpich
    OMPI_MCA_rmaps_base_oversubscribe=1
    export OMPI_MCA_rmaps_base_oversubscribe
    if test "$(id -u)" = 0; then
        OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
        export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
    fi
    ;;
*) pz_fail "PZ_MPI='$PZ_MPI': expected mpich or openmpi" ;;
esac

test -n "${MPIEXEC:-}" || pz_skip "MPIEXEC is not set (run the tests through make check)"
test -n "${OTF2_PRINT:-}" || pz_skip "OTF2_PRINT is not set: otf2-print was not found"
test -n "${PZ_LIB:-}" && test -r "$PZ_LIB" || pz_skip "the wrapper library '${PZ_LIB:-}' is not built"
test -n "${PZ_PROGRAMS:-}" || pz_skip "PZ_PROGRAMS is not set"

PZ_TIMEOUT=${PZ_TIMEOUT:-120}
# Recordings are not oversubscribed, whatever the cores of the machine that runs the
# tests, unless a test says otherwise (integration/recording.sh): the recorder notes this
# many cores per node.
PROGNOZ_CORES=${PROGNOZ_CORES:-1024}
export PROGNOZ_CORES
PZ_WORK=$(mktemp -d "${TMPDIR:-/tmp}/prognoz-it.XXXXXX") || pz_fail "mktemp failed"
# Open MPI's session directory in the test's own: two jobs starting at once (make -j2)
# race to make the shared /tmp/ompi.HOST.UID ("File exists", orte_init failed).
OMPI_MCA_orte_tmpdir_base=$PZ_WORK
export OMPI_MCA_orte_tmpdir_base
# pz_check_json: validates the JSON documents of prognoz in $PZ_WORK (the files that
# begin as one does); 1 if one is invalid.
pz_check_json() {
    _docs=$(grep -rl -m1 '^{"format": {"name": "prognoz-' "$PZ_WORK" 2>/dev/null)
    test -n "$_docs" || return 0
    # shellcheck disable=SC2086  # the paths are mktemp's, without blanks
    "${PZ_PYTHON:-python3}" "$PZ_TOP_SRCDIR/tests/schema_check.py" \
        "$PZ_TOP_SRCDIR/share/schema" $_docs >&2
    test $? -ne 1
}

# pz_predicted_ok NAME CHECK: predicts the recording $PZ_WORK/NAME on gigabit-switch as
# JSON per process twice, analyzed as it is predicted and from the trace written into
# $PZ_WORK/NAME-switch, and runs the Python program CHECK on each JSON (its path in
# sys.argv[1]); fails the test naming the way that does not pass.
pz_predicted_ok() {
    rm -rf "$PZ_WORK/$1-switch"
    for _out in "" "--trace-out $PZ_WORK/$1-switch"; do
        # shellcheck disable=SC2086 # $_out is an option and its argument, or nothing
        "$PZ_PROGNOZ" predict "$PZ_WORK/$1" --machine gigabit-switch --format json \
            --per-process --quiet $_out >"$PZ_WORK/$1.predict.json" 2>/dev/null ||
            pz_fail "$1: prognoz predict --format json $_out failed"
        "${PZ_PYTHON:-python3}" -c "$2" "$PZ_WORK/$1.predict.json" ||
            pz_fail "$1: the prediction's figures ($_out) are not the recorded ones"
    done
}

pz_exit() {
    _st=$1
    test -f "$PZ_WORK/failed" && test "$_st" -ne 1 && _st=1
    test "$_st" -eq 0 && ! pz_check_json && echo "FAIL: a JSON document does not follow its schema (above)" >&2 && _st=1
    if test -n "${PZ_KEEP:-}"; then
        echo "the work files are kept in $PZ_WORK" >&2
    else
        rm -rf "$PZ_WORK"
    fi
    exit "$_st"
}
trap 'pz_exit $?' EXIT
trap 'exit 1' HUP INT TERM

# pz_program NAME: path of the test program NAME; exits 77 if it was not built, so
# use it as: prog=$(pz_program NAME) || exit 77
pz_program() {
    test -x "$PZ_PROGRAMS/$1" || pz_skip "test program $PZ_PROGRAMS/$1 is not built"
    echo "$PZ_PROGRAMS/$1"
}

# pz_mpiexec ARGS...: mpiexec under the timeout.
pz_mpiexec() {
    timeout "$PZ_TIMEOUT" "$MPIEXEC" "$@"
}

# pz_launcher_err FILE: FILE, stderr of a run, without what changes from one run to the
# next in what mpiexec writes of a process that exited with a non-zero status (Open
# MPI's job id, and which process it names first).
pz_launcher_err() {
    sed 's/^\( *Process name: \).*/\1<process>/' "$1"
}

# pz_prognoz_ok OUT ARGS...: prognoz ARGS, which must exit 0 and write nothing to
# stderr, its stdout into $PZ_WORK/OUT.
pz_prognoz_ok() {
    _out=$PZ_WORK/$1
    shift
    timeout "$PZ_TIMEOUT" "$PZ_PROGNOZ" "$@" >"$_out" 2>"$_out.err" ||
        { cat "$_out.err" >&2; pz_fail "prognoz $* failed"; }
    test ! -s "$_out.err" || { cat "$_out.err" >&2; pz_fail "prognoz $*: output on stderr"; }
}

# pz_expect_trace_line NAME LINE: the report of the trace $PZ_WORK/NAME (report.txt),
# its prediction on tests/integration/ideal.conf (predict.txt, the predicted trace in
# $PZ_WORK/predicted) and the report of that trace (predicted.txt) each give the
# "Trace: " line LINE.
pz_expect_trace_line() {
    pz_prognoz_ok report.txt report "$PZ_WORK/$1"
    pz_expect_eq "report: first line" "$2" "$(head -n 1 "$PZ_WORK/report.txt")"
    rm -rf "$PZ_WORK/predicted"
    pz_prognoz_ok predict.txt predict "$PZ_WORK/$1" \
        --machine "$PZ_TOP_SRCDIR/tests/integration/ideal.conf" --trace-out "$PZ_WORK/predicted"
    pz_expect_eq "predict: its report's trace line" "$2" "$(grep '^Trace: ' "$PZ_WORK/predict.txt")"
    pz_prognoz_ok predicted.txt report "$PZ_WORK/predicted"
    pz_expect_eq "the predicted trace's report: first line" "$2" \
        "$(head -n 1 "$PZ_WORK/predicted.txt")"
}

# pz_record NAME NP PROG [ARGS...]: runs PROG on NP ranks with the wrapper preloaded and
# the trace in $PZ_WORK/NAME.  Its stdout goes to $PZ_WORK/NAME.out, stderr to
# NAME.err; the exit status is returned.  Extra environment: set PZ_ENV to a list of
# VAR=VALUE words before calling.
pz_record() {
    _name=$1 _np=$2
    shift 2
    rm -rf "$PZ_WORK/$_name"
    pz_mpiexec -n "$_np" env LD_PRELOAD="$PZ_LIB" PROGNOZ_DIR="$PZ_WORK/$_name" ${PZ_ENV:-} "$@" \
        >"$PZ_WORK/$_name.out" 2>"$PZ_WORK/$_name.err"
}

# pz_record_ok NAME NP PROG [ARGS...]: pz_record that must exit 0, leave exactly one
# summary line on stderr, and no other stderr output.
pz_record_ok() {
    _n=$1
    pz_record "$@"
    _rc=$?
    if test $_rc -ne 0; then
        cat "$PZ_WORK/$_n.out" "$PZ_WORK/$_n.err" >&2
        test $_rc -eq 124 && pz_fail "$_n: the job timed out after ${PZ_TIMEOUT}s"
        pz_fail "$_n: the traced job exited with status $_rc"
    fi
    if grep -v '^prognoz: recorded [0-9]* events of [0-9]* processes in ' "$PZ_WORK/$_n.err" >&2; then
        pz_fail "$_n: unexpected output on stderr (above)"
    fi
    test "$(grep -c '^prognoz: recorded' "$PZ_WORK/$_n.err")" = 1 ||
        pz_fail "$_n: expected exactly one 'prognoz: recorded' line on stderr"
    test -f "$PZ_WORK/$_n/traces.otf2" || pz_fail "$_n: no $PZ_WORK/$_n/traces.otf2"
}

# pz_print OUT ARGS...: otf2-print ARGS > OUT; fails the test if otf2-print exits
# nonzero or writes anything to stderr.
pz_print() {
    _out=$1
    shift
    "$OTF2_PRINT" "$@" >"$_out" 2>"$_out.stderr"
    _rc=$?
    if test $_rc -ne 0 || test -s "$_out.stderr"; then
        cat "$_out.stderr" >&2
        pz_fail "otf2-print $* exited with status $_rc and wrote the above to stderr"
    fi
    rm -f "$_out.stderr"
}

# pz_loc RANK [THREAD]: the OTF2 location id of a rank's thread (0: the master).
pz_loc() {
    echo $(( ${2:-0} * 4294967296 + $1 ))
}

# pz_trace NAME: reads $PZ_WORK/NAME/traces.otf2 (events, global and local definitions)
# and checks it; leaves NAME.events, NAME.defs, NAME.locdefs and NAME.calls.LOC files.
pz_trace() {
    _t=$PZ_WORK/$1
    pz_print "$_t.events" "$_t/traces.otf2"
    pz_print "$_t.defs" -G "$_t/traces.otf2"
    pz_print "$_t.locdefs" -M -C "$_t/traces.otf2"
    rm -f "$_t".calls.*
    awk -v prefix="$_t.calls." -v defs="$_t.defs" '
        function bad(msg) { print "trace: " msg > "/dev/stderr"; failed = 1 }
        BEGIN {
            while ((getline line < defs) > 0) {
                if (line ~ /^LOCATION /) {
                    split(line, f, " ")
                    n = line; sub(/.*# Events: /, "", n); sub(/,.*/, "", n)
                    declared[f[2]] = n + 0
                }
                if (line ~ /^REGION / && line ~ /Flags: [{][^}]*PHASE/) {
                    n = line; sub(/^[^"]*"/, "", n); sub(/".*/, "", n)
                    phase[n] = 1
                }
            }
            close(defs)
        }
        /^=== Events/ { in_events = 1; next }
        !in_events || /^Event / || /^-+$/ || /^=== / { next }
        /^ +ADDITIONAL ATTRIBUTES: / {
            attrs = $0
            sub(/^ +/, "", attrs)
            gsub(/ <[0-9]+>/, "", attrs)
            if (lastloc in open) cur[lastloc] = cur[lastloc] " " attrs
            else print "! " attrs > (prefix lastloc)
            next
        }
        NF < 3 { next }
        {
            ev = $1; loc = $2; ts = $3; lastloc = loc
            attrs = $0
            sub(/^[^ ]+ +[^ ]+ +[^ ]+ */, "", attrs)
            gsub(/ \("[^"]*" <[0-9]+>\)/, "", attrs)
            gsub(/ <[0-9]+>/, "", attrs)
            # a field named Request (not "Bytes Request" of the I/O events)
            while (match(attrs, /(^|, )Request: [0-9]+/)) {
                lead = substr(attrs, RSTART, 1) == "," ? 2 : 0
                id = substr(attrs, RSTART + lead + 9, RLENGTH - lead - 9)
                key = loc SUBSEP id
                if (!(key in req)) req[key] = ++nreq[loc]
                attrs = substr(attrs, 1, RSTART - 1 + lead) "Request: #" req[key] substr(attrs, RSTART + RLENGTH)
            }
            gsub(/Stop Time: [0-9]+/, "Stop Time: T", attrs)
            count[loc]++
            if ((loc in last) && ts + 0 < last[loc] + 0)
                bad("location " loc ": " ev " at " ts " is earlier than the event before it (" last[loc] ")")
            last[loc] = ts
            out = prefix loc
            region = attrs; sub(/^Region: "/, "", region); sub(/".*/, "", region)
            if ((ev == "ENTER" || ev == "LEAVE") && (region in phase)) {
                if (loc in open) bad("location " loc ": " ev " " region " inside " open[loc])
                if (ev == "ENTER") {
                    stack[loc, ++depth[loc]] = region
                    print "> " region > out
                } else if (!depth[loc]) {
                    bad("location " loc ": LEAVE " region " without ENTER")
                } else if (stack[loc, depth[loc]] != region) {
                    bad("location " loc ": LEAVE " region " closes " stack[loc, depth[loc]])
                } else {
                    depth[loc]--
                    print "< " region > out
                }
            } else if (ev == "ENTER") {
                if (loc in open) bad("location " loc ": ENTER " attrs " inside " open[loc])
                open[loc] = region; cur[loc] = region
            } else if (ev == "LEAVE") {
                if (!(loc in open)) bad("location " loc ": LEAVE " region " without ENTER")
                else if (open[loc] != region) bad("location " loc ": LEAVE " region " closes " open[loc])
                print cur[loc] > out
                delete open[loc]
            } else if (loc in open) {
                cur[loc] = cur[loc] " | " ev (attrs == "" ? "" : " " attrs)
            } else {
                print "! " ev (attrs == "" ? "" : " " attrs) > out
            }
        }
        END {
            for (l in open) bad("location " l ": " open[l] " never left")
            for (l in depth) if (depth[l]) bad("location " l ": " stack[l, depth[l]] " never left")
            for (l in count) {
                if (!(l in declared)) bad("location " l " has events but no LOCATION definition")
                else if (declared[l] != count[l]) bad("location " l ": " count[l] " events, the definition says " declared[l])
            }
            for (l in declared)
                if (declared[l] > 0 && !(l in count)) bad("location " l ": defined with " declared[l] " events, none found")
            total = 0
            for (l in count) total += count[l]
            print total > (prefix "total")
            exit failed
        }' "$_t.events" || pz_fail "$1: the trace is inconsistent (above)"
    _total=$(cat "$_t.calls.total")
    if test -f "$_t.err" && grep -q '^prognoz: recorded' "$_t.err"; then
        _said=$(sed -n 's/^prognoz: recorded \([0-9]*\) events of .*/\1/p' "$_t.err")
        test "$_said" = "$_total" ||
            pz_fail "$1: the wrapper says it recorded $_said events, otf2-print shows $_total"
    fi
}

# pz_calls NAME RANK [THREAD]: the calls of a location, one line each.
pz_calls() {
    _f=$PZ_WORK/$1.calls.$(pz_loc "$2" "${3:-0}")
    test -f "$_f" || pz_fail "$1: no events of rank $2 thread ${3:-0}"
    cat "$_f"
}

# pz_expect_calls NAME RANK [THREAD] < EXPECTED: the location's calls are exactly
# the lines of EXPECTED.
pz_expect_calls() {
    _e=$PZ_WORK/expected.$$
    cat >"$_e"
    pz_calls "$@" >"$_e.got"
    if ! diff -u "$_e" "$_e.got" >&2; then
        pz_fail "$1: rank $2 thread ${3:-0}: the calls differ from what is expected (- expected, + recorded)"
    fi
    rm -f "$_e" "$_e.got"
}

# pz_expect_eq WHAT EXPECTED ACTUAL
pz_expect_eq() {
    test "$2" = "$3" || pz_fail "$1: expected '$2', got '$3'"
}

# pz_comms NAME: every communicator of the trace as "NAME|MEMBERS", MEMBERS the world
# ranks of its COMM_GROUP group in order, space separated (none for MPI_COMM_SELF).
pz_comms() {
    awk '
        /^GROUP / {
            id = $2; m = ""
            if ($0 ~ / Members: /) {
                m = $0
                sub(/.* Members: */, "", m); gsub(/ \("[^"]*" <[0-9]+>\)/, "", m); gsub(/,/, "", m)
            }
            members[id] = m
        }
        /^COMM / {
            name = $0; sub(/^[^"]*"/, "", name); sub(/".*/, "", name)
            g = $0; sub(/.* Group: "[^"]*" </, "", g); sub(/>.*/, "", g)
            print name "|" members[g]
        }' "$PZ_WORK/$1.defs"
}

# pz_comm_named NAME CREATOR MEMBERS: the name of the one communicator made by CREATOR
# (e.g. MPI_Comm_split) with these members; fails unless there is exactly one.
pz_comm_named() {
    pz_comms "$1" | awk -F'|' -v suffix="($2)" -v members="$3" -v what="$1" '
        substr($1, length($1) - length(suffix) + 1) == suffix && $2 == members { n++; name = $1 }
        END {
            if (n != 1) {
                printf "FAIL: %s: %d communicators made by %s with members \"%s\", expected 1\n", what, n, suffix, members > "/dev/stderr"
                exit 1
            }
            print name
        }' || pz_fail "$1: no single communicator $2 $3"
}

# pz_line FILE MARK: the number of the one line of FILE that contains MARK (a comment
# such as "@outer" on a marker's line); fails unless exactly one line does.
pz_line() {
    _l=$(grep -n -F -- "$2" "$1" | cut -d: -f1)
    case $_l in
    '' | *[!0-9]*) pz_fail "$1: expected exactly one line with '$2', found: '$_l'" ;;
    esac
    echo "$_l"
}

# pz_intervals NAME: the number of interval regions (flag PHASE) the trace defines.
pz_intervals() {
    grep -c '^REGION .*Flags: {[^}]*PHASE' "$PZ_WORK/$1.defs"
}

# pz_expect_interval NAME ID SOURCE LINE: the trace defines the interval ID begun at
# line LINE of the file SOURCE as exactly one region "interval ID at BASENAME:LINE", of
# role CODE, paradigm USER and flag PHASE, whose file is a full path to SOURCE and whose
# begin line is LINE.
pz_expect_interval() {
    _r="interval $2 at ${3##*/}:$4"
    _d=$(grep "^REGION .* Name: \"$_r\" " "$PZ_WORK/$1.defs" | sed 's/ <[0-9]*>//g')
    test -n "$_d" || pz_fail "$1: no region \"$_r\" in the definitions"
    pz_expect_eq "$1: number of regions \"$_r\"" 1 "$(printf '%s\n' "$_d" | wc -l)"
    pz_expect_eq "$1: region \"$_r\"" 'Role: CODE, Paradigm: USER, Flags: {PHASE}' \
        "$(printf '%s\n' "$_d" | sed 's/.*\(Role: [^,]*, Paradigm: [^,]*, Flags: {[^}]*}\).*/\1/')"
    pz_expect_eq "$1: begin line of \"$_r\"" "$4" \
        "$(printf '%s\n' "$_d" | sed -n 's/.*, Begin: \([0-9]*\),.*/\1/p')"
    _f=$(printf '%s\n' "$_d" | sed -n 's/.*, File: "\([^"]*\)", Begin: .*/\1/p')
    case $_f in
    /*) test "$_f" -ef "$3" || pz_fail "$1: region \"$_r\": the file '$_f' is not $3" ;;
    *) pz_fail "$1: region \"$_r\": the file '$_f' is not a full path" ;;
    esac
}

# pz_fortran_calls R: the calls both Fortran test programs (fhello.f90, ff08.f90) begin
# with on rank R of 2, in pz_calls's format: a send from 0 to 1, a broadcast from 1, an
# allreduce, and an Irecv/Isend exchange completed by a Waitall.
pz_fortran_calls() {
    w='Communicator: "MPI_COMM_WORLD"'
    peer=$((1 - $1))
    printf '%s\n' MPI_Init MPI_Comm_rank MPI_Comm_size
    if test "$1" = 0; then
        echo "MPI_Send | MPI_SEND Receiver: 1, $w, Tag: 5, Length: 12"
        echo "MPI_Bcast | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: BCAST, $w, Root: 1, Sent: 0, Received: 16"
    else
        echo "MPI_Recv | MPI_RECV Sender: 0, $w, Tag: 5, Length: 12$PZ_ANY"
        echo "MPI_Bcast | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: BCAST, $w, Root: 1, Sent: 16, Received: 0"
    fi
    echo "MPI_Allreduce | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: ALLREDUCE, $w, Root: NONE, Sent: 4, Received: 4"
    echo "MPI_Irecv | MPI_IRECV_REQUEST Request: #1"
    echo "MPI_Isend | MPI_ISEND Receiver: $peer, $w, Tag: 6, Length: 4, Request: #2"
    echo "MPI_Waitall | MPI_IRECV Sender: $peer, $w, Tag: 6, Length: 4, Request: #1 | MPI_ISEND_COMPLETE Request: #2"
}

# pz_scale_traced NAME...: prognoz scale of the recordings $PZ_WORK/NAME... to 8 and 16
# processes on gigabit-switch with CPU times, the synthesized runs written into
# $PZ_WORK/synth (synth/PN), the report into $PZ_WORK/scale.txt.  Fails the test unless
# it exits 0, writes nothing to stderr and predicts 16 processes, or unless the same
# scaling replayed in memory (without --trace-out) reports the same.
pz_scale_traced() {
    for _r; do
        shift
        set -- "$@" "$PZ_WORK/$_r"
    done
    _err=$PZ_WORK/scale.err
    rm -rf "$PZ_WORK/synth"
    "$PZ_PROGNOZ" scale "$@" --ranks 8,16 --machine gigabit-switch --compute cpu \
        --trace-out "$PZ_WORK/synth" -o "$PZ_WORK/scale.txt" 2>"$_err" ||
        { cat "$_err" >&2; pz_fail "prognoz scale failed"; }
    test -s "$_err" && { cat "$_err" >&2; pz_fail "prognoz scale wrote to stderr"; }
    grep -q '^gigabit-switch  *16 ' "$PZ_WORK/scale.txt" ||
        { cat "$PZ_WORK/scale.txt" >&2; pz_fail "no prediction at 16 processes"; }
    "$PZ_PROGNOZ" scale "$@" --ranks 8,16 --machine gigabit-switch --compute cpu \
        -o "$PZ_WORK/scale-in-memory.txt" 2>"$_err" ||
        { cat "$_err" >&2; pz_fail "prognoz scale without --trace-out failed"; }
    diff -u "$PZ_WORK/scale.txt" "$PZ_WORK/scale-in-memory.txt" >&2 ||
        pz_fail "the report replayed in memory differs from the one replayed from the archives"
}

# pz_trace_calls NAME: the calls of the trace $PZ_WORK/NAME (pz_trace, which leaves
# NAME.calls.LOC), location by location after a line "== LOC", without the lines of
# events outside calls and without additional attributes.
pz_trace_calls() {
    pz_trace "$1"
    for _f in "$PZ_WORK/$1".calls.[0-9]*; do
        echo "== ${_f##*.}"
        sed -e '/^!/d' -e 's/ ADDITIONAL ATTRIBUTES: [^|]*//' "$_f"
    done
}

# pz_synthesized_as_recorded NAME N: fails the test unless the run synthesized at N
# processes ($PZ_WORK/synth/PN, pz_scale_traced) makes, location by location, exactly
# the MPI calls of the recording $PZ_WORK/NAME with their peers and sizes.
pz_synthesized_as_recorded() {
    pz_trace_calls "$1" >"$PZ_WORK/$1.all"
    pz_trace_calls "synth/P$2" >"$PZ_WORK/synth$2.all"
    diff -u "$PZ_WORK/$1.all" "$PZ_WORK/synth$2.all" >&2 ||
        pz_fail "the run synthesized at $2 processes differs from the recording (- recorded, + synthesized)"
}

# pz_sends_receives NAME LOC: the MPI_Send and MPI_Recv calls of location LOC of the
# trace $PZ_WORK/NAME (pz_trace, which leaves NAME.calls.LOC), in order, as
# S>PEER:TAG:BYTES and R<PEER:TAG:BYTES, each followed by a space.
pz_sends_receives() {
    grep -E '^MPI_(Send|Recv) ' "$PZ_WORK/$1.calls.$2" |
        sed -e 's/.*MPI_SEND Receiver: \([0-9]*\),.*Tag: \([0-9]*\), Length: \([0-9]*\).*/S>\1:\2:\3/' \
            -e 's/.*MPI_RECV Sender: \([0-9]*\),.*Tag: \([0-9]*\), Length: \([0-9]*\).*/R<\1:\2:\3/' |
        tr '\n' ' '
}
