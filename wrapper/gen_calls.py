#!/usr/bin/env python3
"""Generate the MPI call table and the PMPI wrappers from wrapper/mpi_calls.tbl.

Usage: gen_calls.py TABLE OUTDIR
Writes OUTDIR/calls_gen.h, OUTDIR/calls_gen.c and OUTDIR/wrappers_gen.c.
The table format is described at the top of the table itself and in docs/mpi-table.md.
"""
import re
import sys

# C type of each role as a hook receives it, and the value an optional role takes
# when the function lacks it.
ROLE_TYPES = {
    'count': ('int', '0'), 'type': ('MPI_Datatype', 'MPI_DATATYPE_NULL'),
    'peer': ('int', 'MPI_PROC_NULL'), 'tag': ('int', '0'),
    'comm': ('MPI_Comm', 'MPI_COMM_NULL'), 'status': ('MPI_Status *', 'NULL'),
    'request': ('MPI_Request *', 'NULL'), 'requests': ('MPI_Request *', 'NULL'),
    'statuses': ('MPI_Status *', 'NULL'), 'n': ('int', '0'),
    'index': ('int *', 'NULL'), 'indices': ('int *', 'NULL'),
    'outcount': ('int *', 'NULL'), 'flag': ('int *', 'NULL'),
    'rpeer': ('int', 'MPI_PROC_NULL'), 'rtag': ('int', '0'),
    'sbuf': ('const void *', 'NULL'), 'scount': ('int', '0'), 'stype': ('MPI_Datatype', 'MPI_DATATYPE_NULL'),
    'rcount': ('int', '0'), 'rtype': ('MPI_Datatype', 'MPI_DATATYPE_NULL'),
    'scounts': ('const int *', 'NULL'), 'rcounts': ('const int *', 'NULL'),
    'stypes': ('const MPI_Datatype *', 'NULL'),
    'rtypes': ('const MPI_Datatype *', 'NULL'),
    'root': ('int', 'PZ_NO_ROOT'), 'op': ('MPI_Op', 'MPI_OP_NULL'),
    'message': ('MPI_Message *', 'NULL'), 'newcomm': ('MPI_Comm *', 'NULL'),
    'kind': ('enum pz_collective', 'PZ_COLL_NONE'),
}

# Roles that are no parameter: 'kind' passes the row's collective kind, a constant.
PSEUDO_ROLES = {'kind'}

COLLECTIVES = ['barrier', 'bcast', 'gather', 'gatherv', 'scatter', 'scatterv',
               'allgather', 'allgatherv', 'alltoall', 'alltoallv', 'alltoallw',
               'reduce', 'allreduce', 'reduce_scatter', 'reduce_scatter_block',
               'scan', 'exscan']

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
                if (cat == 'coll') != (coll is not None) or (coll and coll not in COLLECTIVES):
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
    out.write('/* Collective operation of a collective call; PZ_COLL_NONE otherwise. */\n')
    out.write('enum pz_collective {\n    PZ_COLL_NONE,\n')
    for k in COLLECTIVES:
        out.write('    PZ_COLL_%s,\n' % k.upper())
    out.write('};\n\n')
    out.write('struct pz_call_info {\n    const char *name;\n    enum pz_category category;\n'
              '    enum pz_collective collective;\n    int nonblocking;\n};\n\n')
    out.write('/* Indexed by enum pz_call_id. */\n')
    out.write('extern const struct pz_call_info pz_calls[PZ_NCALLS];\n\n#endif\n')


def write_calls_c(out, calls):
    out.write(HEADER)
    out.write('#include "calls_gen.h"\n\nconst struct pz_call_info pz_calls[PZ_NCALLS] = {\n')
    for c in calls:
        nb = 1 if 'request' in c.roles or 'requests' in c.roles else 0
        out.write('    [PZ_CALL_%s] = { "%s", PZ_CAT_%s, %s, %d },\n'
                  % (c.name, c.name, c.category.name.upper(), c.coll_enum, nb))
    out.write('};\n')


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


def write_wrappers_c(out, calls):
    out.write(HEADER)
    out.write('#include "hooks.h"\n#include "hooks_coll.h"\n#include "hooks_p2p.h"\n')
    for c in calls:
        if not c.category.hand:
            write_wrapper(out, c)


def main():
    # calls: the reader side (ids, names, categories: trace/); wrappers: the wrapper's.
    parts = sys.argv[3:] or ['calls', 'wrappers']
    if len(sys.argv) < 3 or any(p not in ('calls', 'wrappers') for p in parts):
        sys.exit('usage: gen_calls.py TABLE OUTDIR [calls] [wrappers]')
    categories, calls = read_table(sys.argv[1])
    outdir = sys.argv[2]
    if 'calls' in parts:
        with open(outdir + '/calls_gen.h', 'w') as out:
            write_calls_h(out, categories, calls)
        with open(outdir + '/calls_gen.c', 'w') as out:
            write_calls_c(out, calls)
    if 'wrappers' in parts:
        with open(outdir + '/wrappers_gen.c', 'w') as out:
            write_wrappers_c(out, calls)


if __name__ == '__main__':
    main()
