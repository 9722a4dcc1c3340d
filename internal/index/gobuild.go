package index

import (
	"go/build"
	"go/build/constraint"
	"path"
	"slices"
	"strings"
)

// Build constraints decide between a Go package's build-tag twins: files
// that declare the same function, type or method for different platforms
// or Go versions (f_unix.go / f_windows.go, //go:build go1.21 / !go1.21).
// The twin of a file the default build context compiles (go/build.Default:
// the host's GOOS and GOARCH, the toolchain's release tags, cgo as the go
// command would set it), as gopls and go build see it, is the one calls
// resolve to.

// goKnownOS and goKnownArch are the GOOS and GOARCH values a file name
// suffix can name (go/build's lists).
var (
	goKnownOS = wordList(`aix android darwin dragonfly freebsd hurd illumos ios js linux nacl netbsd openbsd plan9
		solaris wasip1 windows zos`)
	goKnownArch = wordList(`386 amd64 amd64p32 arm armbe arm64 arm64be loong64 mips mipsle mips64 mips64le
		mips64p32 mips64p32le ppc ppc64 ppc64le riscv riscv64 s390 s390x sparc sparc64 wasm`)
	goUnixOS = wordList(`aix android darwin dragonfly freebsd hurd illumos ios linux netbsd openbsd solaris`)
)

func wordList(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// goBuildTag reports whether a build tag is satisfied in ctx.
func goBuildTag(ctx *build.Context, tag string) bool {
	switch {
	case tag == ctx.GOOS || tag == ctx.GOARCH || tag == ctx.Compiler:
		return true
	case tag == "unix":
		return goUnixOS[ctx.GOOS]
	case tag == "cgo":
		return ctx.CgoEnabled
	case tag == "linux" && ctx.GOOS == "android", tag == "solaris" && ctx.GOOS == "illumos",
		tag == "darwin" && ctx.GOOS == "ios":
		return true
	}
	return slices.Contains(ctx.ReleaseTags, tag) || slices.Contains(ctx.ToolTags, tag) ||
		slices.Contains(ctx.BuildTags, tag)
}

// goBuildsIn reports whether the Go file at p with build constraint expr
// ("" for none; //go:build syntax) is compiled in ctx: its name's _GOOS /
// _GOARCH / _GOOS_GOARCH suffix and its constraint.
func goBuildsIn(ctx *build.Context, p, expr string) bool {
	name := strings.TrimSuffix(path.Base(p), ".go")
	name = strings.TrimSuffix(name, "_test")
	if i := strings.IndexByte(name, '_'); i >= 0 {
		parts := strings.Split(name[i:], "_")
		n := len(parts)
		switch {
		case n >= 2 && goKnownOS[parts[n-2]] && goKnownArch[parts[n-1]]:
			if !goBuildTag(ctx, parts[n-2]) || parts[n-1] != ctx.GOARCH {
				return false
			}
		case n >= 1 && goKnownOS[parts[n-1]]:
			if !goBuildTag(ctx, parts[n-1]) {
				return false
			}
		case n >= 1 && goKnownArch[parts[n-1]]:
			if parts[n-1] != ctx.GOARCH {
				return false
			}
		}
	}
	if expr == "" {
		return true
	}
	e, err := constraint.Parse("//go:build " + expr)
	if err != nil {
		return true
	}
	return e.Eval(func(tag string) bool { return goBuildTag(ctx, tag) })
}
