// A minimal Ants (AI Challenge 2011) bot: every ant steps in the first direction of n e s w
// that is not water and that no other ant of ours stands on or was sent to this turn.
//
// Turn 0 sends the parameters ("rows 43", "cols 39", ...) and "ready": answer "go". Each
// turn then sends "turn N", what our ants see ("w ROW COL" water, "a ROW COL OWNER" ants,
// owner 0 is us, "f", "h", "d" lines) and "go": answer "o ROW COL DIR" lines and "go".
// "end" ends the game.
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

public class Bot {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        int rows = 0, cols = 0;
        Set<Long> water = new HashSet<>();
        List<int[]> ants = new ArrayList<>();
        String dirs = "nesw";
        int[] dr = {-1, 0, 1, 0}, dc = {0, 1, 0, -1};
        String line;
        while ((line = in.readLine()) != null) {
            String[] words = line.trim().split(" ");
            String kind = words[0];
            if (kind.equals("end")) break;
            if (kind.equals("rows")) rows = Integer.parseInt(words[1]);
            else if (kind.equals("cols")) cols = Integer.parseInt(words[1]);
            else if (kind.equals("ready")) { System.out.println("go"); System.out.flush(); }
            else if (kind.equals("turn")) ants.clear();
            else if (kind.equals("w")) {
                water.add(key(Integer.parseInt(words[1]), Integer.parseInt(words[2])));
            } else if (kind.equals("a") && words[3].equals("0")) {
                ants.add(new int[] {Integer.parseInt(words[1]), Integer.parseInt(words[2])});
            } else if (kind.equals("go")) {
                Set<Long> taken = new HashSet<>();
                for (int[] ant : ants) taken.add(key(ant[0], ant[1]));
                StringBuilder out = new StringBuilder();
                for (int[] ant : ants) {
                    for (int d = 0; d < 4; d++) {
                        long to = key((ant[0] + dr[d] + rows) % rows, (ant[1] + dc[d] + cols) % cols);
                        if (water.contains(to) || taken.contains(to)) continue;
                        taken.add(to);
                        out.append("o ").append(ant[0]).append(' ').append(ant[1]).append(' ')
                           .append(dirs.charAt(d)).append('\n');
                        break;
                    }
                }
                System.out.print(out.append("go\n"));
                System.out.flush();
            }
        }
    }

    private static long key(int row, int col) {
        return (long) row * 1_000_000L + col;
    }
}
