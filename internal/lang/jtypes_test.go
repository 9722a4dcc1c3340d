package lang

import (
	"slices"
	"strings"
	"testing"
)

// The Java and TypeScript receivers and facts resolution reads.
func TestJavaReceiversAndFacts(t *testing.T) {
	src := []byte(`package p;

import java.util.*;
import a.b.Foo;
import static a.b.Util.check;

class A<T> extends B implements I, J<String> {
    private Foo foo, bar = new Foo();
    Foo get(int n) { return foo; }

    void m(Foo x, T t, List<Foo> xs) {
        var z = new a.b.Bar<>();
        this.foo.run();
        x.open();
        t.close();
        xs.add(x);
        foo.get().push();
        get().pop();
        new Foo().peek();
        super.base();
        Foo.stat();
        z.zip();
        list.forEach(v -> v.go());
        "s".trim();
        var g = foo.get();
        g.gone();
    }
}

interface I extends K { void run(); }
`)
	res := strictParse(t, "p/A.java", "java", src)
	recv := map[string]string{}
	for _, r := range res.Relations {
		if r.Kind == RelCalls {
			recv[r.Target+"@"+r.Qualifier] = r.Recv
		}
	}
	for call, want := range map[string]string{
		"run@":       "this .foo",   // a field of this
		"open@x":     ":Foo",        // a typed parameter
		"close@t":    "?",           // a type parameter: unknown
		"add@xs":     ":List",       // generic arguments dropped
		"push@":      "~foo .get()", // a name that is not a local, a method result
		"pop@":       "this .get()", // a bare call's result
		"peek@":      ":Foo",        // a constructed value
		"Foo@":       "new Foo",
		"base@super": "super",
		"stat@Foo":   "~Foo",     // a type (or a field): resolution decides
		"zip@z":      ":a.b.Bar", // var from new
		"go@v":       "?",        // an untyped lambda parameter
		"trim@":      "!string",
	} {
		got, ok := recv[call]
		if !ok {
			t.Errorf("call %s not recorded (have %v)", call, recv)
			continue
		}
		if got != want {
			t.Errorf("call %s: Recv %q, want %q", call, got, want)
		}
	}
	var facts []string
	for _, f := range res.Facts {
		facts = append(facts, strings.Join([]string{f.Kind, f.Owner, f.Name, f.Type, f.Sig}, "|"))
	}
	for _, want := range []string{
		"import||*|java.util|*",
		"import||Foo|a.b.Foo|",
		"import||check|a.b.Util|static",
		"base|A||B|extends",
		"base|A||J|implements",
		"field|A|foo|Foo|",
		"field|A|bar|Foo|",
		"result|A|get|Foo|",
		"interface|I|||",
		"base|I||K|extends",
	} {
		if !slices.Contains(facts, want) {
			t.Errorf("missing fact %q in %v", want, facts)
		}
	}
}

func TestTypeScriptReceiversAndFacts(t *testing.T) {
	src := []byte(`import { Foo as F, Bar } from "./foo.js";
import * as ns from "./ns";
import Def from "./def";
export { X } from "./x";
export * from "./y";
const top = new F();

export class A extends Base<T> implements I {
  private foo: Foo;
  bar = new Bar();
  #p: Baz;
  constructor(private readonly svc: Svc, plain: number) { super(); }
  get(): Foo | undefined { return this.foo; }
  m(x: Foo, y, list: Foo[]) {
    const a: Foo = make();
    let b = new ns.Q<string>();
    this.foo.run();
    this.#p.go();
    x?.open();
    y.close();
    this.get().pop();
    super.base();
    list.push(a);
    b.quit();
    top.spin();
    const r = make();
    r.run2();
  }
}
export default A;
`)
	res := strictParse(t, "web/a.ts", "typescript", src)
	recv := map[string]string{}
	for _, r := range res.Relations {
		if r.Kind == RelCalls {
			recv[r.Target+"@"+r.Qualifier] = r.Recv
		}
	}
	for call, want := range map[string]string{
		"run@":       "this .foo",
		"go@":        "this .#p",
		"open@x":     ":Foo",
		"close@y":    "?",
		"pop@":       "this .get()",
		"base@super": "super",
		"push@list":  "!array",
		"quit@b":     ":ns.Q",
		"spin@top":   "~top",
		"run2@r":     "~make ()", // a local holding a function's result
		"Q@ns":       "new ns.Q",
	} {
		got, ok := recv[call]
		if !ok {
			t.Errorf("call %s not recorded (have %v)", call, recv)
			continue
		}
		if got != want {
			t.Errorf("call %s: Recv %q, want %q", call, got, want)
		}
	}
	var facts []string
	for _, f := range res.Facts {
		facts = append(facts, strings.Join([]string{f.Kind, f.Owner, f.Name, f.Type, f.Sig}, "|"))
	}
	for _, want := range []string{
		"import||F|./foo.js|Foo",
		"import||ns|./ns|*",
		"import||Def|./def|default",
		"import|export|X|./x|X",
		"import|export|*|./y|*",
		"var||top|F|",
		"var||default|A|",
		"base|A||Base|extends",
		"base|A||I|implements",
		"field|A|foo|Foo|",
		"field|A|bar|Bar|",
		"field|A|#p|Baz|",
		"field|A|svc|Svc|",
		"result|A|get|Foo|",
	} {
		if !slices.Contains(facts, want) {
			t.Errorf("missing fact %q in %v", want, facts)
		}
	}
	for _, f := range facts {
		if strings.HasPrefix(f, "field|A|plain|") {
			t.Errorf("a plain constructor parameter is not a field: %q", f)
		}
	}
}
