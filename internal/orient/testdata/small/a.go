package small

// Run calls Step.
func Run() { Step() }

// Step does one step.
func Step() {}
