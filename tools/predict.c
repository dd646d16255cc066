/* prognoz predict: a recorded run replayed on models of other clusters, reported like
 * a recorded one (one machine) or side by side with the recording (several). */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "analysis.h"
#include "commands.h"
#include "engine.h"
#include "machine.h"
#include "machines.h"
#include "report.h"

#define MAX_MACHINES 16

static void usage(FILE *out)
{
    fprintf(out,
            "usage: prognoz predict DIR --machine FILE [--machine FILE ...] [options]\n"
            "\n"
            "Replays the run recorded in DIR on the model of each machine (docs/machines.md,\n"
            "share/machines/) and reports it: with one machine, the report of prognoz report\n"
            "for the predicted run; with several, the recording and each machine side by side.\n"
            "\n"
            "  --machine FILE      a machine file, or the name of a shipped one (repeatable,\n"
            "                      up to 16): ethernet-100-hub, gigabit-switch, myrinet-2proc\n"
            "  --format FORMAT     text (the default), json, or html (one machine)\n"
            "  --per-process       also every process's values (one machine)\n"
            "  -o OUT              also write the predicted trace: OUT/traces.otf2, or with\n"
            "                      several machines OUT/NAME/traces.otf2 per machine\n"
            "  --compute wall|cpu  computation from the recorded wall-clock time (default), or\n"
            "                      from the CPU time recorded with PROGNOZ_CPU_TIME=1\n"
            "  --mpi SET           the collective algorithms: mpich1, mpich-1.2.5, mpich4\n"
            "  --coll OP=ALGO      force an algorithm, e.g. allgather=bruck (repeatable;\n"
            "                      docs/collectives.md)\n");
}

struct options {
    const char *trace, *output, *mpi;
    const char *machines[MAX_MACHINES];
    int nmachines, per_process, compute_cpu;
    enum pz_report_format format;
    const struct pz_coll_algo *forced[PZ_COLL_NOPS];
};

static int parse_format(const char *s, enum pz_report_format *f)
{
    if (!strcmp(s, "text"))
        *f = PZ_REPORT_TEXT;
    else if (!strcmp(s, "json"))
        *f = PZ_REPORT_JSON;
    else if (!strcmp(s, "html"))
        *f = PZ_REPORT_HTML;
    else
        return -1;
    return 0;
}

/* "allgather=bruck" */
static int parse_coll(const char *s, struct options *o)
{
    char op[64];
    const char *eq = strchr(s, '=');
    const struct pz_coll_algo *algo;
    int kind;

    if (!eq || (size_t)(eq - s) >= sizeof(op))
        return -1;
    memcpy(op, s, (size_t)(eq - s));
    op[eq - s] = '\0';
    if ((kind = pz_coll_op_named(op)) < 0 || !(algo = pz_coll_named(kind, eq + 1)))
        return -1;
    o->forced[kind] = algo;
    return 0;
}

/* One option with its value at argv[*i]; 0, or 2 after reporting a usage error. */
static int parse_valued(int argc, char **argv, int *i, struct options *o)
{
    const char *opt = argv[*i], *val = *i + 1 < argc ? argv[++*i] : NULL;

    if (!val) {
        fprintf(stderr, "prognoz predict: %s needs a value\n", opt);
        return 2;
    }
    if (!strcmp(opt, "--machine")) {
        if (o->nmachines < MAX_MACHINES) {
            o->machines[o->nmachines++] = val;
            return 0;
        }
        fprintf(stderr, "prognoz predict: at most %d machines\n", MAX_MACHINES);
    } else if (!strcmp(opt, "--format")) {
        if (parse_format(val, &o->format) == 0)
            return 0;
        fprintf(stderr, "prognoz predict: unknown format '%s' (text, json or html)\n", val);
    } else if (!strcmp(opt, "--compute")) {
        o->compute_cpu = !strcmp(val, "cpu");
        if (o->compute_cpu || !strcmp(val, "wall"))
            return 0;
        fprintf(stderr, "prognoz predict: --compute '%s': expected wall or cpu\n", val);
    } else if (!strcmp(opt, "--coll")) {
        if (parse_coll(val, o) == 0)
            return 0;
        fprintf(stderr, "prognoz predict: --coll '%s': expected OPERATION=ALGORITHM of "
                "docs/collectives.md\n", val);
    } else {
        if (!strcmp(opt, "-o"))
            o->output = val;
        else
            o->mpi = val;
        return 0;
    }
    return 2;
}

static int is_valued(const char *arg)
{
    static const char *const valued[] = { "--machine", "--format", "-o", "--compute",
                                          "--mpi", "--coll" };

    for (size_t i = 0; i < sizeof(valued) / sizeof(valued[0]); i++)
        if (!strcmp(arg, valued[i]))
            return 1;
    return 0;
}

/* Returns 0, 1 when --help was asked, or 2 on a usage error (already reported). */
static int parse(int argc, char **argv, struct options *o)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 1;
        } else if (!strcmp(argv[i], "--per-process")) {
            o->per_process = 1;
        } else if (is_valued(argv[i])) {
            if (parse_valued(argc, argv, &i, o) != 0)
                return 2;
        } else if (argv[i][0] != '-' && !o->trace) {
            o->trace = argv[i];
        } else {
            fprintf(stderr, "prognoz predict: unexpected argument '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    if (!o->trace || !o->nmachines) {
        fprintf(stderr, "prognoz predict: %s\n", !o->trace ? "no trace given" : "no --machine given");
        usage(stderr);
        return 2;
    }
    if (o->nmachines > 1 && (o->format == PZ_REPORT_HTML || o->per_process)) {
        fprintf(stderr, "prognoz predict: --format html and --per-process take one machine\n");
        return 2;
    }
    return 0;
}

static int load_machines(const struct options *o, struct pz_machine *m)
{
    char err[1024];

    for (int i = 0; i < o->nmachines; i++) {
        if (pz_load_machine(o->machines[i], &m[i], err, sizeof(err)) != 0) {
            fprintf(stderr, "prognoz predict: %s\n", err);
            return -1;
        }
        if (o->mpi && pz_machine_set_mpi(&m[i], o->mpi) != 0) {
            fprintf(stderr, "prognoz predict: --mpi '%s': expected mpich1, mpich-1.2.5 or "
                    "mpich4\n", o->mpi);
            return -1;
        }
    }
    return 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

/* The temporary directory of the prediction under way, which SIGINT and SIGTERM remove
 * before the command dies of them; temporary_set while there is one. */
static char temporary_dir[4096];
static volatile sig_atomic_t temporary_set;

/* A record of getdents64, the directory reading that is a plain system call (opendir
 * and nftw allocate, so a signal handler cannot use them). */
struct dirent_record {
    unsigned long long ino;
    long long next;
    unsigned short len;
    unsigned char type;
    char name[];
};

/* Removes name under the directory parent, and everything in it: only system calls,
 * safe in a signal handler.  Entries removed while the directory is read may hide
 * others, so it is read again until a pass removes nothing. */
static void remove_tree(int parent, const char *name)
{
    _Alignas(unsigned long long) char buf[4096];   /* records are 8-byte aligned */
    int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW), removed = 1;
    long n;

    if (fd < 0) {
        unlinkat(parent, name, 0);
        return;
    }
    for (int pass = 0; removed && pass < 16; pass++) {
        removed = 0;
        lseek(fd, 0, SEEK_SET);
        while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
            for (long off = 0; off < n;) {
                const struct dirent_record *d = (const void *)(buf + off);

                off += d->len;
                if (strcmp(d->name, ".") != 0 && strcmp(d->name, "..") != 0) {
                    remove_tree(fd, d->name);
                    removed = 1;
                }
            }
        }
    }
    close(fd);
    unlinkat(parent, name, AT_REMOVEDIR);
}

/* SIGINT, SIGTERM: removes the temporary directory, then dies of the signal, which
 * SA_RESETHAND has given back its default action and which is delivered again as the
 * handler returns. */
static void interrupted(int sig)
{
    if (temporary_set)
        remove_tree(AT_FDCWD, temporary_dir);
    raise(sig);
}

/* Installs interrupted for SIGINT and SIGTERM, unless the signal is ignored (as in a
 * job started in the background by a shell without job control). */
static void clean_up_on_signals(void)
{
    static const int signals[] = { SIGINT, SIGTERM };
    struct sigaction act = { .sa_handler = interrupted, .sa_flags = SA_RESETHAND };
    struct sigaction old;

    sigemptyset(&act.sa_mask);
    sigaddset(&act.sa_mask, SIGINT);
    sigaddset(&act.sa_mask, SIGTERM);
    for (size_t i = 0; i < sizeof(signals) / sizeof(signals[0]); i++)
        if (sigaction(signals[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
            sigaction(signals[i], &act, NULL);
}

/* Makes the temporary directory from the template dir, with the signals that would
 * remove it held until it is known to their handler. */
static int make_temporary(char *dir)
{
    sigset_t held, before;
    int rc = -1;

    sigemptyset(&held);
    sigaddset(&held, SIGINT);
    sigaddset(&held, SIGTERM);
    sigprocmask(SIG_BLOCK, &held, &before);
    if (mkdtemp(dir) && strlen(dir) < sizeof(temporary_dir)) {
        memcpy(temporary_dir, dir, strlen(dir) + 1);
        temporary_set = 1;
        rc = 0;
    }
    sigprocmask(SIG_SETMASK, &before, NULL);
    return rc;
}

/* Where the predicted trace of machine i goes: -o, -o/NAME, or a directory of its own
 * under $TMPDIR (*temporary set) removed after the report. */
static int trace_dir(const struct options *o, const struct pz_machine *m, char *dir,
                     size_t len, int *temporary)
{
    const char *tmp = getenv("TMPDIR");

    *temporary = !o->output;
    if (o->output && o->nmachines == 1) {
        snprintf(dir, len, "%s", o->output);
    } else if (o->output) {
        if ((mkdir(o->output, 0777) != 0 && errno != EEXIST) ||
            snprintf(dir, len, "%s/%s", o->output, m->name) >= (int)len)
            return -1;
    } else {
        snprintf(dir, len, "%s/prognoz-predict-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (make_temporary(dir) != 0)
            return -1;
    }
    return 0;
}

/* Replays the trace on machine m and analyzes the predicted run into a. */
static int predict_one(const struct options *o, const struct pz_machine *m,
                       struct pz_analysis *a, struct pz_prediction *result)
{
    struct pz_predict_options po = { .machine = m, .compute_cpu = o->compute_cpu };
    char dir[4096], err[8192];
    int temporary, rc = -1;

    memcpy(po.forced, o->forced, sizeof(po.forced));
    if (trace_dir(o, m, dir, sizeof(dir), &temporary) != 0) {
        fprintf(stderr, "prognoz predict: cannot create a directory for the predicted trace "
                "'%s': %s\n", dir, strerror(errno));
        return -1;
    }
    po.output = dir;
    if (pz_predict(o->trace, &po, result, err, sizeof(err)) != 0) {
        fprintf(stderr, "prognoz predict: %s\n", err);
    } else if (pz_analyze(dir, a, err, sizeof(err)) != 0) {
        fprintf(stderr, "prognoz predict: the predicted trace: %s\n", err);
    } else {
        rc = 0;
        if (o->compute_cpu && result->cpu_gaps == 0 && result->wall_gaps > 0)
            fprintf(stderr, "prognoz predict: warning: %s has no CPU times (record with "
                    "PROGNOZ_CPU_TIME=1): computations are timed by the wall clock\n",
                    o->trace);
    }
    if (temporary) {
        nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
        temporary_set = 0;
    }
    return rc;
}

/* What the reports say of the machine a run was predicted on. */
static void describe(FILE *out, enum pz_report_format format, const void *machine)
{
    if (format == PZ_REPORT_JSON)
        pz_machine_write_json(out, machine);
    else
        pz_machine_summary(out, machine);
}

static int report_one(const struct options *o, const struct pz_machine *m,
                      const struct pz_analysis *a, const struct pz_prediction *p)
{
    struct pz_replay_summary r = {
        .end = p->end, .records = p->records, .calls = p->calls,
        .compute = o->compute_cpu ? "cpu" : "wall", .cpu_timed = p->cpu_gaps,
        .wall_timed = p->wall_gaps,
    };

    if (o->format == PZ_REPORT_JSON)
        return pz_report_json_predicted(stdout, a, o->per_process, describe, m, &r);
    if (o->format == PZ_REPORT_TEXT)
        describe(stdout, o->format, m);
    return pz_report_write(stdout, a, o->format, o->per_process);
}

static int compare(const struct options *o, const struct pz_machine *m,
                   const struct pz_analysis *predicted)
{
    struct pz_compared runs[MAX_MACHINES];
    struct pz_analysis recorded;
    char err[8192];
    int rc;

    if (pz_analyze(o->trace, &recorded, err, sizeof(err)) != 0) {
        fprintf(stderr, "prognoz predict: %s\n", err);
        return -1;
    }
    for (int i = 0; i < o->nmachines; i++)
        runs[i] = (struct pz_compared){ m[i].name, &predicted[i], &m[i] };
    rc = pz_report_compare(stdout, o->format, &recorded, runs, o->nmachines, describe);
    pz_analysis_free(&recorded);
    return rc;
}

int pz_cmd_predict(int argc, char **argv)
{
    struct options o = { .format = PZ_REPORT_TEXT };
    struct pz_machine m[MAX_MACHINES];
    struct pz_analysis a[MAX_MACHINES];
    struct pz_prediction result;
    int rc = parse(argc, argv, &o), done = 0;

    if (rc)
        return rc == 1 ? 0 : 2;
    clean_up_on_signals();
    for (int i = 0; i < o.nmachines; i++)
        pz_machine_defaults(&m[i]);
    if (load_machines(&o, m) != 0) {
        for (int i = 0; i < o.nmachines; i++)
            pz_machine_release(&m[i]);
        return 1;
    }
    while (done < o.nmachines && predict_one(&o, &m[done], &a[done], &result) == 0)
        done++;
    if (done == o.nmachines) {
        rc = o.nmachines == 1 ? report_one(&o, &m[0], &a[0], &result) : compare(&o, m, a);
        if (rc != 0 || fflush(stdout) != 0)
            fprintf(stderr, "prognoz predict: cannot write the report\n");
        rc = rc != 0;
    } else {
        rc = 1;
    }
    for (int i = 0; i < done; i++)
        pz_analysis_free(&a[i]);
    for (int i = 0; i < o.nmachines; i++)
        pz_machine_release(&m[i]);
    return rc;
}
