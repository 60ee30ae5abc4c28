// A minimal Falldown (JavaChallenge 2015) bot: it leaves a falling block for a standing
// one; otherwise it attacks an opponent in its block row or column (turning to face it first),
// or walks towards the first opponent still on the board to get in line with it.
//
// It first writes READY. Then, in every slot of its player, it reads 13 lines: its id p, the
// slot number T, six lines of the 6x6 block values (0 standing, >0 falling in that many
// slots, <0 fallen), four lines "x y D S" (column, row, facing, wait; -1 -1 once fallen) for
// players 0..3, and "EOD". It answers one line: U R D L (face and step), A (attack), N. The
// same strategy, move for move, as bot.py and Bot.java.
#include <iostream>
#include <string>

int blocks[6][6];

// The value of the block under cell (x, y); 0 (standing) off the board, where a command
// only turns us.
int block(int x, int y) {
    return x >= 0 && x < 18 && y >= 0 && y < 18 ? blocks[y / 3][x / 3] : 0;
}

// Our command, as player `me`.
char choose(int me, const int x[4], const int y[4], const char facing[4], const int wait[4]) {
    const std::string names = "URDL";
    const int dx[] = {0, 1, 0, -1}, dy[] = {-1, 0, 1, 0};
    int mx = x[me], my = y[me];
    if (mx < 0 || wait[me] > 0) return 'N';  // fallen, or waiting after an attack: ignored
    if (block(mx, my) > 0) {  // our block is falling: step onto a standing one
        for (int d = 0; d < 4; d++) {
            int nx = mx + dx[d], ny = my + dy[d];
            if (nx >= 0 && nx < 18 && ny >= 0 && ny < 18 && block(nx, ny) == 0) return names[d];
        }
    }
    for (int other = 0; other < 4; other++) {
        if (other == me || x[other] < 0) continue;
        // the way to face: towards its block column if not in ours, else its block row
        char way;
        if (x[other] / 3 != mx / 3) way = x[other] > mx ? 'R' : 'L';
        else way = y[other] > my ? 'D' : 'U';
        if ((x[other] / 3 == mx / 3 || y[other] / 3 == my / 3) && way == facing[me])
            return 'A';  // in line, and we face it: its block falls in 4 slots a block
        int d = names.find(way);
        if (block(mx + dx[d], my + dy[d]) <= 0) return way;  // never onto a falling block
    }
    return 'N';
}

int main() {
    std::cout << "READY" << std::endl;
    int me, slot, x[4], y[4], wait[4];
    char facing[4];
    std::string eod;
    while (std::cin >> me >> slot) {
        for (auto &row : blocks)
            for (int &value : row) std::cin >> value;
        for (int p = 0; p < 4; p++) std::cin >> x[p] >> y[p] >> facing[p] >> wait[p];
        std::cin >> eod;  // "EOD"
        std::cout << choose(me, x, y, facing, wait) << std::endl;  // endl flushes
    }
    return 0;
}
