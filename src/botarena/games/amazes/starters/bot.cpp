// A minimal Amazes (CodeCup 2010) bot: it keeps its right hand on the wall.
//
// Each turn it reads five lines (Red reads "Start" first, once): the corridors ahead, right,
// behind and left ("W" alone: a wall right there), then the squared distance to the opponent.
// It answers one line of letters: F forward, R/L turn right/left and step, T turn around and
// step. "Quit" (or the end of the input) ends the game.
#include <iostream>
#include <string>
#include <vector>

int main() {
    std::vector<std::string> lines;
    std::string line;
    while (std::getline(std::cin, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line == "Start") continue;
        if (line == "Quit") return 0;
        lines.push_back(line);
        if (lines.size() < 5) continue;
        const std::string &ahead = lines[0], &right = lines[1], &left = lines[3];
        const char *move = right.size() > 1 ? "R" : ahead.size() > 1 ? "F"
                         : left.size() > 1 ? "L" : "T";
        lines.clear();
        std::cout << move << std::endl;  // endl flushes: the jury waits for the line
    }
    return 0;
}
