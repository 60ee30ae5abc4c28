// A minimal Ants (AI Challenge 2011) bot: every ant steps in the first direction of n e s w
// that is not water and that no other ant of ours stands on or was sent to this turn.
//
// Turn 0 sends the parameters ("rows 43", "cols 39", ...) and "ready": answer "go". Each
// turn then sends "turn N", what our ants see ("w ROW COL" water, "a ROW COL OWNER" ants,
// owner 0 is us, "f", "h", "d" lines) and "go": answer "o ROW COL DIR" lines and "go".
// "end" ends the game.
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

int main() {
    int rows = 0, cols = 0;
    std::set<std::pair<int, int>> water;
    std::vector<std::pair<int, int>> ants;
    const char *dirs = "nesw";
    const int dr[] = {-1, 0, 1, 0}, dc[] = {0, 1, 0, -1};
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream words(line);
        std::string kind;
        if (!(words >> kind)) continue;
        if (kind == "end") break;
        if (kind == "rows") words >> rows;
        else if (kind == "cols") words >> cols;
        else if (kind == "ready") std::cout << "go" << std::endl;
        else if (kind == "turn") ants.clear();
        else if (kind == "w") {
            int r, c;
            words >> r >> c;
            water.insert({r, c});
        } else if (kind == "a") {
            int r, c, owner;
            words >> r >> c >> owner;
            if (owner == 0) ants.push_back({r, c});
        } else if (kind == "go") {
            std::set<std::pair<int, int>> taken(ants.begin(), ants.end());
            for (auto [r, c] : ants) {
                for (int d = 0; d < 4; d++) {
                    std::pair<int, int> to{(r + dr[d] + rows) % rows, (c + dc[d] + cols) % cols};
                    if (water.count(to) || taken.count(to)) continue;
                    taken.insert(to);
                    std::cout << "o " << r << " " << c << " " << dirs[d] << "\n";
                    break;
                }
            }
            std::cout << "go" << std::endl;  // endl flushes: the jury waits for "go"
        }
    }
    return 0;
}
