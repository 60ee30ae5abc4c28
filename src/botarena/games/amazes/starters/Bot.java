// A minimal Amazes (CodeCup 2010) bot: it keeps its right hand on the wall.
//
// Each turn it reads five lines (Red reads "Start" first, once): the corridors ahead, right,
// behind and left ("W" alone: a wall right there), then the squared distance to the opponent.
// It answers one line of letters: F forward, R/L turn right/left and step, T turn around and
// step. "Quit" (or the end of the input) ends the game.
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;

public class Bot {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        List<String> lines = new ArrayList<>();
        String line;
        while ((line = in.readLine()) != null) {
            line = line.trim();
            if (line.equals("Start")) continue;
            if (line.equals("Quit")) return;
            lines.add(line);
            if (lines.size() < 5) continue;
            String ahead = lines.get(0), right = lines.get(1), left = lines.get(3);
            lines.clear();
            String move = right.length() > 1 ? "R" : ahead.length() > 1 ? "F"
                        : left.length() > 1 ? "L" : "T";
            System.out.println(move);
            System.out.flush();
        }
    }
}
