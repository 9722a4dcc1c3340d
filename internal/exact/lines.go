package exact

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"
)

// cleanLine turns raw line bytes into display text: the line terminator
// (\n, \r\n) dropped, invalid UTF-8 replaced by U+FFFD, and the text cut to
// max characters followed by "…".
func cleanLine(b []byte, max int) string {
	b = bytes.TrimSuffix(b, []byte{'\n'})
	b = bytes.TrimSuffix(b, []byte{'\r'})
	// Cut first (on bytes, generously) so a minified megabyte line costs little.
	cut := false
	if len(b) > 4*max+4 {
		b = b[:4*max+4]
		cut = true
	}
	s := string(b)
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if utf8.RuneCountInString(s) > max {
		i, n := 0, 0
		for i = range s {
			if n == max {
				break
			}
			n++
		}
		s = s[:i]
		cut = true
	}
	if cut {
		s += "…"
	}
	return s
}

// renderPath quotes a path holding control characters (a newline in a file
// name must not break line-oriented output).
func renderPath(p string) string {
	for _, r := range p {
		if r < 0x20 || r == 0x7f {
			return strconv.Quote(p)
		}
	}
	return p
}

// lineSpans calls fn for each line of content (without its '\n') with its
// 1-based number and byte offset, stopping when fn returns false. A final
// '\n' does not start another line.
func lineSpans(content []byte, fn func(num, off int, line []byte) bool) {
	num, off := 0, 0
	for off < len(content) {
		num++
		end := bytes.IndexByte(content[off:], '\n')
		var line []byte
		next := len(content)
		if end < 0 {
			line = content[off:]
		} else {
			line = content[off : off+end]
			next = off + end + 1
		}
		if !fn(num, off, line) {
			return
		}
		off = next
	}
}

// contextFor returns the text of the lines within n lines of the given
// match lines (ascending), those included (a match dropped by a budget can
// then show as context). Both grep engines use it on the file's bytes, so
// context is identical.
func contextFor(content []byte, matches []int, n int) map[int]string {
	if n <= 0 || len(matches) == 0 {
		return nil
	}
	want := func(num int) bool {
		for _, m := range matches {
			if num >= m-n && num <= m+n {
				return true
			}
		}
		return false
	}
	maxLine := matches[len(matches)-1] + n
	out := map[int]string{}
	lineSpans(content, func(num, _ int, line []byte) bool {
		if want(num) {
			out[num] = cleanLine(line, MaxGrepLineChars)
		}
		return num < maxLine
	})
	return out
}
