package main

import (
	"os"
	"path/filepath"
	"testing"
)

// The rules of the package comment, on CC-CEDICT lines of each shape.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "cedict.js")
	data := "module.exports = `# CC-CEDICT\n" +
		"#! version=1\n" +
		"交換 交换 [jiao1 huan4] /to exchange/to swap/\n" +
		"對應 对应 [dui4 ying4] /to correspond (to); to be equivalent to/\n" +
		"生效 生效 [sheng1 xiao4] /(of a law) to come into force; to go into effect/\n" +
		"配對 配对 [pei4 dui4] /to pair up; to match up/\n" +
		"星號 星号 [xing1 hao4] /asterisk * (punct.)/\n" +
		"網址 网址 [wang3 zhi3] /URL/\n" +
		"北京 北京 [Bei3 jing1] /Beijing/\n" +
		"嚮導 向导 [xiang4 dao3] /variant of 向導|向导[xiang4 dao3]/guide/\n" +
		"一 一 [yi1] /one/\n" +
		"後來 后来 [hou4 lai2] /afterwards; later/\n" +
		"聰明 聪明 [cong1 ming5] /Einstein-like/clever/`;\n"
	if err := os.WriteFile(in, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.tsv")
	if err := run(in, out); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	// Sorted bytewise; 生效 has no one-word gloss, 北京 is a name, 一 is a
	// single character.
	want := "交换\texchange\n" +
		"后来\tafterwards\n" +
		"向导\tguide\n" +
		"对应\tcorrespond\n" +
		"星号\tasterisk\n" +
		"网址\turl\n" +
		"聪明\tclever\n" +
		"配对\tpair\n"
	if string(got) != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
