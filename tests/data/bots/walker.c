/* Amazes: step ahead when open, else right, else left, else turn around. */
#include <stdio.h>
#include <string.h>

int main(void) {
    char line[5][64];
    while (fgets(line[0], sizeof line[0], stdin)) {
        if (strncmp(line[0], "Start", 5) == 0) continue;
        if (strncmp(line[0], "Quit", 4) == 0) break;
        for (int i = 1; i < 5; i++)
            if (!fgets(line[i], sizeof line[i], stdin)) return 0;
        const char *move = strlen(line[0]) > 2 ? "F" : strlen(line[1]) > 2 ? "R"
                         : strlen(line[3]) > 2 ? "L" : "T";
        puts(move);
        fflush(stdout);
    }
    return 0;
}
