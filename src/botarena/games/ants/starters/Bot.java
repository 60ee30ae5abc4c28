// A minimal Ants (AI Challenge 2011) bot: every ant steps towards the nearest food or enemy
// hill it sees; with none in sight it steps away from our nearest hill, to spread out.
//
// Turn 0 sends the parameters ("rows 43", "cols 39", ...) and "ready": answer "go". Each turn
// then sends "turn N", what our ants see ("w ROW COL" water, "f ROW COL" food, "a ROW COL
// OWNER" ants and "h ROW COL OWNER" hills, owner 0 is us; "d" dead ants) and "go": answer
// "o ROW COL DIR" lines and "go". "end" ends the game. The same strategy, move for move, as
// bot.py and bot.cpp.
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

public class Bot {
    static int rows = 0, cols = 0;

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String directions = "nesw";
        int[] dr = {-1, 0, 1, 0}, dc = {0, 1, 0, -1};
        Set<List<Integer>> water = new HashSet<>();  // water never moves: kept all game
        List<List<Integer>> ants = new ArrayList<>(), food = new ArrayList<>();
        // targets: the food and enemy hills in sight; hills: ours
        List<List<Integer>> targets = new ArrayList<>(), hills = new ArrayList<>();
        String line;
        while ((line = in.readLine()) != null) {
            String[] words = line.trim().split("\\s+");
            String kind = words[0];
            int r = words.length > 1 ? Integer.parseInt(words[1]) : 0;  // "rows 43": 43
            int c = words.length > 2 ? Integer.parseInt(words[2]) : 0;
            int owner = words.length > 3 ? Integer.parseInt(words[3]) : 0;
            List<Integer> square = List.of(r, c);
            if (kind.equals("end")) break;
            if (kind.equals("rows")) rows = r;
            else if (kind.equals("cols")) cols = r;
            else if (kind.equals("ready")) { System.out.println("go"); System.out.flush(); }
            else if (kind.equals("turn")) {
                ants.clear();
                food.clear();
                targets.clear();
                hills.clear();
            }
            else if (kind.equals("w")) water.add(square);
            else if (kind.equals("f")) { food.add(square); targets.add(square); }
            else if (kind.equals("h") && owner != 0) targets.add(square);
            else if (kind.equals("h")) hills.add(square);
            else if (kind.equals("a") && owner == 0) ants.add(square);
            else if (kind.equals("go")) {
                // our ants (one that finds no square stays) and food are never stepped onto
                Set<List<Integer>> taken = new HashSet<>(ants);
                taken.addAll(food);
                StringBuilder out = new StringBuilder();
                for (List<Integer> ant : ants) {
                    // the free square nearest a target (or farthest from our hills), the
                    // first of n e s w on a tie
                    int best = -1, bestScore = 0;
                    for (int d = 0; d < 4; d++) {
                        List<Integer> to = step(ant, dr[d], dc[d]);
                        if (water.contains(to) || taken.contains(to)) continue;
                        int score = !targets.isEmpty() ? nearest(to, targets)
                                  : !hills.isEmpty() ? -nearest(to, hills)
                                  : 0;
                        if (best < 0 || score < bestScore) { best = d; bestScore = score; }
                    }
                    if (best < 0) continue;
                    taken.add(step(ant, dr[best], dc[best]));
                    out.append("o ").append(ant.get(0)).append(' ').append(ant.get(1)).append(' ')
                       .append(directions.charAt(best)).append('\n');
                }
                System.out.print(out.append("go\n"));
                System.out.flush();
            }
        }
    }

    // The square one step from `square`, on the map that wraps around at its edges.
    static List<Integer> step(List<Integer> square, int dr, int dc) {
        return List.of((square.get(0) + dr + rows) % rows, (square.get(1) + dc + cols) % cols);
    }

    // The distance from `square` to the nearest of `squares` (steps, wrapping around).
    static int nearest(List<Integer> square, List<List<Integer>> squares) {
        int best = Integer.MAX_VALUE;
        for (List<Integer> other : squares) {
            int dr = Math.abs(square.get(0) - other.get(0));
            int dc = Math.abs(square.get(1) - other.get(1));
            best = Math.min(best, Math.min(dr, rows - dr) + Math.min(dc, cols - dc));
        }
        return best;
    }
}
