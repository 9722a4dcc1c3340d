package lang

import "testing"

func TestParseGo(t *testing.T) {
	checkFixture(t, fixtureCase{
		lang: "go", file: "go/server.go",
		chunks: []chunkWant{
			{kind: KindFile, name: "server.go:ErrClosed,defaultPort,defaultHost", start: 15, end: 26,
				has: []string{"// ErrClosed is returned after Close.", "defaultHost", "var sniffSignatures"}, hasNot: []string{"import"}},
			{kind: KindType, name: "Handler", start: 28, end: 31, has: []string{"// Handler handles one connection.", "type Handler interface {"}},
			{kind: KindType, name: "Server", start: 33, end: 42, extends: []string{"Mutex", "Logger"},
				has: []string{"// Server accepts connections.", "type Server struct {", "*log.Logger"}, hasNot: []string{"extra"}},
			{kind: KindType, name: "Option", start: 45, end: 46, has: []string{"// Option configures a Server.", "Option func(*Server)"}},
			{kind: KindType, name: "pair", start: 47, end: 47},
			{kind: KindType, name: "ReadWriter", start: 50, end: 55, extends: []string{"Reader", "Writer"}},
			{kind: KindMethod, name: "Server.Serve(l net.Listener)", symbol: "Server.Serve", start: 57, end: 70, container: "Server",
				extends: []string{"Mutex", "Logger"}, has: []string{"// Serve accepts connections on l.", "go func() {", "log.Printf"}},
			{kind: KindMethod, name: "Server.handle(c net.Conn)", symbol: "Server.handle", start: 72, end: 76, container: "Server", extends: []string{"Mutex", "Logger"}},
			{kind: KindType, name: "Stack", start: 78, end: 79},
			{kind: KindMethod, name: "Stack.Push(v T)", symbol: "Stack.Push", start: 81, end: 82, container: "Stack", has: []string{"// Push adds v."}},
			{kind: KindFunction, name: "parsePattern(s string, strict bool)", symbol: "parsePattern", start: 84, end: 88,
				has: []string{"// parsePattern parses s.", "return util.Clean(s), nil"}},
			{kind: KindFunction, name: "helper(c net.Conn)", symbol: "helper", start: 90, end: 90},
		},
		noChunks: []string{"server.go:44", "server.go:1"},
		rels: []relWant{
			{kind: RelImports, target: "github.com/acme/log", line: 9},
			{kind: RelImports, target: "golang.org/x/tools/util", line: 10},
			{kind: RelImports, target: "example.com/single", line: 13},
			{kind: RelExtends, source: "Server", target: "Mutex"},
			{kind: RelExtends, source: "Server", target: "Logger"},
			{kind: RelExtends, source: "ReadWriter", target: "Reader"},
			{kind: RelExtends, source: "ReadWriter", target: "Writer"},
			{kind: RelContains, source: "Server", target: "Server.Serve"},
			{kind: RelContains, source: "Server", target: "Server.handle"},
			{kind: RelContains, source: "Stack", target: "Stack.Push"},
			{kind: RelCalls, source: "Server.Serve", target: "Close", qual: "l", line: 59},
			{kind: RelCalls, source: "Server.Serve", target: "Accept", qual: "l", line: 61},
			{kind: RelCalls, source: "Server.Serve", target: "Errorf", qual: "fmt", line: 63},
			// calls inside a func literal belong to the enclosing method
			{kind: RelCalls, source: "Server.Serve", target: "handle", qual: "s", line: 66},
			{kind: RelCalls, source: "Server.Serve", target: "Printf", qual: "log", line: 67},
			{kind: RelCalls, source: "Server.handle", target: "Serve", qual: "", line: 73},
			{kind: RelCalls, source: "Server.handle", target: "helper", qual: ""},
			{kind: RelCalls, source: "parsePattern", target: "Clean", qual: "util"},
		},
		noRels: []relWant{
			{kind: RelCalls, source: "Stack.Push", target: "append", qual: ""}, // a builtin
			{kind: RelImports, target: "fmt", qual: "*"},
			{kind: RelImports, target: "net", qual: "*"},
			{kind: RelImports, target: "sync", qual: "*"},
			{kind: RelCalls, source: "", target: "Errorf", qual: "*"}, // top-level call
		},
		nRels: map[relWant]int{
			{kind: RelCalls, source: "Server.handle", target: "Serve", qual: ""}: 2, // every call site is a row
		},
	})
}

func TestParseJava(t *testing.T) {
	checkFixture(t, fixtureCase{
		lang: "java", file: "java/SampleService.java",
		chunks: []chunkWant{
			{kind: KindType, name: "SampleService", start: 10, end: 76,
				extends: []string{"BaseService"}, implements: []string{"UserLookup", "Auditable"},
				decorators: []string{"@Service", "@Transactional(readOnly = true)"},
				has:        []string{"/**", "Service for users.", "public class SampleService extends BaseService<User>"},
				hasNot:     []string{"private final UserRepository repo;"}},
			{kind: KindMethod, name: "SampleService.SampleService(UserRepository repo)", symbol: "SampleService.SampleService", start: 21, end: 25,
				container: "SampleService", extends: []string{"BaseService"}, implements: []string{"UserLookup", "Auditable"}, decorators: []string{"@Inject"}},
			{kind: KindMethod, name: "SampleService.findUserById(long id)", symbol: "SampleService.findUserById", start: 27, end: 33,
				container: "SampleService", extends: []string{"BaseService"}, implements: []string{"UserLookup", "Auditable"}, decorators: []string{"@Override"},
				has: []string{"/** Finds a user by id. */", "@Override", "return validate(u);"}},
			{kind: KindMethod, name: "SampleService.validate(User u)", symbol: "SampleService.validate", start: 35, end: 40,
				container: "SampleService", extends: []string{"BaseService"}, implements: []string{"UserLookup", "Auditable"}},
			{kind: KindType, name: "SampleService.Cache", start: 42, end: 54, container: "SampleService", implements: []string{"Runnable"},
				has: []string{"// Inner cache.", "static class Cache implements Runnable {"}},
			{kind: KindMethod, name: "SampleService.Cache.run()", symbol: "SampleService.Cache.run", start: 46, end: 49,
				container: "SampleService.Cache", implements: []string{"Runnable"}},
			{kind: KindType, name: "SampleService.Cache.Entry", start: 51, end: 53, container: "SampleService.Cache"},
			{kind: KindMethod, name: "SampleService.Cache.Entry.touch()", symbol: "SampleService.Cache.Entry.touch", start: 52, end: 52, container: "SampleService.Cache.Entry"},
			{kind: KindType, name: "SampleService.Listener", start: 56, end: 58, container: "SampleService"},
			{kind: KindMethod, name: "SampleService.Listener.onChange(User u)", symbol: "SampleService.Listener.onChange", start: 57, end: 57, container: "SampleService.Listener"},
			{kind: KindType, name: "SampleService.Mode", start: 60, end: 62, container: "SampleService"},
			{kind: KindMethod, name: "SampleService.Mode.weight()", symbol: "SampleService.Mode.weight", start: 61, end: 61, container: "SampleService.Mode"},
			{kind: KindMethod, name: "SampleService.task()", symbol: "SampleService.task", start: 64, end: 69,
				container: "SampleService", extends: []string{"BaseService"}, implements: []string{"UserLookup", "Auditable"}},
			{kind: KindType, name: "SampleService.Pair", start: 71, end: 75, container: "SampleService"},
			{kind: KindMethod, name: "SampleService.Pair.Pair()", symbol: "SampleService.Pair.Pair", start: 72, end: 74, container: "SampleService.Pair"},
			{kind: KindType, name: "UserLookup", start: 78, end: 80, extends: []string{"Lookup", "Closeable"}},
			{kind: KindMethod, name: "UserLookup.findUserById(long id)", symbol: "UserLookup.findUserById", start: 79, end: 79,
				container: "UserLookup", extends: []string{"Lookup", "Closeable"}},
		},
		// methods of anonymous classes are not chunks
		noChunks: []string{"SampleService.run()", "run()"},
		rels: []relWant{
			{kind: RelImports, target: "com.acme.repo.UserRepository", line: 6},
			{kind: RelImports, target: "com.acme.model.*"},
			{kind: RelImports, target: "com.acme.util.Strings.trim"},
			{kind: RelExtends, source: "SampleService", target: "BaseService", line: 14},
			{kind: RelImplements, source: "SampleService", target: "UserLookup"},
			{kind: RelImplements, source: "SampleService", target: "Auditable"},
			{kind: RelImplements, source: "SampleService.Cache", target: "Runnable"},
			{kind: RelExtends, source: "UserLookup", target: "Lookup"},
			{kind: RelContains, source: "SampleService", target: "SampleService.findUserById"},
			{kind: RelContains, source: "SampleService", target: "SampleService.Cache"},
			{kind: RelContains, source: "SampleService.Cache", target: "SampleService.Cache.Entry"},
			{kind: RelContains, source: "SampleService.Cache", target: "SampleService.Cache.run"},
			{kind: RelContains, source: "SampleService.Cache.Entry", target: "SampleService.Cache.Entry.touch"},
			{kind: RelCalls, source: "SampleService.findUserById", target: "findById", qual: "repo", line: 30},
			{kind: RelCalls, source: "SampleService.findUserById", target: "log", qual: ""},
			{kind: RelCalls, source: "SampleService.findUserById", target: "describe", qual: "UserRepository"},
			{kind: RelCalls, source: "SampleService.findUserById", target: "validate", qual: ""},
			{kind: RelCalls, source: "SampleService.validate", target: "NotFoundException", qual: ""},
			{kind: RelCalls, source: "SampleService.validate", target: "check", qual: "this"},
			// calls inside inner classes belong to the inner methods
			{kind: RelCalls, source: "SampleService.Cache.run", target: "clear", qual: "entries", line: 47},
			{kind: RelCalls, source: "SampleService.Cache.run", target: "refresh", qual: ""},
			{kind: RelCalls, source: "SampleService.Cache.Entry.touch", target: "run", qual: ""},
			// calls inside an anonymous class belong to the enclosing method
			{kind: RelCalls, source: "SampleService.task", target: "Runnable", qual: ""},
			{kind: RelCalls, source: "SampleService.task", target: "execute", qual: "", line: 67},
		},
		noRels: []relWant{
			{kind: RelImports, target: "java.util.List", qual: "*"},
			{kind: RelImports, target: "java.util.Map", qual: "*"},
			{kind: RelImports, target: "javax.inject.Inject", qual: "*"},
		},
	})
}

func TestParsePython(t *testing.T) {
	checkFixture(t, fixtureCase{
		lang: "python", file: "python/client.py",
		chunks: []chunkWant{
			{kind: KindFile, name: "client.py:CRLF,DEFAULTS,MAX_RETRIES", start: 10, end: 15, has: []string{`CRLF = "\r\n"`, "MAX_RETRIES = 3"}},
			{kind: KindType, name: "Client", start: 18, end: 43, extends: []string{"BaseClient"},
				has: []string{"# A base client.", "class Client(BaseClient, metaclass=Meta):", `"""A client.`, "Sends requests."}, hasNot: []string{"retries = 3"}},
			{kind: KindMethod, name: "Client.__init__(self, url)", symbol: "Client.__init__", start: 27, end: 29, container: "Client", extends: []string{"BaseClient"}},
			{kind: KindMethod, name: "Client.send(self, request, timeout=None)", symbol: "Client.send", start: 31, end: 39, container: "Client",
				extends: []string{"BaseClient"}, decorators: []string{"@retry(times=3)", "@staticmethod"},
				has: []string{"@retry(times=3)", `"""Send a request."""`, "return inner(resp)"}},
			// a nested def gets its own chunk named by its own name
			{kind: KindFunction, name: "inner(x)", symbol: "inner", start: 36, end: 37, container: "Client"},
			{kind: KindType, name: "Client.Config", start: 41, end: 43, container: "Client", extends: []string{"dict"}},
			{kind: KindMethod, name: "Client.Config.load(self, path)", symbol: "Client.Config.load", start: 42, end: 43, container: "Client.Config", extends: []string{"dict"}},
			{kind: KindFunction, name: "main()", symbol: "main", start: 46, end: 48},
			{kind: KindFunction, name: "handler()", symbol: "handler", start: 51, end: 53, decorators: []string{`@app.route("/x")`}},
			{kind: KindFile, name: "client.py:56", start: 56, end: 57},
		},
		rels: []relWant{
			{kind: RelImports, target: "requests", line: 4},
			{kind: RelImports, target: ".util", line: 6},
			{kind: RelImports, target: "..pkg.sub", line: 7},
			{kind: RelImports, target: "numpy", line: 8},
			{kind: RelImports, target: "yaml", line: 8},
			{kind: RelExtends, source: "Client", target: "BaseClient"},
			{kind: RelExtends, source: "Client.Config", target: "dict"},
			{kind: RelContains, source: "Client", target: "Client.send"},
			{kind: RelContains, source: "Client", target: "Client.Config"},
			{kind: RelContains, source: "Client.Config", target: "Client.Config.load"},
			{kind: RelCalls, source: "Client.__init__", target: "Session", qual: "requests"},
			{kind: RelCalls, source: "Client.send", target: "post", qual: ""},
			{kind: RelCalls, source: "Client.send", target: "inner", qual: ""},
			{kind: RelCalls, source: "inner", target: "helper", qual: "", line: 37},
			{kind: RelCalls, source: "Client.Config.load", target: "join", qual: ""},
			{kind: RelCalls, source: "main", target: "Client", qual: ""},
			{kind: RelCalls, source: "main", target: "send", qual: "c"},
			{kind: RelCalls, source: "handler", target: "main", qual: ""},
		},
		noRels: []relWant{
			{kind: RelImports, target: "os", qual: "*"},
			{kind: RelImports, target: "os.path", qual: "*"},
			{kind: RelImports, target: "collections", qual: "*"},
			{kind: RelCalls, source: "Client.send", target: "helper", qual: "*"}, // belongs to inner
			{kind: RelCalls, source: "", target: "main", qual: "*"},              // top level
		},
	})
}
