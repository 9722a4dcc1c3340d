// Command agent runs the tinyagent chat loop.
package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"

	"tinyagent/internal/commands"
)

func main() {
	d := commands.NewDispatcher()
	d.Register("help", "list the commands", func(args []string) (string, error) {
		return strings.Join(d.Names(), "\n"), nil
	})
	d.Register("clear", "forget the conversation", func(args []string) (string, error) {
		return "conversation cleared", nil
	})

	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		line := strings.TrimSpace(in.Text())
		if strings.HasPrefix(line, "/") {
			out, err := d.Dispatch(line)
			if err != nil {
				fmt.Fprintln(os.Stderr, "error:", err)
				continue
			}
			fmt.Println(out)
			continue
		}
		fmt.Println("(model call elided in the fixture)")
	}
}
