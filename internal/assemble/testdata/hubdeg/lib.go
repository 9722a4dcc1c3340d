package lib

// Parse is called by one function of the project, on two lines, and by
// three tests.
func Parse(s string) string { return s }

// Load calls Parse twice.
func Load(a, b string) string { return Parse(a) + Parse(b) }

// Trim is called by three functions of the project.
func Trim(s string) string { return s }

func One(s string) string   { return Trim(s) }
func Two(s string) string   { return Trim(s) }
func Three(s string) string { return Trim(s) }
