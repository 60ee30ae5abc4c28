/* Connect Four's referee, written in C: the external-referee example of botarena
 * (docs/external-referee.md). It plays the same game as examples/connect4's Python rules:
 * drop a disc in a column; four in a row (across, down or diagonal) wins; a full board is
 * a draw; a bot that faults (crashes, times out, answers badly) forfeits.
 *
 * It reads botarena's requests on stdin and writes its answers on stdout, one block a
 * request, each ended by a line `end`. No clock, no file, no randomness: the same requests
 * always give the same answers. Build: gcc -O2 -o referee referee.c */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SIDE 20

static int columns = 7, rows = 6, turn_ms = 1000;
static char grid[MAX_SIDE][MAX_SIDE + 1];
static int moves[MAX_SIDE * MAX_SIDE], move_count;
static int winner = -1, forfeit = -1;
static int line[MAX_SIDE * 4][2], line_length;

static void die(const char *why) {
    fprintf(stderr, "connect4 referee: %s\n", why);
    exit(1);
}

static int seat_to_move(void) { return move_count % 2; }

static int is_over(void) { return winner >= 0 || move_count == rows * columns; }

static int compare_squares(const void *a, const void *b) {
    const int *x = a, *y = b;
    return x[0] != y[0] ? x[0] - y[0] : x[1] - y[1];
}

/* The squares of a line of four or more through (row, column), sorted; 0 if none. */
static int four(int row, int column) {
    static const int steps[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    char disc = grid[row][column];
    for (int d = 0; d < 4; d++) {
        line_length = 0;
        line[line_length][0] = row, line[line_length++][1] = column;
        for (int sign = 1; sign >= -1; sign -= 2) {
            int r = row + sign * steps[d][0], c = column + sign * steps[d][1];
            while (r >= 0 && r < rows && c >= 0 && c < columns && grid[r][c] == disc) {
                line[line_length][0] = r, line[line_length++][1] = c;
                r += sign * steps[d][0], c += sign * steps[d][1];
            }
        }
        if (line_length >= 4) {
            qsort(line, line_length, sizeof line[0], compare_squares);
            return line_length;
        }
    }
    line_length = 0;
    return 0;
}

/* A column as Python's int() reads it (spaces around, a sign, digits maybe split by single
 * underscores), if it names a column that is not full; else -1. */
static int legal_column(const char *text) {
    while (isspace((unsigned char)*text)) text++;
    const char *end = text + strlen(text);
    while (end > text && isspace((unsigned char)end[-1])) end--;
    int negative = 0;
    if (text < end && (*text == '+' || *text == '-')) negative = *text++ == '-';
    if (text == end || !isdigit((unsigned char)*text) || !isdigit((unsigned char)end[-1]))
        return -1;
    long value = 0;
    for (const char *p = text; p < end; p++) {
        if (*p == '_' && isdigit((unsigned char)p[1])) continue;
        if (!isdigit((unsigned char)*p)) return -1;
        value = value * 10 + (*p - '0');
        if (value > MAX_SIDE) return -1;
    }
    if (negative) value = -value;
    if (value < 0 || value >= columns || grid[0][value] != '.') return -1;
    return (int)value;
}

static void play(int column) {
    int row = rows - 1;
    while (grid[row][column] != '.') row--;
    grid[row][column] = "XO"[seat_to_move()];
    moves[move_count++] = column;
    if (four(row, column)) winner = 1 - seat_to_move(); /* the seat that just moved */
}

static void lose(int seat) {
    if (winner < 0) forfeit = seat, winner = 1 - seat;
}

static void print_frame(void) {
    printf("frame {\"board\":[");
    for (int r = 0; r < rows; r++) printf("%s\"%s\"", r ? "," : "", grid[r]);
    printf("],\"move\":");
    if (move_count) printf("%d", moves[move_count - 1]); else printf("null");
    printf(",\"winner\":");
    if (winner >= 0) printf("%d", winner); else printf("null");
    printf(",\"line\":[");
    for (int i = 0; i < line_length; i++) printf("%s[%d,%d]", i ? "," : "", line[i][0], line[i][1]);
    printf("]}\n");
}

/* What follows a request: whose turn and what that seat reads, or the end and the scores. */
static void answer(void) {
    if (is_over()) {
        const char *reason = winner < 0 ? "board full" : forfeit >= 0 ? "forfeit" : "four in a row";
        printf("over %d %s\n", move_count, reason);
        for (int seat = 0; seat < 2; seat++)
            printf("score %d %d\n", seat, winner < 0 ? 1 : seat == winner ? 2 : 0);
    } else {
        int seat = seat_to_move();
        printf("turn %d\nclock %d %d\nsend %d %d\n", seat, seat, turn_ms, seat, rows + 1);
        printf("%d %d %d %d\n", seat, columns, rows, move_count ? moves[move_count - 1] : -1);
        for (int r = 0; r < rows; r++) printf("%s\n", grid[r]);
    }
    print_frame();
    printf("end\n");
    fflush(stdout);
}

static int option(const char *name, const char *value, int low, int high) {
    char *end;
    long number = strtol(value, &end, 10);
    if (*value == '\0' || *end != '\0' || number < low || number > high) {
        fprintf(stderr, "connect4 referee: option %s: %s is out of %d..%d\n", name, value, low, high);
        exit(1);
    }
    return (int)number;
}

int main(void) {
    char *text = NULL;
    size_t size = 0;
    ssize_t length;
    int started = 0;
    while ((length = getline(&text, &size, stdin)) > 0) {
        if (text[length - 1] == '\n') text[--length] = '\0';
        char *rest = strchr(text, ' ');
        if (rest) *rest++ = '\0'; else rest = text + length;
        if (!strcmp(text, "new")) {
            if (started) die("a second `new`");
            if (atoi(rest) != 2) die("connect four has two seats");
        } else if (!strcmp(text, "seed")) {
            /* Connect Four has no chance: the seed plays no part */
        } else if (!strcmp(text, "option")) {
            char *value = strchr(rest, ' ');
            if (!value) die("an option without a value");
            *value++ = '\0';
            if (!strcmp(rest, "columns")) columns = option(rest, value, 4, MAX_SIDE);
            else if (!strcmp(rest, "rows")) rows = option(rest, value, 4, MAX_SIDE);
            else if (!strcmp(rest, "turn_ms")) turn_ms = option(rest, value, 1, 60000);
            else die("an unknown option");
        } else if (!strcmp(text, "answer") || !strcmp(text, "fault")) {
            int seat = atoi(rest);
            if (!started || is_over() || seat != seat_to_move()) die("an answer out of turn");
            if (!strcmp(text, "fault")) {
                lose(seat);
            } else {
                char *reply = strchr(rest, ' ');
                int column = legal_column(reply ? reply + 1 : "");
                if (column < 0) printf("invalid %d\n", seat), lose(seat);
                else play(column);
            }
        } else if (!strcmp(text, "end")) {
            if (!started) {
                started = 1;
                for (int r = 0; r < rows; r++) memset(grid[r], '.', columns), grid[r][columns] = '\0';
            }
            answer();
        } else {
            die("an unknown request");
        }
    }
    free(text);
    return 0;
}
