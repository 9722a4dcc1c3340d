package lang

import "testing"

func TestParseJavaScript(t *testing.T) {
	checkFixture(t, fixtureCase{
		lang: "javascript", file: "javascript/app.js",
		chunks: []chunkWant{
			// require() declarations are imports, not file content
			{kind: KindFile, name: "app.js:PORT,counter", start: 8, end: 9, hasNot: []string{"require"}},
			{kind: KindType, name: "Widget", start: 11, end: 33, extends: []string{"Base"}, has: []string{"A base widget.", "class Widget extends Base {"}},
			// class field bound to an arrow function
			{kind: KindMethod, name: "Widget.handle(evt)", symbol: "Widget.handle", start: 15, end: 17, container: "Widget", extends: []string{"Base"}},
			{kind: KindMethod, name: "Widget.create(opts)", symbol: "Widget.create", start: 19, end: 21, container: "Widget", extends: []string{"Base"}},
			{kind: KindMethod, name: "Widget.constructor(name)", symbol: "Widget.constructor", start: 23, end: 26, container: "Widget", extends: []string{"Base"}},
			{kind: KindMethod, name: "Widget.render()", symbol: "Widget.render", start: 28, end: 32, container: "Widget", extends: []string{"Base"}},
			{kind: KindFunction, name: "greet(name, greeting = 'hi')", symbol: "greet", start: 35, end: 39, has: []string{"// Greets someone."}},
			{kind: KindFunction, name: "format(s)", symbol: "format", start: 37, end: 37},
			{kind: KindFunction, name: "add(a, b)", symbol: "add", start: 41, end: 41, has: []string{"const add = (a, b) => a + b;"}},
			{kind: KindFunction, name: "multiply(a, b)", symbol: "multiply", start: 43, end: 45, has: []string{"export const multiply = function (a, b) {"}},
			{kind: KindType, name: "App", start: 47, end: 51, extends: []string{"Widget"}, has: []string{"export default class App"}},
			{kind: KindMethod, name: "App.start()", symbol: "App.start", start: 48, end: 50, container: "App", extends: []string{"Widget"}},
			{kind: KindFunction, name: "handler(req, res)", symbol: "handler", start: 53, end: 55, has: []string{"module.exports.handler = async"}},
			{kind: KindFile, name: "app.js:57", start: 57, end: 57},
		},
		rels: []relWant{
			{kind: RelImports, target: "lodash", line: 3},
			{kind: RelImports, target: "./util", line: 4},
			{kind: RelImports, target: "express", line: 5},
			{kind: RelExtends, source: "Widget", target: "Base"},
			{kind: RelExtends, source: "App", target: "Widget"},
			{kind: RelContains, source: "Widget", target: "Widget.handle"},
			{kind: RelContains, source: "App", target: "App.start"},
			{kind: RelCalls, source: "Widget.handle", target: "emit", qual: "this", line: 16},
			{kind: RelCalls, source: "Widget.create", target: "Widget", qual: ""},
			{kind: RelCalls, source: "Widget.render", target: "createElement", qual: "document"},
			{kind: RelCalls, source: "Widget.render", target: "apply", qual: "helper"},
			{kind: RelCalls, source: "format", target: "trim", qual: "s"},
			{kind: RelCalls, source: "greet", target: "format", qual: ""},
			{kind: RelCalls, source: "multiply", target: "multiply", qual: "lodash"},
			{kind: RelCalls, source: "App.start", target: "greet", qual: ""},
			{kind: RelCalls, source: "handler", target: "send", qual: "res"},
			{kind: RelCalls, source: "handler", target: "add", qual: ""},
		},
		noRels: []relWant{
			{kind: RelImports, target: "fs", qual: "*"},
			{kind: RelImports, target: "node:path", qual: "*"},
			{kind: RelImports, target: "os", qual: "*"},
			{kind: RelCalls, source: "greet", target: "trim", qual: "*"}, // belongs to format
			{kind: RelCalls, source: "", target: "listen", qual: "*"},
		},
	})
}

func TestParseTypeScript(t *testing.T) {
	checkFixture(t, fixtureCase{
		lang: "typescript", file: "typescript/service.ts",
		chunks: []chunkWant{
			{kind: KindType, name: "Repository", start: 5, end: 7, extends: []string{"Base", "Closeable"}},
			{kind: KindType, name: "UserId", start: 9, end: 9},
			{kind: KindType, name: "Color", start: 11, end: 14},
			{kind: KindType, name: "UserService", start: 16, end: 34,
				extends: []string{"BaseService"}, implements: []string{"Repository", "OnInit"},
				decorators: []string{"@Injectable({ providedIn: 'root' })"},
				has:        []string{"/** The user service. */", "export class UserService"}},
			{kind: KindMethod, name: "UserService.constructor(private readonly http: HttpClient)", symbol: "UserService.constructor", start: 21, end: 23,
				container: "UserService", extends: []string{"BaseService"}, implements: []string{"Repository", "OnInit"}},
			{kind: KindMethod, name: "UserService.find(id: string)", symbol: "UserService.find", start: 25, end: 29,
				container: "UserService", extends: []string{"BaseService"}, implements: []string{"Repository", "OnInit"},
				decorators: []string{"@Log()"}, has: []string{"@Log()", "async find"}},
			{kind: KindMethod, name: "UserService.onEvent(e: Event)", symbol: "UserService.onEvent", start: 31, end: 33,
				container: "UserService", extends: []string{"BaseService"}, implements: []string{"Repository", "OnInit"}},
			{kind: KindType, name: "Shape", start: 36, end: 38},
			// functions inside a namespace
			{kind: KindFunction, name: "distance(a: Point, b: Point)", symbol: "distance", start: 41, end: 43},
			{kind: KindFunction, name: "create(ctor: new () => T)", symbol: "create", start: 46, end: 48},
			{kind: KindFile, name: "enabled", start: 50, end: 50},
			// a class declared inside a method is nested in the outer class
			{kind: KindType, name: "Outer", start: 52, end: 59},
			{kind: KindMethod, name: "Outer.build()", symbol: "Outer.build", start: 53, end: 58, container: "Outer"},
			{kind: KindType, name: "Outer.Inner", start: 54, end: 56, container: "Outer", extends: []string{"Base"}},
			{kind: KindMethod, name: "Outer.Inner.run()", symbol: "Outer.Inner.run", start: 55, end: 55, container: "Outer.Inner", extends: []string{"Base"}},
		},
		rels: []relWant{
			{kind: RelImports, target: "@angular/core", line: 1},
			{kind: RelImports, target: "./models/user", line: 2},
			{kind: RelExtends, source: "Repository", target: "Base"},
			{kind: RelExtends, source: "UserService", target: "BaseService"},
			{kind: RelImplements, source: "UserService", target: "Repository"},
			{kind: RelImplements, source: "UserService", target: "OnInit"},
			{kind: RelContains, source: "UserService", target: "UserService.find"},
			{kind: RelCalls, source: "UserService.find", target: "get", qual: ""},
			{kind: RelCalls, source: "UserService.onEvent", target: "find", qual: "this"},
			{kind: RelCalls, source: "distance", target: "sqrt", qual: "Math"},
			{kind: RelCalls, source: "create", target: "ctor", qual: ""},
			{kind: RelContains, source: "Outer", target: "Outer.Inner"},
			{kind: RelContains, source: "Outer.Inner", target: "Outer.Inner.run"},
			{kind: RelExtends, source: "Outer.Inner", target: "Base"},
			{kind: RelCalls, source: "Outer.Inner.run", target: "go", qual: "this", line: 55},
			{kind: RelCalls, source: "Outer.build", target: "Inner", qual: ""},
		},
		noRels: []relWant{
			{kind: RelImports, target: "path", qual: "*"},
			{kind: RelCalls, source: "Outer.build", target: "go", qual: "*"}, // belongs to Inner.run
		},
	})
}

func TestParseTSX(t *testing.T) {
	checkFixture(t, fixtureCase{
		lang: "tsx", file: "tsx/Button.tsx",
		chunks: []chunkWant{
			{kind: KindType, name: "Props", start: 4, end: 7},
			{kind: KindFunction, name: "Button({ label, onClick }: Props)", symbol: "Button", start: 9, end: 17, has: []string{"// A button.", "<button"}},
			{kind: KindFunction, name: "handle()", symbol: "handle", start: 12, end: 15},
			{kind: KindType, name: "Panel", start: 19, end: 23, extends: []string{"Component"}},
			{kind: KindMethod, name: "Panel.render()", symbol: "Panel.render", start: 20, end: 22, container: "Panel", extends: []string{"Component"}},
		},
		rels: []relWant{
			{kind: RelImports, target: "react"},
			{kind: RelImports, target: "./Button.module.css"},
			{kind: RelCalls, source: "Button", target: "useState", qual: ""},
			{kind: RelCalls, source: "handle", target: "setCount", qual: ""},
			{kind: RelCalls, source: "handle", target: "onClick", qual: ""},
			{kind: RelExtends, source: "Panel", target: "Component"},
			{kind: RelContains, source: "Panel", target: "Panel.render"},
		},
	})
}
