/* The program's call of a binding (sites.h): which code is a binding's, and what
 * pz_sites_program_call gives for a return address in a binding and elsewhere.  Here the
 * recorder is linked into the test program, which is therefore no binding: the first
 * frame outside the bindings is the recorder's own unwinding function, in sites.c. */
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <string.h>

#include "callsite.h"
#include "sites.h"

/* A code address of the named function where it is defined (not a PLT entry). */
static uintptr_t code_of(const char *name)
{
    void *f = dlsym(RTLD_DEFAULT, name);

    cr_assert_not_null(f, "no symbol %s", name);
    return (uintptr_t)f;
}

__attribute__((noinline, noclone)) static uintptr_t here(void)
{
    return (uintptr_t)__builtin_return_address(0);
}

Test(sites, a_return_address_in_the_program_or_libc_is_its_own_site)
{
    uintptr_t in_program = here(), in_libc = code_of("getpid") + 1;

    cr_expect_eq(pz_sites_program_call(in_program), in_program);
    cr_expect_eq(pz_sites_program_call(in_libc), in_libc);
    cr_expect_not(pz_sites_in_binding(in_program), "the program is no binding");
    cr_expect_not(pz_sites_in_binding(in_libc), "libc is no binding");
}

Test(sites, mpi_s_library_is_a_binding_found_once)
{
    uintptr_t in_mpich = code_of("PMPI_Comm_rank") + 1;

    pz_sites_program_call(here());
    cr_assert(__atomic_load_n(&pz_sites_bindings.ready, __ATOMIC_ACQUIRE));
    /* MPICH's libmpich (libmpi.so elsewhere): one executable segment at least */
    cr_expect_geq(pz_sites_bindings.n, 1);
    cr_expect(pz_sites_in_binding(in_mpich));
    cr_expect_leq(pz_sites_bindings.lo, in_mpich);
    cr_expect_gt(pz_sites_bindings.hi, in_mpich);
}

Test(sites, a_return_address_in_a_binding_gives_the_first_frame_outside_it)
{
    uintptr_t in_mpich = code_of("PMPI_Comm_rank") + 1;
    uintptr_t site = pz_sites_program_call(in_mpich);
    struct pz_callsites *cs = pz_callsites_open();
    struct pz_source_loc loc;
    const char *slash;

    cr_assert_neq(site, in_mpich);
    cr_expect_not(pz_sites_in_binding(site));
    cr_assert_not_null(cs);
    cr_assert_eq(pz_callsites_resolve(cs, site, &loc), 0);
    slash = strrchr(loc.file, '/');
    cr_expect_str_eq(slash ? slash + 1 : loc.file, "sites.c");
    cr_expect_str_eq(loc.function, "pz_sites_unwind_bindings");
    pz_callsites_close(cs);
}
