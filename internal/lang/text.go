package lang

import (
	"bytes"
	"strconv"
	"strings"
)

// markdownBreakChars is the size after which a Markdown chunk is closed
// before the next heading.
const markdownBreakChars = 1000

// textResult chunks src as text (the fallback for every file that cannot be
// chunked by syntax).
func textResult(path, language string, src []byte) Result {
	return Result{Language: language, Chunks: textChunks(path, language, src), Fallback: true}
}

// textChunks accumulates whole lines up to about MaxChunkChars per chunk;
// a longer single line stays whole in its own chunk. Markdown chunks of more
// than markdownBreakChars are closed before a heading. A file that fits in
// one chunk is named path, otherwise the parts are path#1, path#2, ...
func textChunks(path, language string, src []byte) []Chunk {
	markdown := language == "markdown"
	type part struct{ start, end, startLine, endLine int }
	var parts []part
	cur := part{startLine: 1}
	line, off := 1, 0
	flush := func() {
		if cur.end > cur.start && len(bytes.TrimSpace(src[cur.start:cur.end])) > 0 {
			parts = append(parts, cur)
		}
	}
	for off < len(src) {
		e := bytes.IndexByte(src[off:], '\n')
		if e < 0 {
			e = len(src)
		} else {
			e += off + 1
		}
		size := cur.end - cur.start
		if size > 0 && (size+(e-off) > MaxChunkChars ||
			markdown && size > markdownBreakChars && isHeading(src[off:e])) {
			flush()
			cur = part{start: off, end: off, startLine: line}
		}
		cur.end, cur.endLine = e, line
		off = e
		line++
	}
	flush()
	chunks := make([]Chunk, 0, len(parts))
	for k, p := range parts {
		name := path
		if len(parts) > 1 {
			name = path + "#" + strconv.Itoa(k+1)
		}
		chunks = append(chunks, Chunk{
			Kind:      KindText,
			Name:      name,
			Symbol:    name,
			StartLine: p.startLine,
			EndLine:   p.endLine,
			Content:   validUTF8(strings.TrimRight(string(src[p.start:p.end]), "\r\n")),
		})
	}
	return chunks
}

// isHeading reports whether a Markdown line is an ATX heading.
func isHeading(line []byte) bool {
	line = bytes.TrimLeft(line, " ")
	n := 0
	for n < len(line) && line[n] == '#' {
		n++
	}
	return n >= 1 && n <= 6 && (n == len(line) || line[n] == ' ' || line[n] == '\t' || line[n] == '\n' || line[n] == '\r')
}
