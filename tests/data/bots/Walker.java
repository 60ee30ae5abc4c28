// Amazes: step ahead when open, else right, else left, else turn around.
import java.io.BufferedReader;
import java.io.InputStreamReader;

public class Walker {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String[] line = new String[5];
        while ((line[0] = in.readLine()) != null) {
            if (line[0].equals("Start")) continue;
            if (line[0].equals("Quit")) break;
            for (int i = 1; i < 5; i++)
                if ((line[i] = in.readLine()) == null) return;
            String move = line[0].length() > 1 ? "F" : line[1].length() > 1 ? "R"
                        : line[3].length() > 1 ? "L" : "T";
            System.out.println(move);
            System.out.flush();
        }
    }
}
