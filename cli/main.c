/* main.c — cimport command line (being built). */
#include <stdio.h>
int main(void) {
    fprintf(stderr, "cimport: not built yet\n");
    return 2;
}
