// A minimal Falldown (JavaChallenge 2015) bot: it leaves a falling block for a standing
// one; otherwise it attacks an opponent in its block row or column (turning to face it first),
// or walks towards the first opponent still on the board to get in line with it.
//
// It first writes READY. Then, in every slot of its player, it reads 13 lines: its id p, the
// slot number T, six lines of the 6x6 block values (0 standing, >0 falling in that many
// slots, <0 fallen), four lines "x y D S" (column, row, facing, wait; -1 -1 once fallen) for
// players 0..3, and "EOD". It answers one line: U R D L (face and step), A (attack), N. The
// same strategy, move for move, as bot.py and bot.cpp.
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

public class Bot {
    static final String NAMES = "URDL";
    static final int[] DX = {0, 1, 0, -1}, DY = {-1, 0, 1, 0};
    static int[][] blocks = new int[6][6];

    // The value of the block under cell (x, y); 0 (standing) off the board, where a command
    // only turns us.
    static int block(int x, int y) {
        return x >= 0 && x < 18 && y >= 0 && y < 18 ? blocks[y / 3][x / 3] : 0;
    }

    // Our command, as player `me`.
    static char choose(int me, int[] x, int[] y, char[] facing, int[] wait) {
        int mx = x[me], my = y[me];
        if (mx < 0 || wait[me] > 0) return 'N';  // fallen, or waiting after an attack: ignored
        if (block(mx, my) > 0) {  // our block is falling: step onto a standing one
            for (int d = 0; d < 4; d++) {
                int nx = mx + DX[d], ny = my + DY[d];
                if (nx >= 0 && nx < 18 && ny >= 0 && ny < 18 && block(nx, ny) == 0) {
                    return NAMES.charAt(d);
                }
            }
        }
        for (int other = 0; other < 4; other++) {
            if (other == me || x[other] < 0) continue;
            // the way to face: towards its block column if not in ours, else its block row
            char way;
            if (x[other] / 3 != mx / 3) way = x[other] > mx ? 'R' : 'L';
            else way = y[other] > my ? 'D' : 'U';
            if ((x[other] / 3 == mx / 3 || y[other] / 3 == my / 3) && way == facing[me]) {
                return 'A';  // in line, and we face it: its block falls in 4 slots a block
            }
            int d = NAMES.indexOf(way);
            if (block(mx + DX[d], my + DY[d]) <= 0) return way;  // never onto a falling block
        }
        return 'N';
    }

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        System.out.println("READY");
        System.out.flush();
        String line;
        while ((line = in.readLine()) != null) {
            int me = Integer.parseInt(line.trim());
            in.readLine();  // the slot number
            for (int row = 0; row < 6; row++) {
                String[] values = in.readLine().trim().split("\\s+");
                for (int col = 0; col < 6; col++) blocks[row][col] = Integer.parseInt(values[col]);
            }
            int[] x = new int[4], y = new int[4], wait = new int[4];
            char[] facing = new char[4];
            for (int p = 0; p < 4; p++) {
                String[] words = in.readLine().trim().split("\\s+");
                x[p] = Integer.parseInt(words[0]);
                y[p] = Integer.parseInt(words[1]);
                facing[p] = words[2].charAt(0);
                wait[p] = Integer.parseInt(words[3]);
            }
            in.readLine();  // "EOD"
            System.out.println(choose(me, x, y, facing, wait));
            System.out.flush();
        }
    }
}
