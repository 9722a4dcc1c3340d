package eval

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Release is one version's section of a changelog.
type Release struct {
	Version string // the heading's version without a leading "v": "1.27.1"
	Notes   []ReleaseNote
}

// ReleaseNote is one bullet point of a release, its continuation lines and
// nested bullets joined to it.
type ReleaseNote struct {
	// Section is the sub-heading the note sits under, or the bracketed tag
	// it starts with ("[Fix] …"), lower-case; "" when it has neither.
	Section string
	Text    string
}

var (
	// versionToken matches a release version: 1.2, 1.2.3, v1.2.3-rc.1.
	versionToken = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:^|[^\w.])[vV]?(\d+\.\d+(?:\.\d+)?(?:-[0-9A-Za-z.]+)?)(?:[^\w.]|\.?$)`)
	})
	bulletLine         = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\s*)(?:[-*+]|\d+[.)])\s+(.*)$`) })
	atxHeading         = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`) })
	setextRule         = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*(?:=+|-+)\s*$`) })
	linkRefDef         = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*\[[^\]]+\]:\s*\S+`) })
	inlineLink         = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[([^\]]*)\]\(([^)\s]*)\)`) })
	profileURL         = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^https?://github\.com/[\w-]+/?$`) })
	underscoreEmphasis = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(^|[\s(])__([^_\s][^_]*?)__([\s).,:;]|$)`) })
	refLink            = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[([^\]]*)\]\[[^\]]*\]`) })
	bareURL            = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<?https?://[^\s>)]+>?`) })
	leadingTag         = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\[([A-Za-z][A-Za-z -]{0,20})\]:?\s*`) })
	// leadingLabel matches a changelog category written before a note
	// ("Feature: …", "Bug Fix: …").
	leadingLabel = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(?:\*\*|__)?((?:bug ?fix(?:es)?|fix(?:ed|es)?|features?|added|changed|removed|enhancements?|improvements?|breaking(?: changes?)?|security|deprecated|new|perf(?:ormance)?))(?:\*\*|__)?:(?:\*\*|__)?\s+`)
	})
	noteRefs = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\b(?:GHSA(?:-[0-9a-z]{4}){3}|CVE-\d{4}-\d+)\b`) })
	emptied  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(^|\s)[(\[][\s,;]*[)\]]`) })
	refIntro = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?|see|refs?|in|via|by|thanks(?: to)?)\s*\x00`)
	})
	looseStop  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\s+([,.;:])(\s|$)`) })
	repeatStop = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`([,.;:])(?:\s*[,.;:])+(\s|$)`) })
	// issueWord matches "issue #12", "PR #3", "pull request #4".
	issueWord = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:issues?|prs?|pull requests?)\s+(?:#\d+|\x00)(?:\s*(?:,|and)\s*#\d+)*`)
	})
	// authorParens matches a trailing author credit: "(Jane Doe)".
	authorParens = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\s*\(\s*[,;]?\s*(?:(?i:by)\s+)?(?:\p{Lu}\p{Ll}[\p{L}'-]*\s?){1,3}\)\s*\.?\s*$`)
	})
	hashInParens = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\(\s*[0-9a-f]{7,40}\s*\)`) })
	// credit matches thanks and authorship: "(thanks @x)", "by @x in …",
	// "(@x)", "Thanks to @x and @y", "reported by x".
	credit = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\(\s*(?:thanks(?: to)?\s+)?@[\w-]+(?:\s*(?:,|and)\s*@[\w-]+)*\s*\)|\b(?:thanks(?: to)?|by|via|from|cc)\s+@[\w-]+(?:\s*(?:,|and)\s*@[\w-]+)*(?:\s+in\b)?|@[\w-]+|\b(?:reported|contributed|suggested|implemented) by [\w-]+(?: [A-Z][\w-]+)?\.?`)
	})
	// subheading matches a line that names a group of notes: "Bug fixes:",
	// "**Fixes**", "Enhancements".
	subheading = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:\*\*|__)?([A-Za-z][A-Za-z &/-]{1,40}?)(?:\*\*|__)?:?(?:\*\*|__)?\s*$`)
	})
	// nonCode matches a section or tag whose notes are not program changes.
	nonCode = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:dev ?deps?|deps?|dependenc(?:y|ies)|docs?|documentation|readme|tests?|testing|ci|build|chores?|meta|actions|tooling|infra(?:structure)?|release|packaging|examples?|contributors?|thanks)\b`)
	})
	// nonCodeNote matches a note about dependencies, documentation, tests,
	// CI or the toolchain rather than the program.
	nonCodeNote = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\bdependenc(?:y|ies)\b|^no (?:changes?|notes|change notes)\b|^(?:bump|upgrade|update)(?:s|d|ed)?\s+\S+\s+(?:to|from)\s+(?:v?\d|(?:the )?latest\b)|^(?:bump|upgrade|update|pin|drop|add|remove|require|test|support)?\b.{0,40}\b(?:deps\b|go\.mod|go\.sum|package(?:-lock)?\.json|minimum (?:go|node)|go (?:version|1\.\d+)|node(?:\.js)? (?:version|\d+)|ci\b|github actions?|workflows?|readme|documentation|docs\b|changelog|typos?|linter|lint\b|tests?\b|benchmarks?\b|examples?\b)`)
	})
)

// ParseChangelog reads a changelog in the usual shapes (Markdown headings
// "## 1.2.3 (date)" or "## [1.2.3](link)", underlined "1.2.3 / date" lines,
// bold "**1.2.3**" lines) into its releases, newest first as written. Notes
// are the bullet points under a release; prose, link definitions and
// sub-headings are not notes (a sub-heading becomes its notes' Section).
func ParseChangelog(text string) []Release {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	var (
		out      []Release
		cur      *Release
		section  string
		inNote   bool // the previous non-blank line belongs to a note
		blank    bool // a blank line since the last note line
		noteIndt int
	)
	appendText := func(s string) {
		n := &cur.Notes[len(cur.Notes)-1]
		n.Text = strings.TrimSpace(strings.TrimSuffix(n.Text, "\\") + " " + strings.TrimSpace(s))
	}
	for i := 0; i < len(lines); i++ {
		l := strings.TrimRight(lines[i], " \t")
		if strings.TrimSpace(l) == "" {
			blank = true
			continue
		}
		heading, isHeading := "", false
		if m := atxHeading().FindStringSubmatch(l); m != nil {
			heading, isHeading = m[1], true
		} else if i+1 < len(lines) && setextRule().MatchString(lines[i+1]) && !bulletLine().MatchString(l) && !(inNote && !blank) {
			heading, isHeading = strings.TrimSpace(l), true
			i++
		}
		if isHeading || (!startsIndented(l) && !bulletLine().MatchString(l)) {
			if v := headingVersion(l, isHeading); v != "" {
				out = append(out, Release{Version: v})
				cur, section, inNote = &out[len(out)-1], "", false
				continue
			}
		}
		if cur == nil {
			continue
		}
		if isHeading {
			section, inNote = strings.ToLower(strings.Trim(heading, "*_: ")), false
			continue
		}
		if linkRefDef().MatchString(l) {
			continue
		}
		if m := bulletLine().FindStringSubmatch(l); m != nil {
			indent := len(strings.ReplaceAll(m[1], "\t", "    "))
			if inNote && indent > noteIndt {
				appendText(m[2]) // a nested bullet belongs to its parent
				blank = false
				continue
			}
			sec, body := section, strings.TrimSpace(m[2])
			for _, tag := range []*regexp.Regexp{leadingTag(), leadingLabel()} {
				if t := tag.FindStringSubmatch(body); t != nil {
					if sec == "" {
						sec = strings.ToLower(t[1])
					}
					body = body[len(t[0]):]
				}
			}
			cur.Notes = append(cur.Notes, ReleaseNote{Section: sec, Text: body})
			inNote, blank, noteIndt = true, false, indent
			continue
		}
		if inNote && (!blank || startsIndented(l)) {
			appendText(l)
			blank = false
			continue
		}
		inNote = false
		if m := subheading().FindStringSubmatch(strings.TrimSpace(l)); m != nil && len(strings.Fields(m[1])) <= 4 {
			section = strings.ToLower(strings.TrimSpace(m[1]))
		}
	}
	return out
}

// startsIndented reports whether a line starts with white space.
func startsIndented(l string) bool { return l != "" && (l[0] == ' ' || l[0] == '\t') }

// headingVersion is the version a release heading names, "" when the line
// is not one. A Markdown heading may name it anywhere before other words
// take over ("## [1.2.3](…) (date)", "## Version 1.2.3"); a plain line must
// start with it ("1.2.3 / date", "**1.2.3**", "v1.2.3 - date").
func headingVersion(l string, isHeading bool) string {
	s := strings.TrimSpace(strings.TrimLeft(l, "# "))
	s = inlineLink().ReplaceAllString(s, "$1")
	s = strings.NewReplacer("*", "", "_", " ", "[", "", "]", "").Replace(s)
	s = strings.TrimSpace(s)
	low := strings.ToLower(s)
	for _, p := range []string{"version ", "release ", "v. "} {
		low = strings.TrimPrefix(low, p)
	}
	if !isHeading {
		m := versionToken().FindStringSubmatchIndex(low)
		if m == nil || strings.TrimLeft(low[:m[2]], "vV") != "" {
			return ""
		}
		return low[m[2]:m[3]]
	}
	// Words before the version (a project name, "Release") are allowed,
	// but not a sentence that mentions one.
	m := versionToken().FindStringSubmatchIndex(low)
	if m == nil || len(strings.Fields(low[:m[2]])) > 2 {
		return ""
	}
	return low[m[2]:m[3]]
}

// NoteQuery is the query a release note stands for: its text without
// links, issue, pull-request, advisory and commit references, or credits,
// with white space collapsed and leftover punctuation trimmed.
func NoteQuery(text string) string {
	s := text
	s = inlineLink().ReplaceAllStringFunc(s, func(m string) string {
		sm := inlineLink().FindStringSubmatch(m)
		if isReference(sm[1]) || profileURL().MatchString(sm[2]) {
			return "\x00"
		}
		return sm[1]
	})
	s = refLink().ReplaceAllStringFunc(s, func(m string) string {
		t := refLink().FindStringSubmatch(m)[1]
		if isReference(t) {
			return "\x00"
		}
		return t
	})
	s = bareURL().ReplaceAllString(s, "\x00")
	s = noteRefs().ReplaceAllString(s, "\x00")
	// A keyword that introduced a removed reference ("Fixes [#12](…)",
	// "in https://…") goes with it.
	s = refIntro().ReplaceAllString(s, "")
	s = strings.ReplaceAll(s, "\x00", "")
	s = credit().ReplaceAllString(s, "")
	s = issueWord().ReplaceAllString(s, "")
	s = issueRef().ReplaceAllString(s, "")
	s = hashInParens().ReplaceAllString(s, "")
	s = strings.ReplaceAll(s, "**", "")
	s = underscoreEmphasis().ReplaceAllString(s, "$1$2$3")
	s = strings.Join(strings.Fields(s), " ")
	// Emptied brackets and dangling joiners left by the removals.
	s = emptied().ReplaceAllString(s, "$1")
	s = authorParens().ReplaceAllString(s, "")
	s = looseStop().ReplaceAllString(s, "$1$2")
	s = repeatStop().ReplaceAllString(s, "$1$2")
	s = strings.Trim(strings.Join(strings.Fields(s), " "), " :;,-–")
	for _, tail := range []string{" in", " and", " by", " (", " see", " fixes", " closes"} {
		s = strings.TrimSuffix(s, tail)
	}
	return strings.TrimSpace(s)
}

// isReference reports whether a link text is only a reference: an issue or
// pull-request number, a commit hash, an advisory, a user.
func isReference(t string) bool {
	t = strings.Trim(strings.TrimSpace(t), "`")
	if t == "" || strings.HasPrefix(t, "@") || noteRefs().MatchString(t) {
		return true
	}
	if issueRef().ReplaceAllString(t, "") == "" {
		return true
	}
	if len(t) >= 7 && len(t) <= 40 && strings.Trim(t, "0123456789abcdef") == "" {
		return true
	}
	return false
}

// CodeNote reports whether a release note describes a change to the
// program: not under a dependency, documentation, test, CI or build
// section or tag, and not about those in its own words. Whether it says
// enough to be a query is DescriptiveSubject's question.
func CodeNote(n ReleaseNote) bool {
	if n.Section != "" && nonCode().MatchString(n.Section) {
		return false
	}
	return !nonCodeNote().MatchString(NoteQuery(n.Text))
}

// CompareVersions orders two versions ("v1.2.3", "1.10.0-rc.1") by their
// numeric parts; a pre-release sorts before its release.
func CompareVersions(a, b string) int {
	split := func(v string) ([]int, string) {
		v = strings.TrimPrefix(strings.TrimPrefix(v, "v"), "V")
		v, pre, _ := strings.Cut(v, "-")
		v, _, _ = strings.Cut(v, "+")
		var nums []int
		for _, p := range strings.Split(v, ".") {
			n, _ := strconv.Atoi(p)
			nums = append(nums, n)
		}
		return nums, pre
	}
	an, ap := split(a)
	bn, bp := split(b)
	for i := 0; i < max(len(an), len(bn)); i++ {
		var x, y int
		if i < len(an) {
			x = an[i]
		}
		if i < len(bn) {
			y = bn[i]
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	switch {
	case ap == bp:
		return 0
	case ap == "":
		return 1
	case bp == "":
		return -1
	case ap < bp:
		return -1
	}
	return 1
}
