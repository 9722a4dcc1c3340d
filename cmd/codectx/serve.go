package main

import (
	"fmt"
	"net"

	"github.com/spf13/cobra"

	"codectx/internal/serve"
	"codectx/pkg/codectx"
)

func init() { commands = append(commands, serveCmd) }

func serveCmd() *cobra.Command {
	var (
		addr, token          string
		allowWrites, noWatch bool
	)
	c := &cobra.Command{
		Use:   "serve [PROJECT…]",
		Short: "Serve projects over HTTP: a JSON API, remote MCP at /mcp and a web page",
		Long: `Serve one or more projects (default: the current directory) on --addr:

  /          a web page: search, files, symbol graphs, context, index status
  /api/…     a JSON API over the same functions as the CLI (see docs/API.md)
  /mcp       the MCP tools over the streamable HTTP transport (/mcp/ID for
             a given project)

Projects are indexed in the background when needed and watched for changes.
The default address is loopback only; any other address needs --token (or
CODECTX_TOKEN), sent as "Authorization: Bearer TOKEN" (the page takes it once
as ?token=TOKEN). reindex and feedback need --allow-writes.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if token == "" {
				token = runConfig.Token
			}
			if err := serve.CheckAddr(addr, token); err != nil {
				return usagef("%v: pass --token TOKEN (or set CODECTX_TOKEN), or listen on 127.0.0.1", err)
			}
			if len(args) == 0 {
				args = []string{""} // the project holding the current directory
			}
			var projects []*codectx.Project
			defer func() {
				for _, p := range projects {
					p.Close()
				}
			}()
			for _, root := range args {
				p, err := openServed(cmd.Context(), root)
				if err != nil {
					return err
				}
				projects = append(projects, p)
			}
			srv, err := serve.New(cmd.Context(), projects, serve.Options{Token: token, AllowWrites: allowWrites, NoWatch: noWatch, Logger: logger()})
			if err != nil {
				return err
			}
			defer srv.Close()
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "codectx: serving %d project(s) on http://%s/ (MCP at http://%s/mcp); Ctrl-C stops\n", len(projects), ln.Addr(), ln.Addr())
			return srv.Serve(cmd.Context(), ln)
		},
	}
	f := c.Flags()
	f.StringVar(&addr, "addr", serve.DefaultAddr, "address to listen on (host:port)")
	f.StringVar(&token, "token", "", "bearer token required on every request (needed for a non-loopback --addr; default $CODECTX_TOKEN)")
	f.BoolVar(&allowWrites, "allow-writes", false, "enable reindex and feedback (HTTP and MCP)")
	f.BoolVar(&noWatch, "no-watch", false, "do not watch files; run a stat pass before each search instead")
	return c
}
