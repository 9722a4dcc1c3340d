package graph

import (
	"regexp"
	"strings"
)

// Intent kinds.
const (
	IntentImplementation = "implementation" // how is X done: follow callees two hops
	IntentUsage          = "usage"          // who calls / uses X: one hop, callers first
	IntentLocation       = "location"       // where is X defined / configured: the definition itself
)

// Intent is what a question asks for and how far context expansion should go.
type Intent struct {
	Kind           string `json:"kind"`
	Depth          int    `json:"depth"`
	FavourCallers  bool   `json:"favour_callers,omitempty"`
	MatchedPattern string `json:"matched,omitempty"` // the cue that decided, "" for the default
}

// Short, general cue lists; the first group that matches decides. Usage
// comes first because "where is X used" also looks like a location
// question; location before implementation because "where is X defined"
// must not fall to the generic "where" of implementation questions.
var (
	usageCues = []*regexp.Regexp{
		regexp.MustCompile(`\bwho (calls|uses|invokes)\b`),
		regexp.MustCompile(`\bcall(er|ers|ed|s)? (of|to)\b`),
		regexp.MustCompile(`\bcallers?\b`),
		regexp.MustCompile(`\b(usages?|used)\b`),
		regexp.MustCompile(`\bwhere (is|are|does|do)\b.*\b(call|calls|called|invoke|invoked|use|applied)\b`),
		regexp.MustCompile(`\bwhich (code|functions?|methods?|places?)\b.*\bcall`),
	}
	usageCuesZH = []string{"谁调用", "被调用", "哪里调用", "在哪调用", "哪里用到", "在哪用到", "被用到", "被使用", "哪些地方用"}

	locationCues = []*regexp.Regexp{
		regexp.MustCompile(`\b(defined|declared|definition|declaration)\b`),
		regexp.MustCompile(`\b(config|configuration|configured|setting|settings|constant|default value)\b`),
		regexp.MustCompile(`\bentry ?point\b`),
		regexp.MustCompile(`\bwhere (is|are|does|do)\b.*\b(come from|generated|produced|raised|thrown|parsed|created|set)\b`),
		regexp.MustCompile(`\bwhich (file|function|class|method)\b`),
	}
	locationCuesZH = []string{"定义在哪", "在哪定义", "在哪里定义", "哪里定义", "配置", "入口", "哪个文件"}

	implementationCues = []*regexp.Regexp{
		regexp.MustCompile(`\bhow (is|are|does|do|did|can|to)\b`),
		regexp.MustCompile(`\bimplement(ed|s|ation)?\b`),
		regexp.MustCompile(`\b(logic|algorithm|mechanism)\b`),
		regexp.MustCompile(`\bwhy\b`),
	}
	implementationCuesZH = []string{"怎么", "如何", "实现", "逻辑", "原理", "流程", "机制", "为什么", "是怎样"}
)

// Classify reads a question and returns its intent with the expansion
// depth to use: implementation 2, usage 1 (callers favoured), location 0.
// A question that matches no cue is treated as implementation with depth 1.
func Classify(query string) Intent {
	q := strings.ToLower(strings.Join(strings.Fields(query), " "))
	if cue, ok := match(q, usageCues, usageCuesZH); ok {
		return Intent{Kind: IntentUsage, Depth: 1, FavourCallers: true, MatchedPattern: cue}
	}
	if cue, ok := match(q, locationCues, locationCuesZH); ok {
		return Intent{Kind: IntentLocation, Depth: 0, MatchedPattern: cue}
	}
	if cue, ok := match(q, implementationCues, implementationCuesZH); ok {
		return Intent{Kind: IntentImplementation, Depth: 2, MatchedPattern: cue}
	}
	return Intent{Kind: IntentImplementation, Depth: 1}
}

func match(q string, res []*regexp.Regexp, zh []string) (string, bool) {
	for _, re := range res {
		if m := re.FindString(q); m != "" {
			return m, true
		}
	}
	for _, w := range zh {
		if strings.Contains(q, w) {
			return w, true
		}
	}
	return "", false
}
