// Amazes: step ahead when open, else right, else left, else turn around.
#include <iostream>
#include <string>

int main() {
    std::string line[5];
    while (std::getline(std::cin, line[0])) {
        if (line[0] == "Start") continue;
        if (line[0] == "Quit") break;
        for (int i = 1; i < 5; i++)
            if (!std::getline(std::cin, line[i])) return 0;
        const char *move = line[0].size() > 1 ? "F" : line[1].size() > 1 ? "R"
                         : line[3].size() > 1 ? "L" : "T";
        std::cout << move << std::endl;
    }
}
