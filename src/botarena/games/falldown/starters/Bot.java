// A minimal Falldown (JavaChallenge 2015) bot: it leaves a falling block for a standing one,
// otherwise it attacks along its facing.
//
// It first writes READY. Then, in every slot of its player, it reads 13 lines: its id p, the
// slot number T, six lines of the 6x6 block values (0 standing, >0 falling in that many
// slots, <0 fallen), four lines "x y D S" (column, row, facing, wait; -1 -1 once fallen) for
// players 0..3, and "EOD". It answers one line: U R D L (face and step), A (attack), N.
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

public class Bot {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        System.out.println("READY");
        System.out.flush();
        String names = "URDL";
        int[] dx = {0, 1, 0, -1}, dy = {-1, 0, 1, 0};
        String line;
        while ((line = in.readLine()) != null) {
            int me = Integer.parseInt(line.trim());
            in.readLine();  // the slot number
            int[][] blocks = new int[6][6];
            for (int row = 0; row < 6; row++) {
                String[] values = in.readLine().trim().split(" ");
                for (int col = 0; col < 6; col++) blocks[row][col] = Integer.parseInt(values[col]);
            }
            int[] x = new int[4], y = new int[4], wait = new int[4];
            for (int p = 0; p < 4; p++) {
                String[] words = in.readLine().trim().split(" ");
                x[p] = Integer.parseInt(words[0]);
                y[p] = Integer.parseInt(words[1]);
                wait[p] = Integer.parseInt(words[3]);
            }
            in.readLine();  // "EOD"
            char command = 'A';
            if (x[me] < 0 || wait[me] > 0) {
                command = 'N';  // fallen, or waiting after an attack: the answer is ignored
            } else if (blocks[y[me] / 3][x[me] / 3] > 0) {  // falling: step onto a standing block
                for (int d = 0; d < 4; d++) {
                    int nx = x[me] + dx[d], ny = y[me] + dy[d];
                    if (nx >= 0 && nx < 18 && ny >= 0 && ny < 18 && blocks[ny / 3][nx / 3] == 0) {
                        command = names.charAt(d);
                        break;
                    }
                }
            }
            System.out.println(command);
            System.out.flush();
        }
    }
}
