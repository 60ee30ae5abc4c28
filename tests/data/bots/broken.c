/* Amazes: does not build (a missing semicolon on line 5). */
#include <stdio.h>

int main(void) {
    puts("T")
    return 0;
}
