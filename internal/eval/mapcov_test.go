package eval

import "testing"

func TestCoverMap(t *testing.T) {
	tasks := []Task{
		{ID: "a", Targets: []Target{{File: "c.go", Symbol: "Client.Do"}, {File: "c.go", Symbol: "send"}}},
		{ID: "b", Targets: []Target{{File: "s.go", Symbol: "Serve"}}},
		{ID: "c", Targets: []Target{{File: "x.go"}}}, // no symbol: not counted
	}
	shown := []Hit{
		{File: "c.go", Name: "Client.Do(req *Request)"},
		{File: "other.go", Name: "send()"}, // right name, wrong file
		{File: "s.go", Name: "Server.Serve(l net.Listener)"},
	}
	got := CoverMap(tasks, shown)
	want := MapCoverage{Targets: 3, Found: 2, Tasks: 2, TasksIn: 2}
	if got != want {
		t.Fatalf("CoverMap = %+v, want %+v", got, want)
	}
	if s := got.Share(); s < 0.66 || s > 0.67 {
		t.Fatalf("share = %v", s)
	}
	if (MapCoverage{}).Share() != 0 {
		t.Fatal("empty share must be 0")
	}
}
