#!/usr/bin/env python3
"""Generate the wrappers of MPICH's 'use mpi_f08' routines from wrapper/mpi_calls.tbl.

Usage: gen_f08.py TABLE OUTFILE     writes the wrappers (wrappers_f08_gen.c)
       gen_f08.py --list TABLE      prints each wrapped function and its f08 symbol

MPICH's f08 routine of a function without a choice buffer, mpi_<name>_f08_, calls
PMPI_<Name> directly, so the C wrapper never sees the call.  Its generated wrapper
converts the Fortran arguments to C, calls the C wrapper MPI_<Name> and converts the
results back; the recording is the C wrapper's.  The routine of a function with a choice
buffer, mpi_<name>_f08ts_, calls the C MPI_<Name> and needs no wrapper.  A CHARACTER
argument (MPI_File_open's file name) comes with its length as gfortran passes it, a
hidden size_t after ierror, and is given to C as MPICH gives it, blanks trimmed.  The
rows of category 'hand' have hand-written f08 wrappers (fortran.c).  The Fortran notes ('!')
of the table's parameters are described at its top; the conversions are in fortran.h.
"""
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_calls import HEADER, TableError, read_table  # noqa: E402

HEADER = HEADER.replace('gen_calls.py', 'gen_f08.py')

# Handle types and the names of their conversion functions (MPI_<X>_f2c, MPI_<X>_c2f).
HANDLES = {'MPI_Comm': 'Comm', 'MPI_Group': 'Group', 'MPI_Info': 'Info',
           'MPI_Request': 'Request', 'MPI_Message': 'Message', 'MPI_Datatype': 'Type',
           'MPI_Op': 'Op', 'MPI_Errhandler': 'Errhandler', 'MPI_Win': 'Win',
           'MPI_File': 'File'}

# Integers of a kind other than INTEGER, passed by reference like every Fortran argument.
WIDE_INTEGERS = ('MPI_Aint', 'MPI_Offset', 'MPI_Count')

NOTES = ('logical', 'index', 'weights', 'cptr', 'in', 'len')

DECL = re.compile(r'(const\s+)?(\w+)\s*(\*?)\s*(\w+)\s*((?:\[\w*\])*)$')


def f08_symbol(call):
    """mpi_<name>_f08_; MPICH names the routine of a large-count form (MPI_<Name>_c)
    after its sibling's: mpi_<name>_f08_large_."""
    name = call.name[4:].lower()
    if name.endswith('_c'):
        return 'mpi_%s_f08_large_' % name[:-2]
    return 'mpi_%s_f08_' % name


def is_choice_buffer(param):
    return param.name is not None and re.match(r'(const\s+)?void\s*\*', param.decl) \
        and 'cptr' not in param.fortran


def is_string(param):
    """A CHARACTER argument (MPI_File_open's name), a C string at the C side."""
    return param.name is not None and re.match(r'(const\s+)?char\s*\*', param.decl)


def needs_f08_wrapper(call):
    """A generated f08 wrapper: neither hand-written nor reaching C through _f08ts_."""
    return not call.category.hand and not any(is_choice_buffer(p) for p in call.params)


class Arg:
    """One parameter of an f08 wrapper: its declaration and what the wrapper does."""

    def __init__(self, call, param):
        if param.name is None:
            raise TableError('%s: variable arguments need a hand-written wrapper' % call.name)
        m = DECL.match(param.decl)
        if not m:
            raise TableError("%s: cannot read '%s'" % (call.name, param.decl))
        const, ctype, star, name, dims = m.groups()
        self.name = name
        # hidden: the length gfortran passes after ierror; release: what frees a
        # conversion that may run out of memory (its C argument then NULL)
        self.pre, self.post, self.scratch, self.hidden, self.release = [], [], None, None, None
        notes = {}
        for n in param.fortran:
            key, _, value = n.partition('=')
            if key not in NOTES or (key == 'len') != bool(value):
                raise TableError("%s: bad Fortran note '!%s'" % (call.name, n))
            notes[key] = value
        self.notes = notes
        length = None
        if 'len' in notes:
            if notes['len'] not in [p.name for p in call.params]:
                raise TableError('%s: !len=%s names no parameter' % (call.name, notes['len']))
            length = '*' + notes['len']
        kind = (ctype, star, bool(dims))
        const = 'const ' if const else ''
        c = name + '_c'
        used = set()

        def has(note):
            used.add(note)
            return note in notes

        def unsupported():
            raise TableError("%s: no Fortran conversion for '%s'%s"
                             % (call.name, param.decl,
                                ' (needs !len=)' if dims and not length else ''))

        if ctype == 'void' and star and has('cptr'):
            self.decl, self.arg = 'void *' + name, name
        elif kind == ('char', '*', False) and const:
            self.decl, self.arg, self.hidden = 'const char *' + name, c, 'size_t %s_len' % name
            self.pre.append('char *%s = pz_f08_string_in(%s, %s_len);' % (c, name, name))
            self.release = 'free(%s);' % c
        elif kind == ('int', '', False):
            self.decl = 'const MPI_Fint *' + name
            self.arg = 'pz_f08_logical_in(%s)' % name if has('logical') else '*' + name
        elif kind == ('int', '*', False):
            self.decl, self.arg = 'MPI_Fint *' + name, name
            if has('logical'):
                self.pre.append('int %s = 0;' % c)
                self.arg = '&' + c
                self.post.append('pz_f08_logical_out(%s, %s);' % (name, c))
            elif has('index'):
                self.post.append('pz_f08_index_out(%s);' % name)
        elif kind == ('int', '', True):
            # LOGICAL arrays pass as they are: MPICH copies them unchanged to C, which
            # reads their 1 and 0 as truth values.
            has('logical')
            self.decl, self.arg = '%sMPI_Fint %s%s' % (const, name, dims), name
            if has('weights'):
                self.arg = 'pz_f08_weights(%s)' % name
            if has('index'):
                if not has('len'):
                    unsupported()
                self.post.append('pz_f08_indices_out(%s, %s);' % (name, length))
        elif ctype in WIDE_INTEGERS and not star and not dims:
            self.decl, self.arg = 'const %s *%s' % (ctype, name), '*' + name
        elif ctype in WIDE_INTEGERS and star and not const and not dims:
            self.decl, self.arg = '%s *%s' % (ctype, name), name
        elif ctype in HANDLES and not star and not dims:
            self.decl = 'const MPI_Fint *' + name
            self.arg = 'MPI_%s_f2c(*%s)' % (HANDLES[ctype], name)
        elif ctype in HANDLES and star and not const:
            self.decl = ('const ' if has('in') else '') + 'MPI_Fint *' + name
            self.arg = '&' + c
            self.pre.append('%s %s = MPI_%s_f2c(*%s);' % (ctype, c, HANDLES[ctype], name))
            if not has('in'):
                self.post.append('*%s = MPI_%s_c2f(%s);' % (name, HANDLES[ctype], c))
        elif ctype == 'MPI_Request' and dims == '[]' and not const and has('len'):
            self.decl, self.arg, self.scratch = 'MPI_Fint %s[]' % name, c, name + '_s'
            self.release = 'pz_f08_scratch_free(&%s);' % self.scratch
            self.pre.append('struct pz_f08_scratch %s;' % self.scratch)
            self.pre.append('MPI_Request *%s = pz_f08_requests_in(&%s, %s, %s);'
                            % (c, self.scratch, name, length))
            self.post.append('pz_f08_requests_out(%s, %s, %s);' % (name, c, length))
        elif ctype == 'MPI_Status' and star and not dims:
            self.decl, self.arg = '%sMPI_F08_status *%s' % (const, name), c
            self.pre.append('MPI_Status %s_s, *%s = pz_f08_status_%s(%s, &%s_s);'
                            % (name, c, 'read' if const else 'in', name, name))
            if not const:
                self.post.append('pz_f08_status_out(%s, %s);' % (name, c))
        elif ctype == 'MPI_Status' and dims == '[]' and not const and has('len'):
            self.decl, self.arg, self.scratch = 'MPI_F08_status %s[]' % name, c, name + '_s'
            self.release = 'pz_f08_scratch_free(&%s);' % self.scratch
            self.pre.append('struct pz_f08_scratch %s;' % self.scratch)
            self.pre.append('MPI_Status *%s = pz_f08_statuses_in(&%s, %s, %s);'
                            % (c, self.scratch, name, length))
            self.post.append('pz_f08_statuses_out(%s, %s, %s);' % (name, c, length))
        else:
            unsupported()
        if set(notes) - used:
            raise TableError("%s: Fortran note(s) %s of '%s' do not apply"
                             % (call.name, ', '.join('!' + n for n in sorted(set(notes) - used)),
                                param.decl))


def write_wrapper(out, call):
    args = [Arg(call, p) for p in call.params]
    names = {a.name for a in args} | {'ierror'}
    for a in args:
        for local in (a.name + '_c', a.name + '_s', a.name + '_len', 'ret'):
            if local in names:
                raise TableError('%s: parameter name %s clashes with a local' % (call.name, local))
    sym = f08_symbol(call)
    decls = [a.decl for a in args] + ['MPI_Fint *ierror'] + [a.hidden for a in args if a.hidden]
    passed = [a.name for a in args] + ['ierror'] + [a.name + '_len' for a in args if a.hidden]
    proto = 'PZ_EXPORT void %s(%s)' % (sym, ', '.join(decls))
    out.write('\n%s;\n%s\n{\n' % (proto, proto))
    for a in args:
        for line in a.pre:
            out.write('    %s\n' % line)
    out.write('    int ret;\n\n')
    converted = [a for a in args if a.release]
    if converted:
        # Out of memory for a conversion: MPICH's own routine does the call, unrecorded.
        out.write('    if (%s) {\n' % ' || '.join('!%s_c' % a.name for a in converted))
        for a in converted:
            out.write('        %s\n' % a.release)
        out.write('        ((void (*)(%s))pz_f08_next("%s"))(%s);\n'
                  % (', '.join(decls), sym, ', '.join(passed)))
        out.write('        return;\n    }\n')
    out.write('    ret = %s(%s);\n' % (call.name, ', '.join(a.arg for a in args)))
    for a in args:
        for line in a.post:
            out.write('    %s\n' % line)
    for a in converted:
        out.write('    %s\n' % a.release)
    out.write('    if (ierror)\n        *ierror = ret;\n}\n')


def write_wrappers(out, calls):
    out.write(HEADER)
    out.write('/* The use mpi_f08 routines of MPICH that call PMPI_ directly (see gen_f08.py). */\n')
    out.write('#include "fortran.h"\n\n#if PZ_F08\n')
    for c in calls:
        if needs_f08_wrapper(c):
            write_wrapper(out, c)
    out.write('\n#endif\n')


def main():
    if len(sys.argv) == 3 and sys.argv[1] == '--list':
        for c in read_table(sys.argv[2])[1]:
            if needs_f08_wrapper(c):
                print(c.name, f08_symbol(c))
        return
    if len(sys.argv) != 3:
        sys.exit('usage: gen_f08.py TABLE OUTFILE | gen_f08.py --list TABLE')
    table, outfile = sys.argv[1:]
    _, calls = read_table(table)
    try:
        with open(outfile + '.tmp', 'w') as out:
            write_wrappers(out, calls)
    except TableError as e:
        os.unlink(outfile + '.tmp')
        sys.exit('%s: %s' % (table, e))
    os.replace(outfile + '.tmp', outfile)


if __name__ == '__main__':
    main()
