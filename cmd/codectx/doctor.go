package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"

	"github.com/spf13/cobra"

	"codectx/pkg/codectx"
)

func init() { commands = append(commands, doctorCmd) }

// doctorReport is what `codectx doctor` checked.
type doctorReport struct {
	Version   string      `json:"version"`
	Embedding doctorEmbed `json:"embedding"`
	Database  doctorDB    `json:"database"`
	Ripgrep   string      `json:"ripgrep"` // path of rg, "" when absent (grep uses the native engine)
	Git       string      `json:"git"`     // path of git, "" when absent (files are walked)
	OK        bool        `json:"ok"`
}

type doctorEmbed struct {
	Provider  string `json:"provider"`
	Describe  string `json:"describe"`
	Model     string `json:"model,omitempty"`
	Batch     int    `json:"batch,omitempty"`
	Dims      int    `json:"dims,omitempty"`
	ElapsedMS int64  `json:"elapsed_ms,omitempty"`
	Error     string `json:"error,omitempty"`
}

type doctorDB struct {
	Path   string `json:"path"`
	Exists bool   `json:"exists"`
}

func doctorCmd() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "doctor",
		Short: "Check the setup: embedding provider (it must answer), database, ripgrep, git",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			rep := runDoctor(cmd.Context())
			if asJSON {
				if err := writeJSON(cmd.OutOrStdout(), rep); err != nil {
					return err
				}
			} else {
				printDoctor(cmd.OutOrStdout(), rep)
			}
			if !rep.OK {
				return errors.New("embedding check failed: " + rep.Embedding.Error)
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	return c
}

func runDoctor(ctx context.Context) doctorReport {
	cfg := runConfig.Embed
	rep := doctorReport{Version: version(), Embedding: doctorEmbed{Provider: cfg.Provider, Describe: cfg.Describe()}}
	rep.Ripgrep, _ = exec.LookPath("rg")
	rep.Git, _ = exec.LookPath("git")
	rep.Database.Path, _ = dbPath()
	if _, err := os.Stat(rep.Database.Path); err == nil {
		rep.Database.Exists = true
	}
	e, err := codectx.NewEmbedder(cfg)
	if err != nil {
		rep.Embedding.Error = err.Error()
		return rep
	}
	rep.Embedding.Model, rep.Embedding.Batch = e.ModelID(), e.BatchSize()
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	start := time.Now()
	if err := codectx.CheckEmbedder(ctx, e); err != nil {
		rep.Embedding.Error = err.Error()
		return rep
	}
	rep.Embedding.Dims, rep.Embedding.ElapsedMS = e.Dims(), time.Since(start).Milliseconds()
	rep.OK = true
	return rep
}

func printDoctor(w io.Writer, r doctorReport) {
	fmt.Fprintf(w, "codectx %s\n", r.Version)
	fmt.Fprintf(w, "embedding: %s\n", r.Embedding.Describe)
	if r.Embedding.Model != "" {
		fmt.Fprintf(w, "model id: %s (batch %d)\n", r.Embedding.Model, r.Embedding.Batch)
	}
	if r.OK {
		fmt.Fprintf(w, "check: ok, %d dimensions, %d ms\n", r.Embedding.Dims, r.Embedding.ElapsedMS)
	}
	state := "not created yet (codectx index creates it)"
	if r.Database.Exists {
		state = "exists"
	}
	fmt.Fprintf(w, "database: %s (%s)\n", r.Database.Path, state)
	fmt.Fprintf(w, "ripgrep: %s\n", orMissing(r.Ripgrep, "not found: grep uses the native engine"))
	fmt.Fprintf(w, "git: %s\n", orMissing(r.Git, "not found: files are found by walking the tree"))
}

func orMissing(path, why string) string {
	if path == "" {
		return why
	}
	return path
}
