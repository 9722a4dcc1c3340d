// A second MCP client implementation (the official TypeScript SDK) driving
// `codectx mcp` over stdio. Usage:
//
//   node client.mjs BINARY PROJECT_ROOT DB_FILE
//
// It lists the tools, calls glob_files, grep_code, read_file, search_code
// and index_status on the project (internal/mcp/testdata/fixture or a copy),
// and exits non-zero on any failure. The server's stderr is passed through.
import path from "node:path";
import process from "node:process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [binary, root, db] = process.argv.slice(2);
if (!binary || !root || !db) {
  console.error("usage: node client.mjs BINARY PROJECT_ROOT DB_FILE");
  process.exit(2);
}

const failures = [];
function check(cond, msg) {
  if (!cond) {
    failures.push(msg);
    console.error("FAIL: " + msg);
  }
}

function text(res) {
  return (res.content || []).filter((c) => c.type === "text").map((c) => c.text).join("");
}

async function callOK(client, name, args) {
  const res = await client.callTool({ name, arguments: args });
  if (res.isError) {
    throw new Error(`${name}(${JSON.stringify(args)}) failed: ${text(res)}`);
  }
  if (!res.structuredContent || typeof res.structuredContent !== "object") {
    throw new Error(`${name}: no structured content`);
  }
  return res;
}

const env = {};
for (const [k, v] of Object.entries(process.env)) {
  if (!k.startsWith("CODECTX_") && !k.startsWith("EMBEDDING_")) env[k] = v;
}
env.CODECTX_HOME = path.dirname(path.resolve(db));
env.EMBEDDING_PROVIDER = "local";

const transport = new StdioClientTransport({
  command: binary,
  args: ["mcp", "--root", root, "--db", db],
  env,
  stderr: "inherit",
});
const client = new Client({ name: "codectx-node-test", version: "1.0.0" });

async function main() {
  await client.connect(transport);
  const info = client.getServerVersion();
  check(info && info.name === "codectx", `server name: ${JSON.stringify(info)}`);
  const instructions = client.getInstructions() || "";
  check(instructions.includes("grep_code") && instructions.includes("search_code"), "instructions name the tools");

  const { tools } = await client.listTools();
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  for (const name of ["glob_files", "grep_code", "read_file", "search_code", "get_context", "code_graph", "index_status", "reindex"]) {
    check(byName[name], `tool ${name} listed`);
  }
  const required = (name) => (byName[name]?.inputSchema?.required || []).slice().sort();
  check(JSON.stringify(required("search_code")) === JSON.stringify(["query"]), `search_code requires query: ${required("search_code")}`);
  check(JSON.stringify(required("read_file")) === JSON.stringify(["file"]), `read_file requires file: ${required("read_file")}`);
  check(byName.search_code?.inputSchema?.properties?.keywords?.type === "array", "search_code.keywords is an array");

  // Exact tools work at once.
  let res = await callOK(client, "glob_files", { pattern: "**/*.go" });
  const globbed = res.structuredContent.paths;
  check(globbed.includes("server/config.go") && globbed.includes("server/server.go"), `glob_files: ${globbed}`);

  res = await callOK(client, "grep_code", { pattern: "LoadConfig", fixed: true });
  check(res.structuredContent.matches >= 2, `grep_code matches: ${res.structuredContent.matches}`);
  check(Array.isArray(res.structuredContent.suggested_reads) && res.structuredContent.suggested_reads.length > 0, "grep_code suggested_reads");
  check(text(res).includes("server/config.go"), "grep_code text names server/config.go");

  res = await callOK(client, "read_file", { file: "server/config.go", offset: 1, limit: 5 });
  check(text(res).includes("package server"), "read_file text");
  // The lines are in the text once; structured content says which.
  check(res.structuredContent.offset === 1 && res.structuredContent.end === 5, `read_file range: ${JSON.stringify(res.structuredContent)}`);
  check((text(res).match(/→/g) || []).length === 5, "read_file text has 5 numbered lines");

  // The index is built in the background: poll search_code.
  const deadline = Date.now() + 60_000;
  let files = [];
  for (;;) {
    res = await callOK(client, "search_code", { query: "load the configuration file", keywords: ["LoadConfig", "Config"], top_k: 5 });
    files = (res.structuredContent.results || []).map((r) => r.file);
    if (files.includes("server/config.go") || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  check(files.includes("server/config.go"), `search_code results: ${files}`);
  check(typeof res.structuredContent.summary === "string" && res.structuredContent.summary.length > 0, "search_code summary");

  res = await callOK(client, "index_status", {});
  check(res.structuredContent.indexed === true, `index_status indexed: ${res.structuredContent.indexed}`);
  check(res.structuredContent.files >= 5, `index_status files: ${res.structuredContent.files}`);
  check(text(res).includes("embedding model"), "index_status text");

  // Concurrent calls each get their own answer.
  const [a, b, c, d] = await Promise.all([
    callOK(client, "grep_code", { pattern: "compute_total", fixed: true }),
    callOK(client, "grep_code", { pattern: "findUserByEmail", fixed: true }),
    callOK(client, "read_file", { file: "web/cart.ts", limit: 3 }),
    callOK(client, "search_code", { query: "shopping cart", mode: "keyword", keywords: ["ShoppingCart"] }),
  ]);
  check(a.structuredContent.lines.every((l) => l.path === "billing/invoice.py"), "concurrent grep 1");
  check(b.structuredContent.lines.every((l) => l.path === "java/UserRepository.java"), "concurrent grep 2");
  check(c.structuredContent.path === "web/cart.ts", "concurrent read");
  check(d.structuredContent.results[0]?.file === "web/cart.ts", `concurrent search: ${JSON.stringify(d.structuredContent.results.map((r) => r.file))}`);

  // Bad arguments are tool errors; the server keeps serving.
  for (const [name, args] of [
    ["read_file", { file: "../../../../etc/passwd" }],
    ["search_code", {}],
    ["grep_code", { pattern: 7 }],
  ]) {
    const bad = await client.callTool({ name, arguments: args });
    check(bad.isError === true, `${name}(${JSON.stringify(args)}) should be a tool error: ${text(bad)}`);
  }
  await callOK(client, "glob_files", { pattern: "*.md" });
}

try {
  await main();
} catch (err) {
  failures.push(String(err && err.stack ? err.stack : err));
  console.error("FAIL: " + (err && err.stack ? err.stack : err));
} finally {
  await client.close().catch(() => {});
}
if (failures.length > 0) {
  console.error(`${failures.length} failure(s)`);
  process.exit(1);
}
console.log("ok: node MCP client passed");
