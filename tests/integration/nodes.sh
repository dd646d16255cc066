# Ranks on different nodes (PROGNOZ_NODE=a for rank 0, b for rank 1, programs/p2p.c):
# two system tree nodes, each rank's location group under its node, and on every
# location two CLOCK_OFFSET definitions (at MPI_Init and MPI_Finalize); the offsets of
# rank 1, measured against rank 0, are small on one machine (under a second, a very
# generous bound).  With both ranks on one node the offsets are 0.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

prog=$(pz_program p2p) || exit 77

run() {
    name=$1 node0=$2 node1=$3
    rm -rf "$PZ_WORK/$name"
    pz_mpiexec -n 1 env LD_PRELOAD="$PZ_LIB" PROGNOZ_DIR="$PZ_WORK/$name" PROGNOZ_NODE="$node0" "$prog" : \
        -n 1 env LD_PRELOAD="$PZ_LIB" PROGNOZ_DIR="$PZ_WORK/$name" PROGNOZ_NODE="$node1" "$prog" \
        >"$PZ_WORK/$name.out" 2>"$PZ_WORK/$name.err" ||
        { cat "$PZ_WORK/$name.err" >&2; pz_fail "$name: the job failed"; }
    pz_trace "$name"
}

# offsets NAME: "LOCATION OFFSET STDDEV" per CLOCK_OFFSET definition
offsets() {
    grep '^CLOCK_OFFSET ' "$PZ_WORK/$1.locdefs" |
        sed 's/^CLOCK_OFFSET *\([0-9]*\) *Time: [0-9]*, Offset: +*\(-*[0-9]*\), StdDev: \([0-9.e+-]*\).*/\1 \2 \3/'
}

run two a b
grep '^SYSTEM_TREE_NODE ' "$PZ_WORK/two.defs" | sed 's/ <[0-9]*>//g; s/^SYSTEM_TREE_NODE *//' >"$PZ_WORK/nodes"
cat >"$PZ_WORK/nodes.expected" <<'EOF'
0  Name: "machine", Class: "machine", Parent: UNDEFINED
1  Name: "a", Class: "node", Parent: "machine::machine"
2  Name: "b", Class: "node", Parent: "machine::machine"
EOF
diff -u "$PZ_WORK/nodes.expected" "$PZ_WORK/nodes" >&2 || pz_fail "the system tree differs (- expected, + recorded)"
for r in 0 1; do
    grep -q "^LOCATION_GROUP *$r *Name: \"MPI Rank $r\" <[0-9]*>, Type: PROCESS, Parent: \"node::$(echo a b | cut -d' ' -f$((r + 1)))\"" \
        "$PZ_WORK/two.defs" || pz_fail "rank $r's location group is not under its node"
done
offsets two >"$PZ_WORK/offsets"
pz_expect_eq "locations of the clock offsets" "0 0 1 1" "$(cut -d' ' -f1 "$PZ_WORK/offsets" | sort | tr '\n' ' ' | sed 's/ $//')"
awk '$1 == 0 && ($2 != 0 || $3 != 0) { print "rank 0 has offset " $2 " deviation " $3; bad = 1 }
     $1 == 1 && ($2 < -1e9 || $2 > 1e9 || $3 < 0 || $3 > 1e9) { print "rank 1 has offset " $2 " deviation " $3; bad = 1 }
     END { exit bad }' "$PZ_WORK/offsets" >&2 || pz_fail "implausible clock offsets (above)"
# the measurement happens through PMPI: no trace of it among the calls
pz_expect_eq "rank 0's calls on node a" 31 "$(pz_calls two 0 | grep -c .)"
pz_expect_eq "rank 1's calls on node b" 24 "$(pz_calls two 1 | grep -c .)"

run one a a
pz_expect_eq "system tree nodes when both ranks are on one node" 2 "$(grep -c '^SYSTEM_TREE_NODE ' "$PZ_WORK/one.defs")"
offsets one >"$PZ_WORK/offsets"
pz_expect_eq "clock offsets when both ranks are on one node" "0 0 0 0 0 0 1 0 0 1 0 0" \
    "$(sort -n "$PZ_WORK/offsets" | tr '\n' ' ' | sed 's/ $//')"
