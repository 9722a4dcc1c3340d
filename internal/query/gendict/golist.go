package main

import (
	"fmt"
	"os/exec"
	"strings"
)

// goList returns the module directory of module path as the go command
// resolves it for this module.
func goList(path string) (string, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", path).Output()
	if err != nil {
		return "", fmt.Errorf("go list -m %s: %w", path, err)
	}
	dir := strings.TrimSpace(string(out))
	if dir == "" {
		return "", fmt.Errorf("go list -m %s: module not downloaded", path)
	}
	return dir, nil
}
