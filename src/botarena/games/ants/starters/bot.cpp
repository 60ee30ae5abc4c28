// A minimal Ants (AI Challenge 2011) bot: every ant steps towards the nearest food or enemy
// hill it sees; with none in sight it steps away from our nearest hill, to spread out.
//
// Turn 0 sends the parameters ("rows 43", "cols 39", ...) and "ready": answer "go". Each turn
// then sends "turn N", what our ants see ("w ROW COL" water, "f ROW COL" food, "a ROW COL
// OWNER" ants and "h ROW COL OWNER" hills, owner 0 is us; "d" dead ants) and "go": answer
// "o ROW COL DIR" lines and "go". "end" ends the game. The same strategy, move for move, as
// bot.py and Bot.java.
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using Square = std::pair<int, int>;  // row, column
int rows = 0, cols = 0;

// Steps between two squares on the map, which wraps around at its edges.
int distance(Square a, Square b) {
    int dr = std::abs(a.first - b.first), dc = std::abs(a.second - b.second);
    return std::min(dr, rows - dr) + std::min(dc, cols - dc);
}

// The square one step from `square`, on the map that wraps around at its edges.
Square step(Square square, int dr, int dc) {
    return {(square.first + dr + rows) % rows, (square.second + dc + cols) % cols};
}

// The distance from `square` to the nearest of `squares` (a large number if there is none).
int nearest(Square square, const std::vector<Square> &squares) {
    int best = 1000000;
    for (Square other : squares) best = std::min(best, distance(square, other));
    return best;
}

int main() {
    const char *directions = "nesw";
    const int dr[] = {-1, 0, 1, 0}, dc[] = {0, 1, 0, -1};
    std::set<Square> water;  // water never moves: remembered for the whole game
    std::vector<Square> ants, food, targets, hills;  // targets: food and enemy hills
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream words(line);
        std::string kind;
        int r = 0, c = 0, owner = 0;
        if (!(words >> kind)) continue;
        words >> r >> c >> owner;  // "rows 43" reads 43 into r
        if (kind == "end") break;
        if (kind == "rows") rows = r;
        else if (kind == "cols") cols = r;
        else if (kind == "ready") std::cout << "go" << std::endl;
        else if (kind == "turn") ants.clear(), food.clear(), targets.clear(), hills.clear();
        else if (kind == "w") water.insert({r, c});
        else if (kind == "f") food.push_back({r, c}), targets.push_back({r, c});
        else if (kind == "h" && owner != 0) targets.push_back({r, c});
        else if (kind == "h") hills.push_back({r, c});
        else if (kind == "a" && owner == 0) ants.push_back({r, c});
        else if (kind == "go") {
            // our ants (one that finds no square stays) and food are never stepped onto
            std::set<Square> taken(ants.begin(), ants.end());
            taken.insert(food.begin(), food.end());
            for (Square ant : ants) {
                // the free square nearest a target (or farthest from our hills), the first
                // of n e s w on a tie
                int best = -1, bestScore = 0;
                for (int d = 0; d < 4; d++) {
                    Square to = step(ant, dr[d], dc[d]);
                    if (water.count(to) || taken.count(to)) continue;
                    int score = !targets.empty() ? nearest(to, targets)
                              : !hills.empty()   ? -nearest(to, hills)
                                                 : 0;
                    if (best < 0 || score < bestScore) best = d, bestScore = score;
                }
                if (best < 0) continue;
                taken.insert(step(ant, dr[best], dc[best]));
                std::cout << "o " << ant.first << " " << ant.second << " " << directions[best]
                          << "\n";
            }
            std::cout << "go" << std::endl;  // endl flushes: the jury waits for "go"
        }
    }
    return 0;
}
