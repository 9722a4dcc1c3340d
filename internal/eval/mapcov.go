package eval

// MapCoverage counts how many of a set's symbol targets appear among the
// definitions a repository map shows (matched as SymbolMatches matches a
// hit: same file, name equal to or ending in "." + symbol). Targets without
// a symbol are not counted. tasks is how many tasks have at least one
// shown target.
type MapCoverage struct {
	Targets int `json:"targets"`
	Found   int `json:"found"`
	Tasks   int `json:"tasks"`
	TasksIn int `json:"tasks_found"`
}

// Share is Found / Targets (0 without targets).
func (c MapCoverage) Share() float64 {
	if c.Targets == 0 {
		return 0
	}
	return float64(c.Found) / float64(c.Targets)
}

// CoverMap scores the shown definitions of a map against a set's tasks.
func CoverMap(tasks []Task, shown []Hit) MapCoverage {
	byFile := map[string][]string{}
	for _, h := range shown {
		byFile[h.File] = append(byFile[h.File], h.Name)
	}
	var c MapCoverage
	for _, t := range tasks {
		counted, in := false, false
		for _, tg := range t.Targets {
			if tg.Symbol == "" {
				continue
			}
			counted = true
			c.Targets++
			for _, n := range byFile[tg.File] {
				if SymbolMatches(n, tg.Symbol) {
					c.Found++
					in = true
					break
				}
			}
		}
		if counted {
			c.Tasks++
			if in {
				c.TasksIn++
			}
		}
	}
	return c
}
