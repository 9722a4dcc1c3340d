package main

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"codectx/internal/embed"
)

func init() { commands = append(commands, doctorCmd) }

func doctorCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "doctor",
		Short: "Show the embedding provider in use and check that it answers",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg := embedConfig()
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "embedding: %s\n", cfg.Describe())
			e, err := embed.New(cfg)
			if err != nil {
				return err
			}
			fmt.Fprintf(out, "model id: %s (batch %d)\n", e.ModelID(), e.BatchSize())
			ctx, cancel := context.WithTimeout(cmd.Context(), 60*time.Second)
			defer cancel()
			start := time.Now()
			if err := embed.Check(ctx, e); err != nil {
				return err
			}
			fmt.Fprintf(out, "check: ok, %d dimensions, %s\n", e.Dims(), time.Since(start).Round(time.Millisecond))
			return nil
		},
	}
}
