# Cartesian topologies (programs/cart.c on 4 ranks): the 2x2 grid of MPI_Cart_create,
# periodic along dimension 0 only, the rows MPI_Cart_sub keeps of it and the line of 3
# that leaves world rank 3 out are each defined once, as Score-P defines them: a
# CartDimension per dimension (size, periodicity), a CartTopology of the communicator
# and the CartCoordinate of each of its ranks, row-major (rank r of the grid at
# (r / 2, r % 2)).  The grid of no dimension has none.  prognoz reads the trace.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

prog=$(pz_program cart) || exit 77
pz_record_ok cart 4 "$prog"
pz_trace cart

GRID=$(pz_comm_named cart MPI_Cart_create "0 1 2 3")
ROW0=$(pz_comm_named cart MPI_Cart_sub "0 1")
ROW1=$(pz_comm_named cart MPI_Cart_sub "2 3")
LINE=$(pz_comm_named cart MPI_Cart_create "0 1 2")

# every topology as "COMMUNICATOR|NAME|SIZE PERIODICITY, ...|RANK (COORDINATES); ...",
# in the order of the definitions
awk '
    function quoted(s, key) { sub(".*" key ": \"", "", s); sub(/".*/, "", s); return s }
    function number(s, key) { sub(".*" key ": ", "", s); sub(/[^0-9].*/, "", s); return s }
    /^CART_DIMENSION / {
        p = $0; sub(/.*Periodicity: /, "", p)
        dim[$2] = number($0, "Size") " " p
    }
    /^CART_TOPOLOGY / {
        t = $2; order[++n] = t
        line[t] = quoted($0, "Communicator") "|" quoted($0, "Name") "|"
        d = $0; sub(/.* Dimensions?: /, "", d)
        sep = ""
        while (match(d, /<[0-9]+>/)) {
            line[t] = line[t] sep dim[substr(d, RSTART + 1, RLENGTH - 2)]
            sep = ", "
            d = substr(d, RSTART + RLENGTH)
        }
        line[t] = line[t] "|"
    }
    /^CART_COORDINATE / {
        t = $0; sub(/.*Cartesian Topology: "[^"]*" </, "", t); sub(/>.*/, "", t)
        c = $0; sub(/.*Coordinates?: /, "", c)
        line[t] = line[t] (line[t] ~ /[|]$/ ? "" : "; ") number($0, "Rank") " " c
    }
    END { for (i = 1; i <= n; i++) print line[order[i]] }' "$PZ_WORK/cart.defs" >"$PZ_WORK/carts"
cat >"$PZ_WORK/carts.expected" <<EOF
$GRID|MPI_Cartesian_2x2|2 TRUE, 2 FALSE|0 (0, 0); 1 (0, 1); 2 (1, 0); 3 (1, 1)
$ROW0|Sub MPI_Cartesian_2|2 FALSE|0 (0); 1 (1)
$LINE|MPI_Cartesian_3|3 FALSE|0 (0); 1 (1); 2 (2)
$ROW1|Sub MPI_Cartesian_2|2 FALSE|0 (0); 1 (1)
EOF
diff -u "$PZ_WORK/carts.expected" "$PZ_WORK/carts" >&2 ||
    pz_fail "the Cartesian topologies differ (- expected, + recorded)"

"$PZ_PROGNOZ" report "$PZ_WORK/cart" >"$PZ_WORK/cart.report" ||
    pz_fail "prognoz report cannot read the trace with topologies"

# Each constructor is a collective CREATE_HANDLE on its parent (otf2-print's events):
# MPI_Cart_create twice on MPI_COMM_WORLD (MPICH's context-id Allreduce: 256 bytes each
# way), MPI_Cart_sub twice on the grid (and the Allgather of (color, key) of a split: 8
# bytes sent, 8 from each of 4 ranks received), on every one of the 4 ranks.
grep 'MPI_COLLECTIVE_END' "$PZ_WORK/cart.events" | grep 'Operation: CREATE_HANDLE' |
    sed 's/.*Communicator: "\([^"]*\)".*Root: \([A-Z]*\), Sent: \([0-9]*\), Received: \([0-9]*\).*/\1 \2 \3 \4/' |
    sort | uniq -c | sed 's/^ *//' >"$PZ_WORK/handles"
sort >"$PZ_WORK/handles.expected" <<EOF
8 MPI_COMM_WORLD NONE 256 256
8 $GRID NONE 264 288
EOF
diff -u "$PZ_WORK/handles.expected" "$PZ_WORK/handles" >&2 ||
    pz_fail "the constructors' collectives differ (- expected, + recorded)"
