# Thread CPU times (PROGNOZ_CPU_TIME=1, programs/cpu_time.c on 2 ranks): the Enter and
# Leave of every MPI call carry the attribute prognoz:cpu_time, defined as UINT64, whose
# values never decrease on a location; the CPU time of the gap between two calls,
# cpu_time(Enter of the next) - cpu_time(Leave of the previous), is the 50 ms the program
# computed there (more than 25 ms) across its computation and nearly nothing (under
# 10 ms) across its 50 ms sleep.  Across the gap between MPI_Init and MPI_Comm_rank,
# where the program does nothing, nearly nothing (under 10 ms) either: the recorder's
# own start, touching its buffer (256 MiB here, tens of ms of page faults), is inside
# MPI_Init.  The Enter and Leave of the interval markers' regions carry it too (values
# in the same order), the MPI events none.  Without the variable the attribute is
# neither defined nor on any event.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

prog=$(pz_program cpu_time) || exit 77
src=$PZ_TOP_SRCDIR/tests/programs/cpu_time.c

PZ_ENV="PROGNOZ_CPU_TIME=1 PROGNOZ_BUFFER=256M" pz_record_ok cpu 2 "$prog"
pz_trace cpu
grep -q '^ATTRIBUTE .* Name: "prognoz:cpu_time" .*, Type: UINT64$' "$PZ_WORK/cpu.defs" ||
    pz_fail "cpu: no attribute prognoz:cpu_time of type UINT64 in the definitions"

awk -v busy_min=25000000 -v sleep_max=10000000 '
    function bad(msg) { print "cpu_time: " msg > "/dev/stderr"; failed = 1 }
    # checks the event read last, now that its attributes are read too
    function finish(    n) {
        if (ev == "")
            return
        if ((ev == "ENTER" || ev == "LEAVE") && (region ~ /^MPI_/ || region ~ /^interval /)) {
            if (val == "") {
                bad("location " loc ": " ev " " region " at " ts " has no prognoz:cpu_time")
            } else {
                if ((loc in last) && val + 0 < last[loc] + 0)
                    bad("location " loc ": " ev " " region " at " ts ": cpu_time " val " is less than the " last[loc] " before it")
                last[loc] = val
                n = ++count[loc, ev, region]
                cpu[loc, ev, region, n] = val
            }
        } else if (val != "") {
            bad("location " loc ": " ev " " region " at " ts " carries prognoz:cpu_time")
        }
        ev = ""; val = ""
    }
    # cpu[l, EV, REGION, n]: the value at the nth EV of REGION, failing if there is none
    function at(l, e, r, n) {
        if (count[l, e, r] < n) {
            bad("location " l ": no " e " number " n " of " r)
            return 0
        }
        return cpu[l, e, r, n]
    }
    /^=== Events/ { on = 1; next }
    !on { next }
    /^ +ADDITIONAL ATTRIBUTES: / {
        if (match($0, /"prognoz:cpu_time" <[0-9]+>; UINT64; [0-9]+/)) {
            val = substr($0, RSTART, RLENGTH)
            sub(/.*; /, "", val)
        }
        next
    }
    /^[A-Z_]+ +[0-9]+ +[0-9]+/ {
        finish()
        ev = $1; loc = $2; ts = $3; region = ""
        if (match($0, /Region: "[^"]*"/))
            region = substr($0, RSTART + 9, RLENGTH - 10)
        locs[loc] = 1
    }
    END {
        finish()
        for (l in locs) {
            nlocs++
            busy = at(l, "ENTER", "MPI_Barrier", 2) - at(l, "LEAVE", "MPI_Barrier", 1)
            idle = at(l, "ENTER", "MPI_Barrier", 3) - at(l, "LEAVE", "MPI_Sendrecv", 1)
            start = at(l, "ENTER", "MPI_Comm_rank", 1) - at(l, "LEAVE", "MPI_Init", 1)
            printf "location %s: %.3f ms of CPU time across the computation, %.3f ms across the sleep, %.3f ms after MPI_Init\n", \
                l, busy / 1e6, idle / 1e6, start / 1e6
            if (start < 0 || start >= sleep_max)
                bad("location " l ": " start " ns of CPU time between MPI_Init and MPI_Comm_rank, where the program does nothing, expected less than " sleep_max)
            if (busy <= busy_min)
                bad("location " l ": " busy " ns of CPU time across 50 ms of computation, expected more than " busy_min)
            if (idle < 0 || idle >= sleep_max)
                bad("location " l ": " idle " ns of CPU time across a 50 ms sleep, expected less than " sleep_max)
        }
        if (nlocs != 2)
            bad(nlocs + 0 " locations with events, expected 2")
        exit failed
    }' "$PZ_WORK/cpu.events" || pz_fail "cpu: the CPU times are wrong (above)"

# Without the variable: the same calls, no attribute.
pz_record_ok plain 2 "$prog"
pz_trace plain
grep 'prognoz:cpu_time' "$PZ_WORK/plain.events" "$PZ_WORK/plain.defs" >&2 &&
    pz_fail "plain: prognoz:cpu_time recorded without PROGNOZ_CPU_TIME (above)"
line=$(pz_line "$src" @compute)
W='Communicator: "MPI_COMM_WORLD"'
B="MPI_Barrier | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: BARRIER, $W, Root: NONE, Sent: 0, Received: 0"
for r in 0 1; do
    p=$((1 - r))
    pz_expect_calls plain $r <<EOF
MPI_Init
MPI_Comm_rank
MPI_Comm_size
$B
> interval 1 at cpu_time.c:$line
< interval 1 at cpu_time.c:$line
$B
MPI_Sendrecv | MPI_SEND Receiver: $p, $W, Tag: 0, Length: 4 | MPI_RECV Sender: $p, $W, Tag: 0, Length: 4
$B
MPI_Finalize
EOF
done
exit 0
