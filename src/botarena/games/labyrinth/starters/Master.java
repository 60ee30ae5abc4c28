// A minimal Labyrinth maze master: a winding maze each round, and no changes after.
//
// One JSON value a line each way. Requests are {"call": NAME, "args": [...]}: "setup" (answer
// any line, "ready"), "generateMaze" [n] (answer n rows of n cells {"east": bool, "south":
// bool}, true a wall; the maze must be connected), "takeTurn" [mana, maze, adventurers]
// (answer [remove, add], each null or [row, col, "south"|"east"], or null to change nothing;
// a wall an adventurer can see is not changed, and the maze must stay connected).
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

public class Master {
    // A serpentine: every row closed to the south but at one end, alternating sides.
    static String maze(int n) {
        StringBuilder text = new StringBuilder("[");
        for (int row = 0; row < n; row++) {
            text.append(row > 0 ? ",[" : "[");
            for (int col = 0; col < n; col++) {
                boolean south = col != (row % 2 == 0 ? n - 1 : 0);
                text.append(col > 0 ? "," : "").append("{\"east\":false,\"south\":")
                    .append(south).append("}");
            }
            text.append("]");
        }
        return text.append("]").toString();
    }

    // The first whole number in `text`.
    static int firstNumber(String text) {
        int at = 0, value = 0;
        while (!Character.isDigit(text.charAt(at))) at++;
        while (at < text.length() && Character.isDigit(text.charAt(at))) {
            value = value * 10 + (text.charAt(at++) - '0');
        }
        return value;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        String line;
        while ((line = in.readLine()) != null) {
            String reply = "null";  // takeTurn: spend no mana
            if (line.contains("\"setup\"")) {
                maze(firstNumber("[12]"));  // warm up: generateMaze(n) has only n*n ms of CPU
                reply = "\"ready\"";
            } else if (line.contains("\"generateMaze\"")) {
                reply = maze(firstNumber(line.substring(line.indexOf("\"args\""))));
            }
            System.out.println(reply);
            System.out.flush();
        }
    }
}
