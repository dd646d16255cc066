/* A program that reaches MPI only through a library of its own (via_lib.c). */
#include <stdio.h>

int via_ring(int *argc, char ***argv);

int main(int argc, char **argv)
{
    int got = via_ring(&argc, &argv);

    printf("via: received %d\n", got);
    return got < 0;
}
