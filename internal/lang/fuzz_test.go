package lang

import "testing"

// fuzzParse seeds a fuzz target with a fixture and a few fragments and
// checks that Parse neither panics (not even internally recovered) nor
// breaks the result invariants.
func fuzzParse(f *testing.F, language, fixture string, seeds ...string) {
	f.Add(readFixture(f, fixture))
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Add([]byte{})
	f.Add([]byte("\xff\xfe\x00{(\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		res := strictParse(t, "fuzz/input", language, src)
		checkInvariants(t, src, res)
	})
}

func FuzzParseGo(f *testing.F) {
	fuzzParse(f, "go", "go/server.go", "package p\nfunc (r *T[K]) M() { go func(){ f() }() }\n", "type ( A struct{ B }; C interface{ D } )")
}

func FuzzParseJava(f *testing.F) {
	fuzzParse(f, "java", "java/SampleService.java", "class A extends B { class C { void d() { e(); } } }", "@interface X {}")
}

func FuzzParsePython(f *testing.F) {
	fuzzParse(f, "python", "python/client.py", "class A(B):\n  @d\n  def f(self):\n    def g(): h()\n", "from . import x\n")
}

func FuzzParseJavaScript(f *testing.F) {
	fuzzParse(f, "javascript", "javascript/app.js", "const f = x => y(x);\nclass A { m = () => this.n() }\n", "module.exports = { a() {}, b: function () {} }")
}

func FuzzParseTypeScript(f *testing.F) {
	fuzzParse(f, "typescript", "typescript/service.ts", "namespace N { export class A implements B<C> {} }")
}

func FuzzParseC(f *testing.F) {
	fuzzParse(f, "c", "c/buffer.h", "#ifdef X\ntypedef struct { int a; } t;\n#else\nint f(void) { return g(); }\n#endif\n")
}

func FuzzParseCpp(f *testing.F) {
	fuzzParse(f, "cpp", "cpp/shapes.cpp", "namespace a { template<class T> struct B : C<T> { void d() { e(); } }; }\nvoid B::f() {}\n")
}

func FuzzParseRust(f *testing.F) {
	fuzzParse(f, "rust", "rust/lib.rs", "impl<T> Tr for S<T> { fn f(&self) { println!(\"{}\", g(1)); } }")
}

func FuzzParseCSharp(f *testing.F) {
	fuzzParse(f, "csharp", "csharp/OrderService.cs", "namespace N; class A : IB { void C() => D(); }")
}

func FuzzParseRuby(f *testing.F) {
	fuzzParse(f, "ruby", "ruby/user.rb", "class A < B; def c; d.e; end; end")
}

func FuzzParsePHP(f *testing.F) {
	fuzzParse(f, "php", "php/Controller.php", "<?php namespace A { class B { function c() { d(); } } }")
}

func FuzzParseText(f *testing.F) {
	fuzzParse(f, "markdown", "text/README.md", "# a\n\n## b\n")
}
