// Amazes: step ahead when open, else right, else left, else turn around.
package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		ahead := in.Text()
		if ahead == "Start" {
			continue
		}
		if ahead == "Quit" {
			break
		}
		var rest [4]string
		for i := 0; i < 4; i++ {
			if !in.Scan() {
				return
			}
			rest[i] = in.Text()
		}
		move := "T"
		if len(ahead) > 1 {
			move = "F"
		} else if len(rest[0]) > 1 {
			move = "R"
		} else if len(rest[2]) > 1 {
			move = "L"
		}
		fmt.Println(move)
	}
}
