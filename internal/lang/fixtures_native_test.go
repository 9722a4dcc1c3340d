package lang

import "testing"

func TestParseRust(t *testing.T) {
	checkFixture(t, fixtureCase{
		lang: "rust", file: "rust/lib.rs",
		chunks: []chunkWant{
			{kind: KindFile, name: "lib.rs:MAX,NAME", start: 8, end: 9},
			{kind: KindType, name: "Point", start: 11, end: 18,
				decorators: []string{"#[derive(Debug, Clone)]", `#[serde(rename_all = "camelCase")]`},
				has:        []string{"/// A point in space.", "#[derive(Debug, Clone)]", "pub struct Point<T> {"}, hasNot: []string{"pub y: T"}},
			{kind: KindType, name: "Shape", start: 20, end: 24, has: []string{"/// Shapes."}},
			{kind: KindType, name: "Area", start: 26, end: 31, extends: []string{"Display"}},
			{kind: KindMethod, name: "Area.area(&self)", symbol: "Area.area", start: 27, end: 27, container: "Area", extends: []string{"Display"}},
			{kind: KindMethod, name: "Area.describe(&self)", symbol: "Area.describe", start: 28, end: 30, container: "Area", extends: []string{"Display"}},
			// impl Display for Point<T> is named by its type
			{kind: KindMethod, name: "Point.fmt(&self, f: &mut fmt::Formatter)", symbol: "Point.fmt", start: 34, end: 36, container: "Point", implements: []string{"Display"}},
			{kind: KindMethod, name: "Shape.circle(r: f64)", symbol: "Shape.circle", start: 40, end: 46, container: "Shape", has: []string{"/// Creates a circle."}},
			{kind: KindFunction, name: "helper(r: f64)", symbol: "helper", start: 49, end: 53},
			{kind: KindFunction, name: "it_works()", symbol: "it_works", start: 59, end: 62, decorators: []string{"#[test]"}, has: []string{"#[test]"}},
		},
		noChunks: []string{"lib.rs:55"},
		rels: []relWant{
			{kind: RelImports, target: "serde", line: 4},
			{kind: RelImports, target: "crate::config::Config"},
			{kind: RelImports, target: "super::util"},
			{kind: RelImplements, source: "Point", target: "Display", line: 33},
			{kind: RelExtends, source: "Area", target: "Display"},
			{kind: RelContains, source: "Point", target: "Point.fmt"},
			{kind: RelContains, source: "Shape", target: "Shape.circle"},
			{kind: RelContains, source: "Area", target: "Area.describe"},
			{kind: RelCalls, source: "Shape.circle", target: "Circle", qual: "Shape"},
			{kind: RelCalls, source: "Shape.circle", target: "validate", qual: "s"},
			{kind: RelCalls, source: "Shape.circle", target: "helper", qual: ""},
			{kind: RelCalls, source: "helper", target: "new", qual: "HashMap"},
			{kind: RelCalls, source: "helper", target: "log", qual: "util"},
			// calls inside macro arguments
			{kind: RelCalls, source: "Area.describe", target: "area", qual: "self", line: 29},
			{kind: RelCalls, source: "it_works", target: "helper", qual: "", line: 61},
		},
		noRels: []relWant{
			{kind: RelImports, target: "std::collections::HashMap", qual: "*"},
			{kind: RelImports, target: "std::fmt", qual: "*"},
			{kind: RelImports, target: "super", qual: "*"},
		},
	})
}

func TestParseC(t *testing.T) {
	checkFixture(t, fixtureCase{
		lang: "c", file: "c/buffer.h",
		chunks: []chunkWant{
			{kind: KindFile, name: "buffer.h:BUF_SIZE,MIN", start: 8, end: 9},
			// typedef struct buffer {...} buffer_t is named by the typedef
			{kind: KindType, name: "buffer_t", start: 11, end: 16, has: []string{"/* A growable buffer. */", "typedef struct buffer {"}},
			{kind: KindType, name: "node", start: 18, end: 21},
			{kind: KindType, name: "color", start: 23, end: 23},
			{kind: KindType, name: "value", start: 25, end: 28},
			{kind: KindFile, name: "counter", start: 30, end: 30},
			{kind: KindFunction, name: "buffer_new(size_t cap)", symbol: "buffer_new", start: 32, end: 38, has: []string{"/* Create a buffer. */"}},
			{kind: KindFunction, name: "buffer_append(buffer_t *b, const char *s, size_t n)", symbol: "buffer_append", start: 40, end: 49, has: []string{"// Append bytes."}},
			{kind: KindFunction, name: "xalloc(size_t n)", symbol: "xalloc", start: 51, end: 51},
			{kind: KindType, name: "point_t", start: 53, end: 55},
			{kind: KindFile, name: "buffer_len", start: 57, end: 57},
			{kind: KindType, name: "outer", start: 59, end: 62},
			{kind: KindType, name: "outer.inner", start: 60, end: 60, container: "outer"},
		},
		noChunks: []string{"BUFFER_H"},
		rels: []relWant{
			{kind: RelImports, target: "list.h", line: 6},
			{kind: RelCalls, source: "buffer_new", target: "malloc", qual: ""},
			{kind: RelCalls, source: "buffer_new", target: "list_init", qual: ""},
			{kind: RelCalls, source: "buffer_append", target: "buffer_grow", qual: ""},
			{kind: RelCalls, source: "buffer_append", target: "write", qual: ""},
			{kind: RelContains, source: "outer", target: "outer.inner"},
		},
		noRels: []relWant{
			{kind: RelImports, target: "stdio.h", qual: "*"},
			{kind: RelImports, target: "stdlib.h", qual: "*"},
		},
	})
}

func TestParseCpp(t *testing.T) {
	checkFixture(t, fixtureCase{
		lang: "cpp", file: "cpp/shapes.cpp",
		chunks: []chunkWant{
			{kind: KindType, name: "Shape", start: 7, end: 12, has: []string{"/// Base shape.", "class Shape {"}},
			{kind: KindMethod, name: "Shape.~Shape()", symbol: "Shape.~Shape", start: 10, end: 10, container: "Shape"},
			{kind: KindType, name: "Circle", start: 14, end: 29, extends: []string{"Shape", "Named"}},
			{kind: KindMethod, name: "Circle.Circle(double r)", symbol: "Circle.Circle", start: 17, end: 17, container: "Circle", extends: []string{"Shape", "Named"}},
			{kind: KindMethod, name: "Circle.area()", symbol: "Circle.area", start: 18, end: 20, container: "Circle", extends: []string{"Shape", "Named"}},
			{kind: KindType, name: "Circle.Cache", start: 22, end: 25, container: "Circle"},
			{kind: KindMethod, name: "Circle.Cache.clear()", symbol: "Circle.Cache.clear", start: 23, end: 23, container: "Circle.Cache"},
			{kind: KindType, name: "Box", start: 31, end: 36, extends: []string{"Container"}, has: []string{"template <typename T>"}},
			{kind: KindMethod, name: "Box.get()", symbol: "Box.get", start: 34, end: 34, container: "Box", extends: []string{"Container"}},
			// out-of-class definition
			{kind: KindMethod, name: "Circle.compute(double r)", symbol: "Circle.compute", start: 38, end: 40, container: "Circle", extends: []string{"Shape", "Named"}},
			{kind: KindFunction, name: "main(int argc, char **argv)", symbol: "main", start: 42, end: 47},
			{kind: KindFile, name: "kLimit", start: 51, end: 51, hasNot: []string{"namespace geo"}},
		},
		rels: []relWant{
			{kind: RelImports, target: "shape.hpp", line: 3},
			{kind: RelExtends, source: "Circle", target: "Shape"},
			{kind: RelExtends, source: "Circle", target: "Named"},
			{kind: RelExtends, source: "Box", target: "Container"},
			{kind: RelContains, source: "Circle", target: "Circle.Cache"},
			{kind: RelContains, source: "Circle.Cache", target: "Circle.Cache.clear"},
			{kind: RelContains, source: "Circle", target: "Circle.compute"},
			{kind: RelCalls, source: "Circle.area", target: "compute", qual: ""},
			{kind: RelCalls, source: "Circle.area", target: "acos", qual: "std"},
			{kind: RelCalls, source: "Circle.Cache.clear", target: "clear", qual: "items"},
			{kind: RelCalls, source: "Circle.compute", target: "square", qual: "helper"},
			{kind: RelCalls, source: "main", target: "Circle", qual: ""},
			{kind: RelCalls, source: "main", target: "area", qual: "p"},
		},
		noRels: []relWant{{kind: RelImports, target: "vector", qual: "*"}},
	})
}

func TestParseCSharp(t *testing.T) {
	ext, impl := []string{"ServiceBase"}, []string{"IOrderService", "IDisposable"}
	checkFixture(t, fixtureCase{
		lang: "csharp", file: "csharp/OrderService.cs",
		chunks: []chunkWant{
			{kind: KindType, name: "OrderService", start: 8, end: 38, extends: ext, implements: impl,
				decorators: []string{"[Serializable]", `[Route("api/orders")]`},
				has:        []string{"/// <summary>", "public class OrderService : ServiceBase<Order>"}},
			{kind: KindMethod, name: "OrderService.OrderService(IRepository repo)", symbol: "OrderService.OrderService", start: 17, end: 20, container: "OrderService", extends: ext, implements: impl},
			{kind: KindMethod, name: "OrderService.Get(int id)", symbol: "OrderService.Get", start: 22, end: 28, container: "OrderService", extends: ext, implements: impl,
				decorators: []string{`[HttpGet("{id}")]`}},
			{kind: KindType, name: "OrderService.Cache", start: 32, end: 35, container: "OrderService"},
			{kind: KindMethod, name: "OrderService.Cache.Clear()", symbol: "OrderService.Cache.Clear", start: 34, end: 34, container: "OrderService.Cache"},
			{kind: KindMethod, name: "OrderService.Dispose()", symbol: "OrderService.Dispose", start: 37, end: 37, container: "OrderService", extends: ext, implements: impl},
			{kind: KindType, name: "IOrderService", start: 40, end: 43, extends: []string{"IService"}},
			{kind: KindMethod, name: "IOrderService.Get(int id)", symbol: "IOrderService.Get", start: 42, end: 42, container: "IOrderService", extends: []string{"IService"}},
			{kind: KindType, name: "Money", start: 45, end: 45},
			{kind: KindType, name: "Status", start: 47, end: 47},
			{kind: KindType, name: "Point", start: 49, end: 49},
		},
		rels: []relWant{
			{kind: RelImports, target: "Acme.Data", line: 3},
			{kind: RelImports, target: "Acme.Util.Strings", line: 4},
			{kind: RelExtends, source: "OrderService", target: "ServiceBase"},
			{kind: RelImplements, source: "OrderService", target: "IOrderService"},
			{kind: RelImplements, source: "OrderService", target: "IDisposable"},
			{kind: RelContains, source: "OrderService", target: "OrderService.Cache"},
			{kind: RelCalls, source: "OrderService.Get", target: "Find", qual: "_repo"},
			{kind: RelCalls, source: "OrderService.Get", target: "Validate", qual: ""},
			{kind: RelCalls, source: "OrderService.Get", target: "Create", qual: "Order"},
			{kind: RelCalls, source: "OrderService.Cache.Clear", target: "Reset", qual: ""},
			{kind: RelCalls, source: "OrderService.Dispose", target: "Dispose", qual: "_repo"},
		},
		noRels: []relWant{
			{kind: RelImports, target: "System", qual: "*"},
			{kind: RelImports, target: "System.Collections.Generic", qual: "*"},
		},
	})
}

func TestParseRuby(t *testing.T) {
	ext, impl := []string{"ApplicationRecord"}, []string{"Comparable"}
	checkFixture(t, fixtureCase{
		lang: "ruby", file: "ruby/user.rb",
		chunks: []chunkWant{
			{kind: KindType, name: "User", start: 4, end: 30, extends: ext, implements: impl, has: []string{"# A user model.", "class User < ApplicationRecord"}},
			{kind: KindMethod, name: "User.initialize(name, age = 0)", symbol: "User.initialize", start: 11, end: 14, container: "User", extends: ext, implements: impl},
			{kind: KindMethod, name: "User.full_name()", symbol: "User.full_name", start: 16, end: 19, container: "User", extends: ext, implements: impl, has: []string{"# Full name."}},
			{kind: KindMethod, name: "User.find_by_name(name)", symbol: "User.find_by_name", start: 21, end: 23, container: "User", extends: ext, implements: impl},
			{kind: KindType, name: "User.Profile", start: 25, end: 29, container: "User"},
			{kind: KindMethod, name: "User.Profile.show()", symbol: "User.Profile.show", start: 26, end: 28, container: "User.Profile"},
			{kind: KindType, name: "Admin", start: 32, end: 38},
			{kind: KindType, name: "Admin.Panel", start: 33, end: 33, container: "Admin", extends: []string{"Base"}},
			{kind: KindMethod, name: "Admin.enabled?()", symbol: "Admin.enabled?", start: 35, end: 37, container: "Admin"},
			{kind: KindFunction, name: "top_helper(x)", symbol: "top_helper", start: 40, end: 42},
		},
		rels: []relWant{
			{kind: RelImports, target: "./base", line: 2},
			{kind: RelExtends, source: "User", target: "ApplicationRecord"},
			{kind: RelImplements, source: "User", target: "Comparable"},
			{kind: RelContains, source: "User", target: "User.Profile"},
			{kind: RelContains, source: "User.Profile", target: "User.Profile.show"},
			{kind: RelCalls, source: "User.initialize", target: "validate!", qual: ""},
			{kind: RelCalls, source: "User.full_name", target: "last", qual: "self"},
			{kind: RelCalls, source: "User.find_by_name", target: "where", qual: ""},
			{kind: RelCalls, source: "User.Profile.show", target: "render", qual: ""},
			{kind: RelCalls, source: "Admin.enabled?", target: "get", qual: "Config"},
			{kind: RelCalls, source: "top_helper", target: "puts", qual: ""},
		},
		noRels: []relWant{
			{kind: RelImports, target: "json", qual: "*"},
			{kind: RelCalls, source: "*", target: "require", qual: "*"},
		},
	})
}

func TestParsePHP(t *testing.T) {
	ext, impl := []string{"Controller"}, []string{"JsonSerializable", "Countable", "LogsActivity"}
	checkFixture(t, fixtureCase{
		lang: "php", file: "php/Controller.php",
		chunks: []chunkWant{
			{kind: KindType, name: "UserController", start: 8, end: 31, extends: ext, implements: impl,
				decorators: []string{`#[Route("/users")]`}, has: []string{"Handles users.", "class UserController extends Controller"}},
			{kind: KindMethod, name: "UserController.__construct(UserRepository $repo)", symbol: "UserController.__construct", start: 18, end: 21, container: "UserController", extends: ext, implements: impl},
			{kind: KindMethod, name: "UserController.show(int $id)", symbol: "UserController.show", start: 23, end: 30, container: "UserController", extends: ext, implements: impl,
				decorators: []string{`#[Get("/{id}")]`}, has: []string{"/** Show one user. */"}},
			{kind: KindType, name: "Countable", start: 33, end: 36},
			{kind: KindMethod, name: "Countable.count()", symbol: "Countable.count", start: 35, end: 35, container: "Countable"},
			{kind: KindType, name: "LogsActivity", start: 38, end: 41},
			{kind: KindMethod, name: "LogsActivity.log($msg)", symbol: "LogsActivity.log", start: 40, end: 40, container: "LogsActivity"},
			{kind: KindType, name: "Suit", start: 43, end: 46},
			{kind: KindFunction, name: "helper($x)", symbol: "helper", start: 48, end: 50},
			{kind: KindFile, name: "VERSION", start: 52, end: 52},
		},
		rels: []relWant{
			{kind: RelImports, target: `App\Models\User`, line: 5},
			{kind: RelImports, target: `Illuminate\Http\Request`, line: 6},
			{kind: RelExtends, source: "UserController", target: "Controller"},
			{kind: RelImplements, source: "UserController", target: "Countable"},
			{kind: RelImplements, source: "UserController", target: "LogsActivity"},
			{kind: RelContains, source: "UserController", target: "UserController.show"},
			{kind: RelCalls, source: "UserController.show", target: "find", qual: ""},
			{kind: RelCalls, source: "UserController.show", target: "authorize", qual: "this"},
			{kind: RelCalls, source: "UserController.show", target: "fromModel", qual: "User"},
			{kind: RelCalls, source: "LogsActivity.log", target: "logger", qual: ""},
			{kind: RelCalls, source: "helper", target: "strtoupper", qual: ""},
		},
	})
}
