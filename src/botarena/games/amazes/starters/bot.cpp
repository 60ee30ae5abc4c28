// A minimal Amazes (CodeCup 2010) bot: one step a turn, into the open square it has been on
// the fewest times (right, then forward, then left, then back on a tie), so it keeps its right
// hand on the wall but does not walk round the same loop for ever.
//
// Each turn it reads five lines (Red reads "Start" first, once): the corridors ahead, right,
// behind and left ("W" alone: a wall right there), then the squared distance to the opponent.
// It answers one line of letters: F forward, R/L turn right/left and step, T turn around and
// step. "Quit" (or the end of the input) ends the game. The same strategy, move for move, as
// bot.py and Bot.java.
#include <iostream>
#include <string>
#include <vector>

int main() {
    // each letter, in the order tried: how it turns us (quarter turns clockwise) and which
    // corridor line (0 ahead, 1 right, 2 behind, 3 left) it enters
    const char letters[] = {'R', 'F', 'L', 'T'};
    const int turns[] = {1, 0, 3, 2}, corridors[] = {1, 0, 3, 2};
    const int dx[] = {0, 1, 0, -1}, dy[] = {-1, 0, 1, 0};  // heading 0 north (our start), 1 east
    int visits[51][51] = {};  // the maze is 25x25: we stay within 24 of the start
    int x = 25, y = 25, heading = 0;
    visits[y][x] = 1;
    std::vector<std::string> lines;
    std::string line;
    while (std::getline(std::cin, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line == "Start") continue;
        if (line == "Quit") return 0;
        lines.push_back(line);
        if (lines.size() < 5) continue;
        int best = -1, bestCount = 0, bestWay = 0;
        for (int move = 0; move < 4; move++) {
            if (lines[corridors[move]].size() == 1) continue;  // "W": a wall right there
            int way = (heading + turns[move]) % 4;
            int count = visits[y + dy[way]][x + dx[way]];
            if (best < 0 || count < bestCount) best = move, bestCount = count, bestWay = way;
        }
        lines.clear();
        heading = bestWay;
        x += dx[heading], y += dy[heading];
        visits[y][x]++;
        std::cout << letters[best] << std::endl;  // endl flushes: the jury waits for the line
    }
    return 0;
}
