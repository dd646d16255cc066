# The interactive HTML report in a real browser: Debian's chromium, headless, and
# firefox-esr when present (browser/lib.sh), driven by report.js with puppeteer-core
# (tests/browser/package.json, installed by scripts/setup.sh with npm ci; nothing is
# downloaded here).  programs/intervals and
# programs/requests are recorded on 2 processes; each page must load without a console
# error, draw on its timeline as many calls of each class as otf2-print shows MPI calls
# of the functions of that class (the classes of trace/call_class.h, written out
# below), and, for intervals, open and close its tree, show the JSON report's numbers
# for the interval chosen, name the call under the mouse in a tooltip and choose its
# interval on a click.  The screenshot stays in browser/report.png of the build tree
# (browser/firefox/report.png for firefox).
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

. "$PZ_TOP_SRCDIR/tests/browser/lib.sh"
intervals=$(pz_program intervals) || exit 77
requests=$(pz_program requests) || exit 77

# classes NAME: per class of call_class.h, the MPI calls otf2-print shows in NAME's
# trace, as a JSON list of six counts.  A Start is of the class of what it starts.
classes() {
    pz_trace "$1"
    cat "$PZ_WORK/$1".calls.* | awk -F' [|] ' '
        $1 !~ /^MPI_/ { next }
        $1 ~ /^MPI_(Start|Startall)$/ {
            if ($2 ~ /MPI_ISEND/) n[2]++; else if ($2 ~ /MPI_IRECV_REQUEST/) n[4]++; else n[5]++
            next
        }
        $1 ~ /^MPI_(Barrier|Bcast|Gather|Gatherv|Scatter|Scatterv|Allgather|Allgatherv|Alltoall|Alltoallv|Alltoallw|Reduce|Allreduce|Reduce_scatter|Reduce_scatter_block|Scan|Exscan|Ibarrier|Ibcast|Iallreduce|Ireduce|Iallgather|Ialltoall)$/ { n[0]++; next }
        $1 ~ /^MPI_(Send|Bsend|Ssend|Rsend)$/ { n[1]++; next }
        $1 ~ /^MPI_(Isend|Ibsend|Issend|Irsend)$/ { n[2]++; next }
        $1 ~ /^MPI_(Recv|Sendrecv|Sendrecv_replace|Mrecv|Probe|Mprobe|Wait|Waitall|Waitany|Waitsome)$/ { n[3]++; next }
        $1 ~ /^MPI_(Irecv|Imrecv|Iprobe|Improbe|Test|Testall|Testany|Testsome)$/ { n[4]++; next }
        { n[5]++ }
        END { printf "[%d,%d,%d,%d,%d,%d]\n", n[0], n[1], n[2], n[3], n[4], n[5] }'
}

for name in intervals requests; do
    eval "prog=\$$name"
    pz_record_ok "$name" 2 "$prog"
    "$PZ_PROGNOZ" report "$PZ_WORK/$name" --format html -o "$PZ_WORK/$name.html" \
        2>"$PZ_WORK/$name.html.err" || pz_fail "$name: report --format html: $(cat "$PZ_WORK/$name.html.err")"
    "$PZ_PROGNOZ" report "$PZ_WORK/$name" --format json -o "$PZ_WORK/$name.json" ||
        pz_fail "$name: report --format json"
    classes "$name" >"$PZ_WORK/$name.classes"
done

cd "$pz_browser_dir" || exit 1
for browser in $(pz_browsers); do
    timeout "$PZ_TIMEOUT" node report.js "$browser" "$(pz_artifacts "$browser")" \
        "$PZ_WORK/intervals.html" "$PZ_WORK/intervals.json" "$(cat "$PZ_WORK/intervals.classes")" \
        "$PZ_WORK/requests.html" "$PZ_WORK/requests.json" "$(cat "$PZ_WORK/requests.classes")" ||
        pz_fail "the pages do not behave in ${browser%%:*} (above)"
done
