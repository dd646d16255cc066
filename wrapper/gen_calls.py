#!/usr/bin/env python3
"""Generate the MPI call table and the PMPI wrappers from wrapper/mpi_calls.tbl.

Usage: gen_calls.py [--available FILE] TABLE OUTDIR [calls] [wrappers] [ops]
Writes OUTDIR/calls_gen.h and OUTDIR/calls_gen.c (calls), OUTDIR/wrappers_gen.c
(wrappers) and OUTDIR/coll_ops.h (ops: the collective operations' enum, which the model
installs); all of them without a part named.
--available FILE: the PMPI_ functions the MPI library declares, one a line (its mpi.h
read by the build, wrapper/Makefile.am); a row whose PMPI_ function is not among them
gets no wrapper, so that a library of an older MPI standard builds from the same table.
The call ids stay those of the whole table: every recorder writes the same trace format.
The table format is described at the top of the table itself and in docs/mpi-table.md.
"""
import re
import sys

# C type of each role as a hook receives it, and the value an optional role takes
# when the function lacks it.  Counts are MPI_Count, which the int counts convert to,
# so that the large-count functions (MPI_Send_c...) share their siblings' hooks.
ROLE_TYPES = {
    'count': ('MPI_Count', '0'), 'type': ('MPI_Datatype', 'MPI_DATATYPE_NULL'),
    'peer': ('int', 'MPI_PROC_NULL'), 'tag': ('int', '0'),
    'comm': ('MPI_Comm', 'MPI_COMM_NULL'), 'status': ('MPI_Status *', 'NULL'),
    'request': ('MPI_Request *', 'NULL'), 'requests': ('MPI_Request *', 'NULL'),
    'statuses': ('MPI_Status *', 'NULL'), 'n': ('int', '0'),
    'index': ('int *', 'NULL'), 'indices': ('int *', 'NULL'),
    'outcount': ('int *', 'NULL'), 'flag': ('int *', 'NULL'),
    'rpeer': ('int', 'MPI_PROC_NULL'), 'rtag': ('int', '0'),
    'sbuf': ('const void *', 'NULL'), 'scount': ('MPI_Count', '0'), 'stype': ('MPI_Datatype', 'MPI_DATATYPE_NULL'),
    'rcount': ('MPI_Count', '0'), 'rtype': ('MPI_Datatype', 'MPI_DATATYPE_NULL'),
    'scounts': ('struct pz_counts', 'PZ_COUNTS_NONE'),
    'rcounts': ('struct pz_counts', 'PZ_COUNTS_NONE'),
    'stypes': ('const MPI_Datatype *', 'NULL'),
    'rtypes': ('const MPI_Datatype *', 'NULL'),
    'root': ('int', 'PZ_NO_ROOT'), 'op': ('MPI_Op', 'MPI_OP_NULL'),
    'message': ('MPI_Message *', 'NULL'), 'newcomm': ('MPI_Comm *', 'NULL'),
    'kind': ('enum pz_coll_op', 'PZ_COLL_NONE'),
    'file': ('MPI_File', 'MPI_FILE_NULL'), 'filename': ('const char *', 'NULL'),
    'amode': ('int', '0'), 'offset': ('MPI_Offset', '0'), 'whence': ('int', 'MPI_SEEK_SET'),
    'win': ('MPI_Win', 'MPI_WIN_NULL'), 'locktype': ('int', 'MPI_LOCK_SHARED'),
    'group': ('MPI_Group', 'MPI_GROUP_NULL'),
}

# Roles that are no parameter: 'kind' passes the row's collective kind, a constant.
PSEUDO_ROLES = {'kind'}

# Roles of count arrays: a hook receives a struct pz_counts (wrapper/bytes.h) that says
# whether the array's elements are int or, in the large-count functions, MPI_Count.
COUNT_ARRAYS = {'scounts', 'rcounts'}

# The collective operations a row may name (coll:KIND), in the order of enum pz_coll_op;
# each is OTF2_COLLECTIVE_OP_<KIND> in a trace.  The model predicts PREDICTED, and each
# of PREDICTED_AS as the operation it maps to (their values follow PZ_COLL_NOPS).
PREDICTED = ['barrier', 'bcast', 'gather', 'gatherv', 'scatter', 'scatterv',
             'allgather', 'allgatherv', 'alltoall', 'alltoallv', 'reduce', 'allreduce',
             'reduce_scatter', 'reduce_scatter_block', 'scan', 'exscan']
PREDICTED_AS = {'alltoallw': 'alltoallv'}
COLLECTIVES = PREDICTED + list(PREDICTED_AS)

HEADER = ('/* Generated from wrapper/mpi_calls.tbl by wrapper/gen_calls.py: do not edit. */\n')


class TableError(Exception):
    pass


class HookArg:
    def __init__(self, text):
        self.by_address = text.startswith('&')
        self.optional = text.endswith('?')
        self.role = text.strip('&?')
        if self.role not in ROLE_TYPES:
            raise TableError("unknown role '%s'" % self.role)


class Category:
    def __init__(self, name, words):
        self.name = name
        self.hand = False
        self.pre = None
        self.post = None
        for w in words:
            if w == 'hand':
                self.hand = True
            elif w.startswith('pre='):
                self.pre = [HookArg(a) for a in w[4:].split(',')]
            elif w.startswith('post='):
                self.post = [HookArg(a) for a in w[5:].split(',')]
            else:
                raise TableError("unknown category attribute '%s'" % w)
        # a row of the category names its collective kind (coll:allreduce)
        self.takes_kind = name == 'coll' or any(a.role == 'kind'
                                                for a in (self.pre or []) + (self.post or []))


class Param:
    def __init__(self, text):
        # Fortran notes ('!note', see the table's header) are for gen_f08.py only.
        text, *notes = text.split('!')
        self.fortran = [n.strip() for n in notes]
        text = text.strip()
        self.role = None
        if '@' in text:
            text, role = text.split('@')
            self.role = role.strip()
            if self.role not in ROLE_TYPES or self.role in PSEUDO_ROLES:
                raise TableError("unknown role '%s'" % self.role)
        self.decl = text.strip()
        if self.decl == '...':
            self.name = None
        else:
            m = re.search(r'(\w+)\s*(\[\w*\]\s*)*$', self.decl)
            if not m:
                raise TableError("cannot read parameter '%s'" % self.decl)
            self.name = m.group(1)


class Call:
    def __init__(self, name, category, collective, params):
        self.name = name
        self.category = category
        self.collective = collective
        self.coll_enum = 'PZ_COLL_%s' % collective.upper() if collective else 'PZ_COLL_NONE'
        self.params = params
        self.roles = {p.role: p for p in params if p.role}

    def check_hooks(self):
        """Every role the category's hooks need, so that a row lacking one is reported
        with its line, before anything is written."""
        for hook_arg in (self.category.pre or []) + (self.category.post or []):
            self.arg_for(hook_arg)

    def arg_for(self, hook_arg):
        if hook_arg.role == 'kind':
            return self.coll_enum
        param = self.roles.get(hook_arg.role)
        if param is None:
            if not hook_arg.optional:
                raise TableError("%s lacks role '%s' that category %s needs"
                                 % (self.name, hook_arg.role, self.category.name))
            return ROLE_TYPES[hook_arg.role][1]
        if hook_arg.role in COUNT_ARRAYS:
            wide = re.match(r'(const\s+)?MPI_Count\b', param.decl)
            return 'pz_%s_counts(%s)' % ('wide' if wide else 'int', param.name)
        return ('&' if hook_arg.by_address else '') + param.name


def read_table(path):
    categories, calls = {}, []
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.split('#', 1)[0].strip()
            if not line:
                continue
            try:
                if line.startswith('%category'):
                    words = line.split()
                    if len(words) < 2:
                        raise TableError('expected %category NAME [pre=ROLES] [post=ROLES] [hand]')
                    categories[words[1]] = Category(words[1], words[2:])
                    continue
                m = re.match(r'(MPI_\w+)\s+(\w+)(?::(\w+))?\s+\((.*)\)$', line)
                if not m:
                    raise TableError('expected NAME CATEGORY (PARAMETERS)')
                name, cat, coll, params = m.groups()
                if cat not in categories:
                    raise TableError("unknown category '%s'" % cat)
                if categories[cat].takes_kind != (coll is not None) or \
                        (coll and coll not in COLLECTIVES):
                    raise TableError("bad collective kind '%s'" % coll)
                plist = [Param(p) for p in params.split(',')] if params.strip() else []
                call = Call(name, categories[cat], coll, plist)
                call.check_hooks()
                calls.append(call)
            except TableError as e:
                sys.exit('%s:%d: %s' % (path, lineno, e))
    return categories, calls


def write_calls_h(out, categories, calls):
    out.write(HEADER)
    out.write('#ifndef PZ_CALLS_GEN_H\n#define PZ_CALLS_GEN_H\n\n')
    out.write('#include <stdint.h>\n\n#include "coll_ops.h"\n\n')
    out.write('/* Every recorded MPI function; the value is its OTF2 region id. */\n')
    out.write('enum pz_call_id {\n')
    for c in calls:
        out.write('    PZ_CALL_%s,\n' % c.name)
    out.write('    PZ_NCALLS\n};\n\n')
    out.write('/* How the recorder treats a function (one hook pair per category). */\n')
    out.write('enum pz_category {\n')
    for name in categories:
        out.write('    PZ_CAT_%s,\n' % name.upper())
    out.write('};\n\n')
    out.write('/* The collective operation of a call that is no collective. */\n')
    out.write('#define PZ_COLL_NONE PZ_COLL_NKINDS\n\n')
    out.write('struct pz_call_info {\n    const char *name;\n    enum pz_category category;\n'
              '    enum pz_coll_op collective;\n    int nonblocking;\n};\n\n')
    out.write('/* Indexed by enum pz_call_id. */\n')
    out.write('extern const struct pz_call_info pz_calls[PZ_NCALLS];\n\n')
    out.write('/* A collective operation in a trace (an OTF2_CollectiveOp) and the one the model\n'
              ' * predicts it as. */\n')
    out.write('struct pz_coll_info {\n    uint8_t otf2_op;\n'
              '    enum pz_coll_op predicted_as;\n};\n\n')
    out.write('/* Indexed by enum pz_coll_op. */\n')
    out.write('extern const struct pz_coll_info pz_colls[PZ_COLL_NKINDS];\n\n#endif\n')


def write_calls_c(out, calls):
    out.write(HEADER)
    out.write('#include <otf2/otf2.h>\n\n#include "calls_gen.h"\n\n')
    out.write('const struct pz_call_info pz_calls[PZ_NCALLS] = {\n')
    for c in calls:
        nb = 1 if 'request' in c.roles or 'requests' in c.roles else 0
        out.write('    [PZ_CALL_%s] = { "%s", PZ_CAT_%s, %s, %d },\n'
                  % (c.name, c.name, c.category.name.upper(), c.coll_enum, nb))
    out.write('};\n\nconst struct pz_coll_info pz_colls[PZ_COLL_NKINDS] = {\n')
    for k in COLLECTIVES:
        out.write('    [PZ_COLL_%s] = { OTF2_COLLECTIVE_OP_%s, PZ_COLL_%s },\n'
                  % (k.upper(), k.upper(), PREDICTED_AS.get(k, k).upper()))
    out.write('};\n')


def write_coll_ops_h(out):
    out.write(HEADER)
    out.write('/* The collective operations of MPI.  The model predicts the first PZ_COLL_NOPS;\n'
              ' * each one after them is recorded as itself and predicted as another. */\n')
    out.write('#ifndef PZ_COLL_OPS_H\n#define PZ_COLL_OPS_H\n\nenum pz_coll_op {\n')
    for k in PREDICTED:
        out.write('    PZ_COLL_%s,\n' % k.upper())
    out.write('    PZ_COLL_NOPS,\n')
    for i, (k, model) in enumerate(PREDICTED_AS.items()):
        out.write('    PZ_COLL_%s%s,    /* predicted as PZ_COLL_%s */\n'
                  % (k.upper(), '' if i else ' = PZ_COLL_NOPS', model.upper()))
    out.write('    PZ_COLL_NKINDS    /* every operation a trace records */\n};\n\n')
    out.write('/* Initializers: the operations\' names in the order of the enum (as --coll\n'
              ' * names them), and the operation each one after PZ_COLL_NOPS is predicted as. */\n')
    out.write('#define PZ_COLL_OP_NAMES { \\\n%s}\n'
              % ''.join('    "%s", \\\n' % k for k in COLLECTIVES))
    out.write('#define PZ_COLL_PREDICTED_AS { %s }\n\n#endif\n'
              % ', '.join('PZ_COLL_%s' % m.upper() for m in PREDICTED_AS.values()))


def write_wrapper(out, c):
    cat = c.category
    decls = ', '.join(p.decl for p in c.params) or 'void'
    args = ', '.join(p.name for p in c.params)
    out.write('\nPZ_EXPORT int %s(%s)\n{\n' % (c.name, decls))
    out.write('    struct pz_call call;\n\n')
    out.write('    if (!pz_call_enter(&call, PZ_CALL_%s))\n' % c.name)
    out.write('        return P%s(%s);\n' % (c.name, args))
    if cat.pre:
        pre_args = ', '.join(['&call'] + [c.arg_for(a) for a in cat.pre])
        out.write('    if (pz_pre_%s(%s))\n' % (cat.name, pre_args))
        out.write('        return pz_call_leave(&call);\n')
    out.write('    call.ret = P%s(%s);\n' % (c.name, args))
    out.write('    pz_call_returned(&call);\n')
    if cat.post:
        post_args = ', '.join(['&call'] + [c.arg_for(a) for a in cat.post])
        out.write('    if (call.ret == MPI_SUCCESS)\n')
        out.write('        pz_post_%s(%s);\n' % (cat.name, post_args))
    out.write('    return pz_call_leave(&call);\n}\n')


def write_wrappers_c(out, calls, available):
    out.write(HEADER)
    out.write('#include "hooks.h"\n#include "hooks_coll.h"\n#include "hooks_io.h"\n'
              '#include "hooks_p2p.h"\n#include "hooks_rma.h"\n')
    for c in calls:
        if not c.category.hand and (available is None or 'P' + c.name in available):
            write_wrapper(out, c)


def read_available(path):
    with open(path) as f:
        return {line.strip() for line in f if line.strip()}


def main():
    # calls: the reader side (ids, names, categories: trace/); wrappers: the wrapper's;
    # ops: the collective operations' enum (model/, installed with coll.h).
    args = sys.argv[1:]
    available = None
    if args[:1] == ['--available'] and len(args) > 1:
        available = read_available(args[1])
        args = args[2:]
    parts = args[2:] or ['calls', 'wrappers', 'ops']
    if len(args) < 2 or any(p not in ('calls', 'wrappers', 'ops') for p in parts):
        sys.exit('usage: gen_calls.py [--available FILE] TABLE OUTDIR [calls] [wrappers] [ops]')
    categories, calls = read_table(args[0])
    outdir = args[1]
    if 'calls' in parts:
        with open(outdir + '/calls_gen.h', 'w') as out:
            write_calls_h(out, categories, calls)
        with open(outdir + '/calls_gen.c', 'w') as out:
            write_calls_c(out, calls)
    if 'wrappers' in parts:
        with open(outdir + '/wrappers_gen.c', 'w') as out:
            write_wrappers_c(out, calls, available)
    if 'ops' in parts:
        with open(outdir + '/coll_ops.h', 'w') as out:
            write_coll_ops_h(out)


if __name__ == '__main__':
    main()
