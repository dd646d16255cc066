/* Open MPI's control variables through MPI_T (calibrate_ob1.h). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "calibrate_ob1.h"

#ifdef OPEN_MPI
/* Reads an integer control variable of any width into *number: 0, or -1. */
static int read_number(MPI_T_cvar_handle handle, MPI_Datatype type, double *number)
{
    unsigned long long ull = 0;
    unsigned long ul = 0;
    unsigned u = 0;
    int i = 0;

    if (type == MPI_INT && MPI_T_cvar_read(handle, &i) == MPI_SUCCESS)
        *number = i;
    else if (type == MPI_UNSIGNED && MPI_T_cvar_read(handle, &u) == MPI_SUCCESS)
        *number = u;
    else if (type == MPI_UNSIGNED_LONG && MPI_T_cvar_read(handle, &ul) == MPI_SUCCESS)
        *number = (double)ul;
    else if (type == MPI_UNSIGNED_LONG_LONG && MPI_T_cvar_read(handle, &ull) == MPI_SUCCESS)
        *number = (double)ull;
    else
        return -1;
    return 0;
}

/* Reads control variable `name` (an integer of any width, or a string into text of len
 * bytes): 0, or -1 if there is none or it cannot be read. */
static int read_cvar(const char *name, double *number, char *text, size_t len)
{
    int index, count, verbosity, bind, scope, namelen = 0, desclen = 0, rc = -1;
    MPI_Datatype type;
    MPI_T_enum values;
    MPI_T_cvar_handle handle;

    if (MPI_T_cvar_get_index(name, &index) != MPI_SUCCESS ||
        MPI_T_cvar_get_info(index, NULL, &namelen, &verbosity, &type, &values, NULL, &desclen,
                            &bind, &scope) != MPI_SUCCESS ||
        bind != MPI_T_BIND_NO_OBJECT ||
        MPI_T_cvar_handle_alloc(index, NULL, &handle, &count) != MPI_SUCCESS)
        return -1;
    if (type == MPI_CHAR && text && count > 0) {
        char buf[4096] = "";

        if (count < (int)sizeof(buf) && MPI_T_cvar_read(handle, buf) == MPI_SUCCESS) {
            snprintf(text, len, "%s", buf);
            rc = 0;
        }
    } else if (number && count == 1) {
        rc = read_number(handle, type, number);
    }
    MPI_T_cvar_handle_free(&handle);
    return rc;
}

void pz_cal_ob1_read(struct pz_cal_ob1 *o, int same_node)
{
    int provided;
    double flags = 0;

    memset(o, 0, sizeof(*o));
    if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS) {
        o->read = read_cvar("btl_tcp_eager_limit", &o->eager_limit, NULL, 0) == 0 &&
                  read_cvar("btl_tcp_rndv_eager_limit", &o->rndv_eager_limit, NULL, 0) == 0 &&
                  read_cvar("btl_tcp_flags", &flags, NULL, 0) == 0;
        o->flags = (unsigned)flags;
        /* a selection that cannot be read counts as none: any component */
        read_cvar("btl", NULL, o->btl, sizeof(o->btl));
        read_cvar("pml", NULL, o->pml, sizeof(o->pml));
        MPI_T_finalize();
    }
    pz_cal_ob1_decide(o, same_node);
}
#else
void pz_cal_ob1_read(struct pz_cal_ob1 *o, int same_node)
{
    memset(o, 0, sizeof(*o));
    pz_cal_ob1_decide(o, same_node);
}
#endif
