// A minimal Falldown (JavaChallenge 2015) bot: it leaves a falling block for a standing one,
// otherwise it attacks along its facing.
//
// It first writes READY. Then, in every slot of its player, it reads 13 lines: its id p, the
// slot number T, six lines of the 6x6 block values (0 standing, >0 falling in that many
// slots, <0 fallen), four lines "x y D S" (column, row, facing, wait; -1 -1 once fallen) for
// players 0..3, and "EOD". It answers one line: U R D L (face and step), A (attack), N.
#include <iostream>
#include <string>

int main() {
    std::cout << "READY" << std::endl;
    const char *names = "URDL";
    const int dx[] = {0, 1, 0, -1}, dy[] = {-1, 0, 1, 0};
    int me, slot, blocks[6][6], x[4], y[4], wait[4];
    std::string facing, eod;
    while (std::cin >> me >> slot) {
        for (auto &row : blocks)
            for (int &value : row) std::cin >> value;
        for (int p = 0; p < 4; p++) std::cin >> x[p] >> y[p] >> facing >> wait[p];
        std::cin >> eod;  // "EOD"
        char command = 'A';
        if (x[me] < 0 || wait[me] > 0) {
            command = 'N';  // fallen, or waiting after an attack: the answer is ignored
        } else if (blocks[y[me] / 3][x[me] / 3] > 0) {  // falling: step onto a standing block
            for (int d = 0; d < 4; d++) {
                int nx = x[me] + dx[d], ny = y[me] + dy[d];
                if (nx >= 0 && nx < 18 && ny >= 0 && ny < 18 && blocks[ny / 3][nx / 3] == 0) {
                    command = names[d];
                    break;
                }
            }
        }
        std::cout << command << std::endl;  // endl flushes: the jury waits for the line
    }
    return 0;
}
