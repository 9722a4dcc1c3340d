package index

import (
	"maps"
	"slices"
	"testing"
)

// javaTree is a small Java project in packages: an interface, two
// implementations through an abstract base, super and inherited calls,
// fields, locals, parameters, static calls, a method result, a class
// extending a type outside the project, and calls on values of external
// or unknown type whose method names the project also defines (never
// resolved by name).
var javaTree = map[string]string{
	"src/main/java/com/acme/shape/Shape.java": `package com.acme.shape;

public interface Shape {
    double area();
    String name();
}
`,
	"src/main/java/com/acme/shape/Base.java": `package com.acme.shape;

public abstract class Base implements Shape {
    public String name() { return "base"; }
    protected void log(String s) { }
}
`,
	"src/main/java/com/acme/shape/Circle.java": `package com.acme.shape;

public class Circle extends Base {
    public double area() { return 3.0; }
    public String name() {
        log("c");
        return super.name();
    }
}
`,
	"src/main/java/com/acme/shape/Square.java": `package com.acme.shape;

public class Square extends Base {
    private final Helper helper = new Helper();
    public double area() { return helper.twice(2.0); }
    public static Square unit() { return new Square(); }
}
`,
	"src/main/java/com/acme/shape/Helper.java": `package com.acme.shape;

class Helper {
    Helper() { }
    double twice(double x) { return x * 2; }
}
`,
	"src/main/java/com/acme/app/Counter.java": `package com.acme.app;

public class Counter {
    public int size() { return 0; }
    public void flush() { }
}
`,
	"src/main/java/com/acme/app/Registry.java": `package com.acme.app;

import java.util.ArrayList;
import java.util.List;
import com.acme.shape.Shape;
import com.acme.shape.Circle;
import com.acme.shape.Square;

public class Registry {
    private List<Shape> shapes = new ArrayList<>();
    private Shape main;
    private Counter counter;

    public void add(Shape s) {
        shapes.add(s);
        this.counter.size();
        main.area();
        Circle c = new Circle();
        c.name();
        Square.unit().area();
        s.name();
        String t = s.name();
        t.trim();
        counterOf().flush();
        other.flush();
        var q = pick();
        q.area();
        var c2 = counterOf();
        c2.size();
    }

    Counter counterOf() { return counter; }
}
`,
	"src/main/java/com/acme/app/Names.java": `package com.acme.app;

import java.util.ArrayList;

public class Names extends ArrayList<String> {
    void fill() {
        super.add("x");
        size();
        this.clear();
    }
}
`,
}

func TestJavaResolution(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, javaTree)
	db := openDB(t)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	got := querySet(t, db, `SELECT substr(f.path, 24), r.kind, r.src_symbol, r.target, r.line, COALESCE(dc.symbol, ''), r.resolution, r.detail
		FROM relations r JOIN files f ON f.id = r.file_id LEFT JOIN chunks dc ON dc.id = r.dst_chunk
		WHERE r.kind IN ('calls', 'dispatch', 'extends', 'implements')`, 8)
	for _, want := range []string{
		// the hierarchy through the package and imports
		"shape/Circle.java | extends | Circle | Base | 3 | Base | exact | type",
		"shape/Base.java | implements | Base | Shape | 3 | Shape | exact | type",
		// a bare call of an inherited method; super
		"shape/Circle.java | calls | Circle.name | log | 6 | Base.log | exact | base class",
		"shape/Circle.java | calls | Circle.name | name | 7 | Base.name | exact | base class",
		// a field of a type in the same package (no import); a constructor
		// of a class without one declared
		"shape/Square.java | calls | Square.area | twice | 5 | Helper.twice | exact | receiver type",
		"shape/Square.java | calls | Square.unit | Square | 6 | Square | exact | constructor",
		// a field typed java.util.List: external, never Registry.add by name
		"app/Registry.java | calls | Registry.add | add | 15 |  | external | java.util.List",
		// this.field of a project type
		"app/Registry.java | calls | Registry.add | size | 16 | Counter.size | exact | receiver type",
		// a field typed by an interface: its method, and dispatch edges
		"app/Registry.java | calls | Registry.add | area | 17 | Shape.area | exact | interface method",
		"app/Registry.java | dispatch | Registry.add | Circle.area | 17 | Circle.area | exact | dynamic",
		"app/Registry.java | dispatch | Registry.add | Square.area | 17 | Square.area | exact | dynamic",
		// a local constructed; an imported class's static method and its result
		"app/Registry.java | calls | Registry.add | Circle | 18 | Circle | exact | constructor",
		"app/Registry.java | calls | Registry.add | name | 19 | Circle.name | exact | receiver type",
		"app/Registry.java | calls | Registry.add | unit | 20 | Square.unit | exact | qualifier type",
		"app/Registry.java | calls | Registry.add | area | 20 | Square.area | exact | receiver type",
		// a parameter typed by the interface; the interface method inherited by both
		"app/Registry.java | calls | Registry.add | name | 21 | Shape.name | exact | interface method",
		"app/Registry.java | dispatch | Registry.add | Base.name | 21 | Base.name | exact | dynamic",
		"app/Registry.java | dispatch | Registry.add | Circle.name | 21 | Circle.name | exact | dynamic",
		// a String local: external
		"app/Registry.java | calls | Registry.add | trim | 23 |  | external | String",
		// a method's declared result
		"app/Registry.java | calls | Registry.add | flush | 24 | Counter.flush | exact | receiver type",
		// a name that is nothing the class knows, a local of unknown type:
		// unresolved, although Counter.flush is the only flush and
		// area is a project method
		"app/Registry.java | calls | Registry.add | flush | 25 |  | unresolved | receiver of unknown type",
		"app/Registry.java | calls | Registry.add | area | 27 |  | unresolved | receiver of unknown type",
		// a local initialised with a method's result
		"app/Registry.java | calls | Registry.add | size | 29 | Counter.size | exact | receiver type",
		// a base outside the project
		"app/Names.java | calls | Names.fill | add | 7 |  | external | java.util.ArrayList",
		"app/Names.java | calls | Names.fill | size | 8 |  | external | java.util.ArrayList",
		"app/Names.java | calls | Names.fill | clear | 9 |  | external | java.util.ArrayList",
	} {
		if !slices.Contains(got, want) {
			t.Errorf("missing %q", want)
		}
	}
	for _, bad := range []string{
		// Base.name is the implementation Square inherits: listed once
		"app/Registry.java | dispatch | Registry.add | Shape.name | 21 | Shape.name | exact | dynamic",
	} {
		if slices.Contains(got, bad) {
			t.Errorf("unexpected %q", bad)
		}
	}
	if t.Failed() {
		for _, g := range got {
			t.Log(g)
		}
	}
}

// tsTree is the same shape in TypeScript: imports across files, a ".js"
// extension standing for ".ts", an index file re-exporting, a namespace
// import, constructor parameter properties, class fields, an abstract
// base, a package outside the project, a JavaScript class whose field
// is assigned in its constructor, and a CommonJS base class.
var tsTree = map[string]string{
	"web/shapes/shape.ts": `export interface Shape {
  area(): number;
  name(): string;
}
export abstract class Base implements Shape {
  abstract area(): number;
  name(): string { return "base"; }
  protected log(s: string): void {}
}
`,
	"web/shapes/circle.ts": `import { Base } from "./shape.js";
export class Circle extends Base {
  area(): number { return 3; }
  name(): string {
    this.log("c");
    return super.name();
  }
}
`,
	"web/shapes/square.ts": `import { Base } from "./shape";
import { Helper } from "../util/helper";
export class Square extends Base {
  private helper = new Helper();
  area(): number { return this.helper.twice(2); }
  static unit(): Square { return new Square(); }
}
`,
	"web/shapes/index.ts": `export { Circle } from "./circle.js";
export * from "./square";
`,
	"web/util/cb.ts": `export function cb() { return 0; }
`,
	"web/util/helper.ts": `export class Helper {
  twice(x: number): number { return x * 2; }
  flush(): void {}
}
export function makeHelper(): Helper { return new Helper(); }
`,
	"web/app/registry.ts": `import { Circle, Square } from "../shapes/index.js";
import type { Shape } from "../shapes/shape.js";
import * as util from "../util/helper";
import { EventEmitter } from "events";

export class Registry {
  private shapes: Shape[] = [];
  private readonly emitter = new EventEmitter();
  constructor(private main: Shape, private helper: util.Helper) {}

  add(s: Shape) {
    this.shapes.push(s);
    this.main.area();
    const c = new Circle();
    c.name();
    Square.unit().area();
    this.helper.flush();
    this.emitter.emit("x");
    util.makeHelper().twice(1);
    s.name();
    other.flush();
    const h = util.makeHelper();
    h.twice(2);
    const sq = Square.unit();
    sq.area();
  }
}
`,
	"web/util/base.js": `class Cmd {
  exec() {}
}
module.exports = Cmd
`,
	"web/app/cmd.js": `const Cmd = require("../util/base.js")
class Sub extends Cmd {
  run() {
    this.exec();
  }
}
module.exports = Sub
`,
	"web/app/legacy.js": `import { Helper } from "../util/helper.js";
export class Legacy {
  constructor() { this.h = new Helper(); }
  run(list, cb) {
    this.h.twice(1);
    list.flush();
    this.#check();
    cb();
  }
  #check() {}
}
`,
}

func TestTypeScriptResolution(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, tsTree)
	db := openDB(t)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	got := querySet(t, db, `SELECT f.path, r.kind, r.src_symbol, r.target, r.line, COALESCE(dc.symbol, ''), r.resolution, r.detail
		FROM relations r JOIN files f ON f.id = r.file_id LEFT JOIN chunks dc ON dc.id = r.dst_chunk
		WHERE r.kind IN ('calls', 'dispatch', 'extends', 'implements')`, 8)
	containsAll(t, got, []string{
		// the hierarchy through imports (".js" standing for ".ts")
		"web/shapes/circle.ts | extends | Circle | Base | 2 | Base | exact | type",
		"web/shapes/shape.ts | implements | Base | Shape | 5 | Shape | exact | type",
		// this.m() inherited; super
		"web/shapes/circle.ts | calls | Circle.name | log | 5 | Base.log | exact | base class",
		"web/shapes/circle.ts | calls | Circle.name | name | 6 | Base.name | exact | base class",
		// a class field constructed from an imported class
		"web/shapes/square.ts | calls | Square.area | twice | 5 | Helper.twice | exact | receiver type",
		"web/shapes/square.ts | calls | Square.unit | Square | 6 | Square | exact | constructor",
		// a field typed as an array: outside the project
		"web/app/registry.ts | calls | Registry.add | push | 12 |  | external | array",
		// a constructor parameter property typed by the interface (the
		// interface's methods are declared without bodies: the interface)
		"web/app/registry.ts | calls | Registry.add | area | 13 | Shape | exact | interface method",
		"web/app/registry.ts | dispatch | Registry.add | Circle.area | 13 | Circle.area | exact | dynamic",
		"web/app/registry.ts | dispatch | Registry.add | Square.area | 13 | Square.area | exact | dynamic",
		// through the index file's re-exports
		"web/app/registry.ts | calls | Registry.add | Circle | 14 | Circle | exact | constructor",
		"web/app/registry.ts | calls | Registry.add | name | 15 | Circle.name | exact | receiver type",
		"web/app/registry.ts | calls | Registry.add | unit | 16 | Square.unit | exact | qualifier type",
		"web/app/registry.ts | calls | Registry.add | area | 16 | Square.area | exact | receiver type",
		// a parameter property typed through a namespace import
		"web/app/registry.ts | calls | Registry.add | flush | 17 | Helper.flush | exact | receiver type",
		// a package outside the project
		"web/app/registry.ts | calls | Registry.add | emit | 18 |  | external | events",
		// a module member and its declared result
		"web/app/registry.ts | calls | Registry.add | makeHelper | 19 | makeHelper | exact | module member",
		"web/app/registry.ts | calls | Registry.add | twice | 19 | Helper.twice | exact | receiver type",
		"web/app/registry.ts | calls | Registry.add | name | 20 | Shape | exact | interface method",
		// a name the file does not bind: never Helper.flush by name
		"web/app/registry.ts | calls | Registry.add | flush | 21 |  | unresolved | receiver of unknown type",
		// locals initialised with a function's and a static method's results
		"web/app/registry.ts | calls | Registry.add | twice | 23 | Helper.twice | exact | receiver type",
		"web/app/registry.ts | calls | Registry.add | area | 25 | Square.area | exact | receiver type",
		// JavaScript: a field assigned new T() in the constructor; an untyped parameter
		"web/app/legacy.js | calls | Legacy.run | twice | 5 | Helper.twice | exact | receiver type",
		"web/app/legacy.js | calls | Legacy.run | flush | 6 |  | unresolved | receiver of unknown type",
		"web/app/legacy.js | calls | Legacy.run | #check | 7 | Legacy.#check | exact | own type",
		// a parameter called: never the project function named cb
		"web/app/legacy.js | calls | Legacy.run | cb | 8 |  | unresolved | local function value",
		// CommonJS: a base class bound by require, module.exports
		"web/app/cmd.js | extends | Sub | Cmd | 2 | Cmd | exact | type",
		"web/app/cmd.js | calls | Sub.run | exec | 4 | Cmd.exec | exact | base class",
	})
}

// TestJTSResolutionIsAFunctionOfTheTree indexes the Java and TypeScript
// fixtures in shuffled orders, a few files per run, and through the
// deletion and re-addition of an interface's file and of an index file
// that only re-exports, and compares the relation set with a clean index.
func TestJTSResolutionIsAFunctionOfTheTree(t *testing.T) {
	tree := maps.Clone(javaTree)
	maps.Copy(tree, tsTree)
	_, _, want := cleanSets(t, tree)
	shuffledArrivals(t, tree, 2, 4, want)
	deleteAndReadd(t, tree, []string{"src/main/java/com/acme/shape/Shape.java", "web/shapes/index.ts"}, want)
}

// TestTypeScriptBareCallsInScope: two functions of a file each declare a
// local helper of one name; a bare call reaches the helper in its own
// scope, and a top-level function of that name from anywhere else.
func TestTypeScriptBareCallsInScope(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"src/errors.ts": `export function formatError(e: string) {
  function processError(x: string) {
    return x;
  }
  return processError(e);
}

export function treeifyError(e: string) {
  function processError(x: string) {
    return x + "!";
  }
  return processError(e);
}

function shared(x: string) {
  return x;
}

export function top(e: string) {
  return shared(e);
}
`,
	})
	db := openDB(t)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	got := querySet(t, db, `SELECT r.src_symbol, r.target, r.line, COALESCE(dc.start_line, 0), r.resolution
		FROM relations r LEFT JOIN chunks dc ON dc.id = r.dst_chunk WHERE r.kind = 'calls'`, 5)
	containsAll(t, got, []string{
		"formatError | processError | 5 | 2 | exact",
		"treeifyError | processError | 12 | 9 | exact",
		"top | shared | 20 | 15 | exact",
	})
}

// TestTypeScriptDestructuredLocals: const {a, b: c} = v binds a to v.a and
// c to v.b, so their methods resolve by v's declared type.
func TestTypeScriptDestructuredLocals(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"src/codegen.ts": `export class CodeGen {
  emit(s: string): void {}
}

export class Scope {
  name(): string { return ""; }
}

export class KeywordCxt {
  gen: CodeGen;
  scope: Scope;
  constructor() {
    this.gen = new CodeGen();
    this.scope = new Scope();
  }
}
`,
		"src/rule.ts": `import {KeywordCxt} from "./codegen";

export function code(cxt: KeywordCxt) {
  const {gen, scope: sc} = cxt;
  gen.emit("x");
  sc.name();
}
`,
	})
	db := openDB(t)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	got := querySet(t, db, `SELECT r.src_symbol, r.target, r.line, COALESCE(dc.symbol, ''), r.resolution
		FROM relations r LEFT JOIN chunks dc ON dc.id = r.dst_chunk WHERE r.kind = 'calls'`, 5)
	containsAll(t, got, []string{
		"code | emit | 5 | CodeGen.emit | exact",
		"code | name | 6 | Scope.name | exact",
	})
}

// TestClassOverrideDispatch: a call of a class's method may run an override
// in a subclass: dispatch edges to the overrides (not to the method
// itself, not for super calls), in TypeScript and Java.
func TestClassOverrideDispatch(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"src/node.ts": `export abstract class Node {
  render(): string { return ""; }
  all(): string { return this.render(); }
}

export class If extends Node {
  render(): string { return "if " + super.render(); }
}

export class Block extends Node {}

export class Loop extends Block {
  render(): string { return "loop"; }
}

export function show(n: Node) {
  n.render();
}

export function showBlock(b: Block) {
  b.render();
}
`,
		"src/main/java/p/Shape.java": `package p;

public class Shape {
    public double area() { return 0; }
}
`,
		"src/main/java/p/Square.java": `package p;

public class Square extends Shape {
    public double area() { return 4; }
    double base() { return super.area(); }
}
`,
		"src/main/java/p/Use.java": `package p;

class Use {
    double total(Shape s) { return s.area(); }
}
`,
	})
	db := openDB(t)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	got := querySet(t, db, `SELECT r.src_symbol, r.line, COALESCE(dc.symbol, '')
		FROM relations r LEFT JOIN chunks dc ON dc.id = r.dst_chunk WHERE r.kind = 'dispatch'`, 3)
	containsAll(t, got, []string{
		"Node.all | 3 | If.render",
		"Node.all | 3 | Loop.render",
		"show | 17 | If.render",
		"show | 17 | Loop.render",
		"showBlock | 21 | Loop.render", // Block inherits Node.render; Loop overrides it
		"Use.total | 4 | Square.area",
	})
	for _, bad := range []string{
		"showBlock | 21 | If.render",    // If is no Block
		"If.render | 7 | Node.render",   // a super call is static
		"Square.base | 5 | Square.area", // likewise
	} {
		if slices.Contains(got, bad) {
			t.Errorf("unexpected %q", bad)
		}
	}
}
