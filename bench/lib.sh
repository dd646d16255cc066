# What the benchmark scripts share (run.sh, analyze.sh, predict.sh source it).

fail() {
    echo "bench: $*" >&2
    exit 1
}

# value KEY LINE: the value of KEY=VALUE in LINE
value() {
    echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"
}

# median of the numbers on standard input
median() {
    sort -g | awk '{ v[NR] = $1 }
                   END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

load() {
    cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?'
}

# kilobytes available where the traces go ($work)
available_kb() {
    df -Pk "$work" | awk 'NR == 2 { print $4 }'
}
