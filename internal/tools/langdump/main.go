// Command langdump is a debugging aid for the tree-sitter extractors in
// internal/lang: it prints a file's syntax tree or what Parse returns for
// it, or checks every source file below a directory for broken chunk
// invariants, recovered panics, text fallbacks and slow parses. It is run by
// hand (go run ./internal/tools/langdump …), never by the indexer or tests.
//
//	langdump tree LANG FILE     named nodes with fields and lines
//	langdump parse LANG FILE    chunks, relations, type facts (-content: all bodies)
//	langdump corpus DIR         check every source file below DIR
package main

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"codectx/internal/lang"
	"codectx/internal/scan"
)

func main() {
	content := flag.Bool("content", false, "parse: print every chunk's content")
	slowAfter := flag.Duration("slow", 300*time.Millisecond, "corpus: report parses slower than this")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: langdump [-content] tree|parse LANG FILE | langdump [-slow D] corpus DIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	args := flag.Args()
	if err := run(args, *content, *slowAfter); err != nil {
		fmt.Fprintln(os.Stderr, "langdump:", err)
		os.Exit(2)
	}
}

func run(args []string, content bool, slowAfter time.Duration) error {
	switch {
	case len(args) == 3 && (args[0] == "tree" || args[0] == "parse"):
		src, err := os.ReadFile(args[2])
		if err != nil {
			return err
		}
		if args[0] == "tree" {
			return lang.DumpTree(os.Stdout, args[1], src)
		}
		lang.DumpParse(os.Stdout, args[2], args[1], src, content)
		return nil
	case len(args) == 2 && args[0] == "corpus":
		return corpus(args[1], slowAfter)
	}
	flag.Usage()
	return fmt.Errorf("bad arguments %q", args)
}

func corpus(root string, slowAfter time.Duration) error {
	files, fallbacks, chunks, problems := 0, 0, 0, 0
	start := time.Now()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		language := scan.LanguageOf(p)
		if language == "" {
			return nil
		}
		t0 := time.Now()
		rep, err := lang.CheckCorpusFile(p, language)
		if err != nil {
			fmt.Printf("%s: %v\n", p, err)
			return nil
		}
		if el := time.Since(t0); el > slowAfter {
			fmt.Printf("slow %s: %v\n", p, el.Round(time.Millisecond))
		}
		files++
		chunks += rep.Chunks
		if rep.Fallback {
			fallbacks++
			fmt.Printf("fallback %s\n", p)
		}
		for _, pr := range rep.Problems {
			problems++
			fmt.Printf("%s: %s\n", p, pr)
		}
		return nil
	})
	fmt.Printf("files=%d fallbacks=%d chunks=%d problems=%d in %v\n", files, fallbacks, chunks, problems, time.Since(start).Round(time.Millisecond))
	if err == nil && problems > 0 {
		err = fmt.Errorf("%d problems", problems)
	}
	return err
}
