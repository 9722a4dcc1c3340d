package store

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestRebind(t *testing.T) {
	cases := []struct{ in, want string }{
		{"SELECT 1", "SELECT 1"},
		{"a = ? AND b = ?", "a = $1 AND b = $2"},
		{"x = ?1 OR y = ?1", "x = $1 OR y = $1"},
		{"LIKE ? ESCAPE '\\' AND k != '?' AND \"c?\" = ?", "LIKE $1 ESCAPE '\\' AND k != '?' AND \"c?\" = $2"},
		{"?::text[] -- what?\n, ?", "$1::text[] -- what?\n, $2"},
	}
	for _, c := range cases {
		if got := rebind(c.in); got != c.want {
			t.Errorf("rebind(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestFTSPhrase(t *testing.T) {
	cases := []struct {
		in   string
		want []string
		bad  bool
	}{
		{`"Server.Serve"`, []string{"server", "serve"}, false},
		{`"say ""hi"""`, []string{"say", "hi"}, false},
		{`"__"`, nil, false},
		{`server`, nil, true},
		{`"a" OR "b"`, nil, true},
	}
	for _, c := range cases {
		got, err := ftsPhrase(c.in)
		if (err != nil) != c.bad || len(got) != len(c.want) {
			t.Errorf("ftsPhrase(%q) = %v, %v", c.in, got, err)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("ftsPhrase(%q) = %v, want %v", c.in, got, c.want)
			}
		}
	}
}

// TestSideDirOfDSN: a PostgreSQL database's local side directory is an
// absolute path in the cache directory that does not show the password.
func TestSideDirOfDSN(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	d := SideDir("postgres://u:secret@db.example/codectx")
	if !filepath.IsAbs(d) || strings.Contains(d, "secret") || strings.Contains(d, "postgres:") {
		t.Errorf("SideDir = %q", d)
	}
	if d == SideDir("postgres://u:secret@db.example/other") {
		t.Error("two databases share a side directory")
	}
	if got := SideDir("/x/index.db"); got != "/x/index.db.vectors" {
		t.Errorf("SideDir(file) = %q", got)
	}
}
