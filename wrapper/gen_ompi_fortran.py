#!/usr/bin/env python3
"""Generate the wrappers of Open MPI's Fortran routines (mpif.h, 'use mpi', 'use
mpi_f08') from wrapper/mpi_calls.tbl.

Usage: gen_ompi_fortran.py FUNCTIONS TABLE OUTFILE   writes the wrappers
       gen_ompi_fortran.py --list FUNCTIONS TABLE    prints each row: its Fortran
                                                     routine, or why it has none
FUNCTIONS: the PMPI_ functions Open MPI's mpi.h declares (wrapper/Makefile.am).

Open MPI's routine mpi_<name>_ (libmpi_mpifh, which 'use mpi' calls too) calls
PMPI_<Name> directly, so the C wrapper never sees the call.  Its generated wrapper, of
the same name and of the other names Open MPI gives the routine (mpi_<name>,
mpi_<name>__, MPI_<NAME>), converts the Fortran arguments to C, calls the C wrapper
MPI_<Name> and converts the results back: the recording is the C wrapper's, once.
Open MPI's 'use mpi_f08' routine mpi_<name>_f08_ has the same arguments: a handle
TYPE(MPI_Comm) is one INTEGER, TYPE(MPI_Status) the INTEGERs of a status, the optional
ierror NULL when absent, a choice buffer its address (Open MPI ignores its type); the
wrapper is given its name too.  The
rows of category 'hand' are wrapped by hand (ompi_fortran.c).  The Fortran notes ('!')
of the table's parameters are described at its top; the conversions are in
ompi_fortran.h.  The ABI is Open MPI's own, that of the routines replaced: every
argument by reference, ierror last, then the hidden length of each CHARACTER argument
as an int (gfortran passes a size_t, whose low half it is on x86-64).
"""
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_calls import HEADER, TableError, read_available, read_table  # noqa: E402
from gen_f08 import DECL, HANDLES, NOTES, WIDE_INTEGERS, is_choice_buffer, is_string  # noqa: E402

HEADER = HEADER.replace('gen_calls.py', 'gen_ompi_fortran.py')

# The table names the request of MPI_File_iread... MPIO_Request, which mpi.h makes an
# MPI_Request.
HANDLES = dict(HANDLES, MPIO_Request='Request')

# Rows whose Fortran routine does what the C function does not.
DIFFERENT = {
    'MPI_Buffer_detach': "mpif.h's BUFFER_ADDR receives no address",
}


class Unwrapped(Exception):
    """A row without a Fortran wrapper, and why."""


def symbol(call):
    return call.name.lower() + '_'


def aliases(call):
    """Open MPI's other names of the routine, for other compilers' conventions, and the
    name of its 'use mpi_f08' routine."""
    lower = call.name.lower()
    return [lower, lower + '__', call.name.upper(), lower + '_f08_']


class Arg:
    """One parameter of a Fortran wrapper: its declaration and what the wrapper does."""

    def __init__(self, call, param):
        if param.name is None:
            raise Unwrapped('variable arguments')
        m = DECL.match(param.decl)
        if not m:
            raise TableError("%s: cannot read '%s'" % (call.name, param.decl))
        const, ctype, star, name, dims = m.groups()
        self.name = name
        # scratch: a conversion that allocates, as (the test that it failed, its release)
        self.pre, self.post, self.scratch, self.hidden = [], [], None, None
        notes = {}
        for n in param.fortran:
            key, _, value = n.partition('=')
            if key not in NOTES:
                raise TableError("%s: bad Fortran note '!%s'" % (call.name, n))
            notes[key] = value
        length = '*' + notes['len'] if notes.get('len') else None
        const = 'const ' if const else ''
        c = name + '_c'
        kind = (ctype, star, bool(dims))

        if ctype == 'void' and star and 'cptr' in notes:
            self.decl, self.arg = 'void *' + name, name
        elif is_choice_buffer(param):
            self.decl, self.arg = '%svoid *%s' % (const, name), 'pz_ompi_buffer(%s)' % name
        elif is_string(param):
            self.decl, self.arg = '%schar *%s' % (const, name), c
            self.scratch = ('!' + c, 'free(%s);' % c)
            self.hidden = 'int %s_len' % name
            self.pre.append('char *%s = pz_ompi_string_in(%s, %s_len);' % (c, name, name))
            self.post.append('free(%s);' % c)
        elif kind == ('int', '', False):
            self.decl = 'const MPI_Fint *' + name
            self.arg = 'pz_ompi_logical_in(%s)' % name if 'logical' in notes else '*' + name
        elif kind == ('int', '*', False):
            self.decl, self.arg = 'MPI_Fint *' + name, name
            if 'logical' in notes:
                self.pre.append('int %s = 0;' % c)
                self.arg = '&' + c
                self.post.append('pz_ompi_logical_out(%s, %s);' % (name, c))
            elif 'index' in notes:
                self.post.append('pz_ompi_index_out(%s);' % name)
        elif kind == ('int', '', True):
            # LOGICAL arrays pass as they are: gfortran's .TRUE. is 1, a C truth value.
            self.decl, self.arg = '%sMPI_Fint %s%s' % (const, name, dims), name
            if 'weights' in notes:
                self.arg = 'pz_ompi_weights(%s)' % name
            if 'index' in notes:
                self.post.append('pz_ompi_indices_out(%s, %s);' % (name, length))
        elif ctype in WIDE_INTEGERS and not star and not dims:
            self.decl, self.arg = 'const %s *%s' % (ctype, name), '*' + name
        elif ctype in WIDE_INTEGERS and const and dims == '[]':
            # INTEGER(KIND=MPI_ADDRESS_KIND) arrays (the neighborhood Alltoallw's
            # displacements) have the C type's width
            self.decl, self.arg = 'const %s %s[]' % (ctype, name), name
        elif ctype in WIDE_INTEGERS and star and not const and not dims:
            self.decl, self.arg = '%s *%s' % (ctype, name), name
        elif ctype in HANDLES and not star and not dims:
            self.decl = 'const MPI_Fint *' + name
            self.arg = 'MPI_%s_f2c(*%s)' % (HANDLES[ctype], name)
        elif ctype in HANDLES and star and not const and not dims:
            self.decl = ('const ' if 'in' in notes else '') + 'MPI_Fint *' + name
            self.arg = '&' + c
            self.pre.append('%s %s = MPI_%s_f2c(*%s);' % (ctype, c, HANDLES[ctype], name))
            if 'in' not in notes:
                self.post.append('*%s = MPI_%s_c2f(%s);' % (name, HANDLES[ctype], c))
        elif ctype == 'MPI_Request' and dims == '[]' and not const and length:
            self.decl, self.arg = 'MPI_Fint %s[]' % name, c
            self.scratch = ('!' + c, 'free(%s);' % c)
            self.pre.append('MPI_Request *%s = pz_ompi_requests_in(%s, %s);'
                            % (c, name, length))
            self.post.append('pz_ompi_requests_out(%s, %s, %s);' % (name, c, length))
            self.post.append('free(%s);' % c)
        elif ctype == 'MPI_Status' and star and not dims:
            self.decl, self.arg = '%sMPI_Fint *%s' % (const, name), c
            self.pre.append('MPI_Status %s_s, *%s = pz_ompi_status_%s(%s, &%s_s);'
                            % (name, c, 'read' if const else 'in', name, name))
            if not const:
                self.post.append('pz_ompi_status_out(%s, %s);' % (name, c))
        elif ctype == 'MPI_Status' and dims == '[]' and not const and length:
            self.decl, self.arg = 'MPI_Fint %s[]' % name, c
            self.scratch = ('pz_ompi_statuses_lost(%s, %s)' % (name, c),
                            'pz_ompi_statuses_free(%s);' % c)
            self.pre.append('MPI_Status *%s = pz_ompi_statuses_in(%s, %s);'
                            % (c, name, length))
            self.post.append('pz_ompi_statuses_out(%s, %s, %s);' % (name, c, length))
            self.post.append('pz_ompi_statuses_free(%s);' % c)
        elif ctype == 'MPI_Datatype' and dims == '[]' and const and not length:
            self.decl, self.arg = 'const MPI_Fint %s[]' % name, c
            self.scratch = ('!' + c, 'free(%s);' % c)
            self.pre.append('MPI_Datatype *%s = pz_ompi_types_in(%s, %s);'
                            % (c, name, types_count(call, param)))
            self.post.append('free(%s);' % c)
        else:
            raise Unwrapped("no conversion for '%s'" % param.decl)


def types_count(call, param):
    """The C expression of the length of an array of datatypes the table gives none
    (Alltoallw's, the neighborhood Alltoallw's), known at run time from the communicator.
    The send types of an MPI_IN_PLACE send are ignored, possibly invalid: none are
    converted."""
    if 'comm' not in call.roles or param.role not in ('stypes', 'rtypes'):
        raise Unwrapped("no conversion for '%s'" % param.decl)
    count = 'pz_ompi_types_count(MPI_Comm_f2c(*%s), %d, %d)' % (
        call.roles['comm'].name, call.category.name in ('nbr', 'pnbr'),
        param.role == 'rtypes')
    if param.role == 'stypes' and 'sbuf' in call.roles:
        return 'pz_ompi_buffer(%s) == MPI_IN_PLACE ? 0 : %s' % (call.roles['sbuf'].name, count)
    return count


def arguments(call, available):
    """The wrapper's Args; Unwrapped if the row gets no generated Fortran wrapper."""
    if call.category.hand:
        raise Unwrapped('hand-written (ompi_fortran.c)')
    if call.name.endswith('_c'):
        raise Unwrapped('large-count form: mpif.h has none')
    if 'P' + call.name not in available:
        raise Unwrapped('not in this Open MPI')
    if call.name in DIFFERENT:
        raise Unwrapped(DIFFERENT[call.name])
    return [Arg(call, p) for p in call.params]


def write_wrapper(out, call, args):
    names = {a.name for a in args} | {'ierror'}
    for a in args:
        for local in (a.name + '_c', a.name + '_s', a.name + '_len', 'ret'):
            if local in names:
                raise TableError('%s: parameter name %s clashes with a local' % (call.name, local))
    sym = symbol(call)
    decls = [a.decl for a in args] + ['MPI_Fint *ierror'] + [a.hidden for a in args if a.hidden]
    params = '(%s)' % ', '.join(decls)
    out.write('\nPZ_EXPORT void %s%s;\n' % (sym, params))
    for alias in aliases(call):
        out.write('PZ_EXPORT void %s%s __attribute__((alias("%s")));\n' % (alias, params, sym))
    out.write('void %s%s\n{\n' % (sym, params))
    for a in args:
        for line in a.pre:
            out.write('    %s\n' % line)
    out.write('    int ret;\n\n')
    scratch = [a.scratch for a in args if a.scratch]
    if scratch:
        # Out of memory for a conversion: Open MPI's own routine does the call, unrecorded.
        out.write('    if (%s) {\n' % ' || '.join(failed for failed, _ in scratch))
        for _, release in scratch:
            out.write('        %s\n' % release)
        out.write('        ((void (*)%s)pz_ompi_next("%s"))(%s);\n'
                  % (params, sym, ', '.join([a.name for a in args] + ['ierror'] +
                                            [a.name + '_len' for a in args if a.hidden])))
        out.write('        return;\n    }\n')
    out.write('    ret = %s(%s);\n' % (call.name, ', '.join(a.arg for a in args)))
    for a in args:
        for line in a.post:
            out.write('    %s\n' % line)
    out.write('    if (ierror)\n        *ierror = ret;\n}\n')


def rows(calls, available):
    """Each row with its Args, or with the reason it has no wrapper."""
    for c in calls:
        try:
            yield c, arguments(c, available), None
        except Unwrapped as e:
            yield c, None, str(e)


def write_wrappers(out, calls, available):
    out.write(HEADER)
    out.write("/* Open MPI's Fortran routines of mpif.h and 'use mpi' (see gen_ompi_fortran.py). */\n")
    out.write('#include <stdlib.h>\n\n#include "ompi_fortran.h"\n')
    for c, args, _ in rows(calls, available):
        if args is not None:
            write_wrapper(out, c, args)


def main():
    if len(sys.argv) == 4 and sys.argv[1] == '--list':
        available = read_available(sys.argv[2])
        for c, args, why in rows(read_table(sys.argv[3])[1], available):
            print(c.name, symbol(c) if args is not None else '-', why or '')
        return
    if len(sys.argv) != 4:
        sys.exit('usage: gen_ompi_fortran.py FUNCTIONS TABLE OUTFILE | '
                 'gen_ompi_fortran.py --list FUNCTIONS TABLE')
    functions, table, outfile = sys.argv[1:]
    available = read_available(functions)
    _, calls = read_table(table)
    try:
        with open(outfile + '.tmp', 'w') as out:
            write_wrappers(out, calls, available)
    except TableError as e:
        os.unlink(outfile + '.tmp')
        sys.exit('%s: %s' % (table, e))
    os.replace(outfile + '.tmp', outfile)


if __name__ == '__main__':
    main()
