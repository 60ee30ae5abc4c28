// Amazes: step ahead when open, else right, else left, else turn around.
use std::io::{self, BufRead, Write};

fn main() {
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    let mut out = io::stdout();
    while let Some(Ok(ahead)) = lines.next() {
        if ahead == "Start" {
            continue;
        }
        if ahead == "Quit" {
            break;
        }
        let mut rest = Vec::new();
        for _ in 0..4 {
            match lines.next() {
                Some(Ok(line)) => rest.push(line),
                _ => return,
            }
        }
        let step = if ahead.len() > 1 {
            "F"
        } else if rest[0].len() > 1 {
            "R"
        } else if rest[2].len() > 1 {
            "L"
        } else {
            "T"
        };
        writeln!(out, "{}", step).unwrap();
        out.flush().unwrap();
    }
}
