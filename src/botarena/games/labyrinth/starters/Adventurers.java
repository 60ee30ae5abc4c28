// A minimal Labyrinth adventurers bot: each adventurer keeps its right hand on the wall.
//
// One JSON value a line each way. Requests are {"call": NAME, "args": [...]}: "setup" (answer
// any line, "ready"), "startRound" [n] (answer null: both start on (0, 0), the goal is
// (n-1, n-1)), "takeTurn" [[visionA, visionB]] (answer [moveA, moveB]: 0 wait, 1 forward,
// 2 turn right, 3 turn around, 4 turn left). A vision's "ahead"[0] is the own cell:
// {"ahead", "left", "right"}, true where a wall (or the border) is. This starter finds what
// it needs in the text; a real bot would use a JSON library.
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

public class Adventurers {
    // Whether `key` is true in the JSON object text `object` (keys in quotes, no spaces).
    static boolean wall(String object, String key) {
        int at = object.indexOf("\"" + key + "\":");
        return at >= 0 && object.startsWith("true", at + key.length() + 3);
    }

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        boolean[] turned = {false, false};  // turned right last turn: now step into that opening
        String raw;
        while ((raw = in.readLine()) != null) {
            String line = raw.replaceAll("\\s", "");
            String reply = "null";
            if (line.contains("\"call\":\"setup\"")) {
                wall(" {\"ahead\":true} ".replaceAll("\\s", ""), "ahead");  // warm up (CPU is timed)
                reply = "\"ready\"";
            } else if (line.contains("\"call\":\"startRound\"")) {
                turned[0] = turned[1] = false;
            } else if (line.contains("\"call\":\"takeTurn\"")) {
                StringBuilder moves = new StringBuilder("[");
                int from = 0;
                for (int index = 0; index < 2; index++) {
                    // each vision starts {"ahead":[{...own cell...}
                    int start = line.indexOf("\"ahead\":[{", from) + 10;
                    int end = line.indexOf('}', start);
                    String cell = line.substring(start, end);
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
                    moves.append(index > 0 ? "," : "").append(move);
                }
                reply = moves.append("]").toString();
            }
            System.out.println(reply);
            System.out.flush();
        }
    }
}
