package eval

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseChangelog(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []Release
	}{
		{
			name: "markdown headings with sub-headings and reference links",
			text: `# Changelog
All notable changes are listed here.

## 1.4.1 (2 Mar 2024)
Bugfixes:
* [#88][]: Fix a race in ` + "`Flush`" + ` when the writer
is closed.
* [#90][]: Stop leaking a goroutine per retry.

Thanks to @someone for their contributions.

[#88]: https://example.com/pull/88

## 1.4.0 (1 Feb 2024)
### Added
- Support for custom encoders
  - nested detail of the encoder
- Bump dependency versions
`,
			want: []Release{
				{Version: "1.4.1", Notes: []ReleaseNote{
					{Section: "bugfixes", Text: "[#88][]: Fix a race in `Flush` when the writer is closed."},
					{Section: "bugfixes", Text: "[#90][]: Stop leaking a goroutine per retry."},
				}},
				{Version: "1.4.0", Notes: []ReleaseNote{
					{Section: "added", Text: "Support for custom encoders nested detail of the encoder"},
					{Section: "added", Text: "Bump dependency versions"},
				}},
			},
		},
		{
			name: "linked versions, underlined versions, bold versions and tags",
			text: `## [2.0.1](https://example.com/compare/v2.0.0...v2.0.1) (2023-05-01)

### Bug Fixes

* **parser:** handle empty input ([#12](https://example.com/issues/12)) ([abc1234](https://example.com/commit/abc1234))

2.0.0 / 2023-04-01
==================

  * Remove the deprecated option
    that nobody used

**1.9.9**
- [Fix] ` + "`parse`" + `: keep the prototype intact (#473)
- [Dev Deps] update the linter
- **Bug Fix**: Fail to load the file when a profile is missing\
  and say why.
`,
			want: []Release{
				{Version: "2.0.1", Notes: []ReleaseNote{
					{Section: "bug fixes", Text: "**parser:** handle empty input ([#12](https://example.com/issues/12)) ([abc1234](https://example.com/commit/abc1234))"},
				}},
				{Version: "2.0.0", Notes: []ReleaseNote{{Text: "Remove the deprecated option that nobody used"}}},
				{Version: "1.9.9", Notes: []ReleaseNote{
					{Section: "fix", Text: "`parse`: keep the prototype intact (#473)"},
					{Section: "dev deps", Text: "update the linter"},
					{Section: "bug fix", Text: "Fail to load the file when a profile is missing and say why."},
				}},
			},
		},
		{
			name: "a sentence naming a version is not a heading",
			text: "## v3.1.0 - 2022-01-01\n\nThis release needs Go 1.18 or later.\n\n- Make the cache size configurable\n\n## Upgrading from 2.x to 3.0 takes two steps\n\n- not a note of 3.1.0 either way\n",
			want: []Release{{Version: "3.1.0", Notes: []ReleaseNote{
				{Text: "Make the cache size configurable"},
				{Section: "upgrading from 2.x to 3.0 takes two steps", Text: "not a note of 3.1.0 either way"},
			}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ParseChangelog(tt.text); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseChangelog:\n got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestNoteQuery(t *testing.T) {
	tests := []struct{ in, want string }{
		{"[#88][]: Fix a race in `Flush` when the writer is closed.", "Fix a race in `Flush` when the writer is closed."},
		{"**parser:** handle empty input ([#12](https://example.com/issues/12)) ([abc1234](https://example.com/commit/abc1234))", "parser: handle empty input"},
		{"Fix potential denial of service in log.Writer() when logging large lines (#1376)", "Fix potential denial of service in log.Writer() when logging large lines"},
		{"Allow empty keys by @someone in https://example.com/pull/7", "Allow empty keys"},
		{"Reject hosts with a zone. Fixes [GHSA-abcd-1234-wxyz](https://example.com/a) ([#3217](https://example.com/i/3217)). Reported by someone-else.", "Reject hosts with a zone."},
		{"Use the [documented](https://example.com/doc) default (thanks @a and @b)", "Use the documented default"},
		{"Use .EqualFold() to parse prefixed ids ([#118](https://example.com/i/118)) ([574e687](https://example.com/c/574e687))", "Use .EqualFold() to parse prefixed ids"},
		{"Fix scanning of JSON `null` (Jane Doe)", "Fix scanning of JSON `null`"},
		{"fix cli output (By [Jane Doe](https://github.com/jdoe))", "fix cli output"},
		{"allow empty payloads in post,put,patch, issue #580 ( thanks @jdoe, Jane Doe)", "allow empty payloads in post,put,patch"},
		{"parse sort options correctly #103 #102 [jdoe](https://github.com/jdoe)", "parse sort options correctly"},
		{"avoid copying `__proto__` when __merging__ objects. Fix CVE-2020-35149", "avoid copying `__proto__` when merging objects."},
		{"Keep (JSON) as is , and stop . . here", "Keep (JSON) as is, and stop. here"},
	}
	for _, tt := range tests {
		if got := NoteQuery(tt.in); got != tt.want {
			t.Errorf("NoteQuery(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCodeNote(t *testing.T) {
	tests := []struct {
		note ReleaseNote
		want bool
	}{
		{ReleaseNote{Section: "bug fixes", Text: "Fix a race in `Flush` when the writer is closed"}, true},
		{ReleaseNote{Text: "Stop leaking a goroutine per retry"}, true},
		{ReleaseNote{Section: "dev deps", Text: "update the linter to the newest release"}, false},
		{ReleaseNote{Section: "documentation", Text: "Explain how the cache is sized"}, false},
		{ReleaseNote{Text: "Bump golang.org/x/net from 0.1 to 0.2"}, false},
		{ReleaseNote{Text: "Update the README with an example of the encoder"}, false},
		{ReleaseNote{Text: "Run the tests on Go 1.22 in CI"}, false},
		{ReleaseNote{Text: "Fix a panic by bumping the dependency version"}, false},
		{ReleaseNote{Text: "Upgrade golang.org/x/crypto to v0.17.0 to fix a vulnerability"}, false},
		{ReleaseNote{Text: "Faster decoding"}, true}, // a change, if not a descriptive one
		{ReleaseNote{Section: "bug fix", Text: "No change notes available for this release."}, false},
		{ReleaseNote{Text: "Updated `example.com/lib` to latest version"}, false},
		{ReleaseNote{Section: "fix", Text: "`parse`: keep the prototype intact when frozen"}, true},
	}
	for _, tt := range tests {
		if got := CodeNote(tt.note); got != tt.want {
			t.Errorf("CodeNote(%+v) = %v, want %v", tt.note, got, tt.want)
		}
	}
}

func TestCompareVersions(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"v1.2.3", "1.2.3", 0},
		{"v1.10.0", "v1.9.9", 1},
		{"1.2", "1.2.1", -1},
		{"v2.0.0-rc.1", "v2.0.0", -1},
		{"v2.0.0-beta", "v2.0.0-alpha", 1},
	}
	for _, tt := range tests {
		if got := CompareVersions(tt.a, tt.b); got != tt.want {
			t.Errorf("CompareVersions(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

// FuzzParseChangelog: any text parses without a panic into releases whose
// versions start with a digit and whose notes are trimmed and non-empty,
// and every note's query is trimmed, single-spaced valid text.
func FuzzParseChangelog(f *testing.F) {
	f.Add("## 1.2.3 (2024-01-01)\n### Fixed\n- Fix a race in `Flush` (#12)\n  continued\n")
	f.Add("2.0.0 / 2023-04-01\n==================\n\n  * Remove the option\n")
	f.Add("**1.9.9**\n- [Fix] `parse`: keep it (#473) [x](https://github.com/x)\n- \\\n")
	f.Add("## [2.0.1](https://e.com/c) (2023)\n* **a:** b ([#1](u)) ([abc1234](u))\n")
	f.Fuzz(func(t *testing.T, text string) {
		for _, r := range ParseChangelog(text) {
			if r.Version == "" || r.Version[0] < '0' || r.Version[0] > '9' {
				t.Fatalf("version %q", r.Version)
			}
			for _, n := range r.Notes {
				if n.Text != strings.TrimSpace(n.Text) {
					t.Fatalf("note not trimmed: %q", n.Text)
				}
				q := NoteQuery(n.Text)
				if q != strings.TrimSpace(q) || strings.Contains(q, "  ") || strings.ContainsRune(q, 0) {
					t.Fatalf("query %q from %q", q, n.Text)
				}
				CodeNote(n)
			}
		}
	})
}
