// A minimal Labyrinth adventurers bot: each adventurer keeps its right hand on the wall.
//
// One JSON value a line each way. Requests are {"call": NAME, "args": [...]}: "setup" (answer
// any line, "ready"), "startRound" [n] (answer null: both start on (0, 0), the goal is
// (n-1, n-1)), "takeTurn" [[visionA, visionB]] (answer [moveA, moveB]: 0 wait, 1 forward,
// 2 turn right, 3 turn around, 4 turn left). A vision's "ahead"[0] is the own cell:
// {"ahead", "left", "right"}, true where a wall (or the border) is. This starter finds what
// it needs in the text; a real bot would use a JSON library.
#include <cctype>
#include <iostream>
#include <string>

// Whether `key` is true in the JSON object text `object` (keys in quotes, no spaces).
static bool wall(const std::string &object, const std::string &key) {
    std::size_t at = object.find("\"" + key + "\":");
    return at != std::string::npos && object.compare(at + key.size() + 3, 4, "true") == 0;
}

int main() {
    bool turned[2] = {false, false};  // turned right last turn: now step into that opening
    std::string raw;
    while (std::getline(std::cin, raw)) {
        std::string line;
        for (char c : raw)
            if (!std::isspace(static_cast<unsigned char>(c))) line += c;
        std::string reply = "null";
        if (line.find("\"call\":\"setup\"") != std::string::npos) {
            reply = "\"ready\"";
        } else if (line.find("\"call\":\"startRound\"") != std::string::npos) {
            turned[0] = turned[1] = false;
        } else if (line.find("\"call\":\"takeTurn\"") != std::string::npos) {
            reply = "[";
            std::size_t from = 0;
            for (int index = 0; index < 2; index++) {
                // each vision starts {"ahead":[{...own cell...}
                std::size_t start = line.find("\"ahead\":[{", from) + 10;
                std::size_t end = line.find('}', start);
                std::string cell = line.substr(start, end - start);
                from = end;
                int move;
                if (turned[index] && !wall(cell, "ahead")) {
                    move = 1;
                    turned[index] = false;
                } else if (!wall(cell, "right")) {
                    move = 2;
                    turned[index] = true;
                } else if (!wall(cell, "ahead")) {
                    move = 1;
                } else {
                    move = 4;
                    turned[index] = false;
                }
                reply += (index ? "," : "") + std::to_string(move);
            }
            reply += "]";
        }
        std::cout << reply << std::endl;  // endl flushes: the jury waits for the line
    }
    return 0;
}
