package assemble

import (
	"regexp"
	"strings"
	"sync"
)

// Intent kinds.
const (
	IntentImplementation = "implementation" // how is X done: follow callees two hops
	IntentUsage          = "usage"          // who calls / uses X: one hop, callers first
	IntentLocation       = "location"       // where is X defined / configured: the definition itself
	IntentImpact         = "impact"         // what breaks if X changes: callers transitively, implementers
	IntentChange         = "change"         // a bug report or feature request: the places a change touches
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
	usageCues = sync.OnceValue(func() []*regexp.Regexp {
		return []*regexp.Regexp{
			regexp.MustCompile(`\bwho (calls|uses|invokes)\b`),
			regexp.MustCompile(`\bcall(er|ers|ed|s)? (of|to)\b`),
			regexp.MustCompile(`\bcallers?\b`),
			regexp.MustCompile(`\busages?\b|\bused (by|in|from)\b|\bused\s*\??$`),
			regexp.MustCompile(`\bwhere (is|are|does|do)\b(\s+\S+){0,5}\s+(call|calls|called|invoke|invoked|use|applied)\b`),
			regexp.MustCompile(`\bwhich (code|functions?|methods?|places?)\b.*\bcall`),
		}
	})
	impactCues = sync.OnceValue(func() []*regexp.Regexp {
		return []*regexp.Regexp{
			regexp.MustCompile(`\bwhat (would |will |could )?(break|breaks|be affected|is affected|depends on)\b`),
			regexp.MustCompile(`\b(impact|blast radius|ripple)\b.*\b(change|changing|modify|modifying|remove|removing|rename|renaming)\b`),
			regexp.MustCompile(`\bif (i|we) (change|modify|remove|rename|delete)\b`),
			regexp.MustCompile(`\baffected by (a |the )?(change|changing)\b`),
		}
	})
	impactCuesZH = sync.OnceValue(func() []*regexp.Regexp {
		return []*regexp.Regexp{
			regexp.MustCompile(`(改动|修改|改了|删除|重命名).{0,30}(影响|会坏|受影响)`),
			regexp.MustCompile(`影响(范围|面)`),
		}
	})
	usageCuesZH = sync.OnceValue(func() []*regexp.Regexp {
		return []*regexp.Regexp{
			regexp.MustCompile(`(谁|哪里|哪儿|在哪|哪些地方|什么地方).{0,6}(调用|用到|使用)`),
			regexp.MustCompile(`被.{0,4}(调用|用到|使用)`),
		}
	})

	locationCues = sync.OnceValue(func() []*regexp.Regexp {
		return []*regexp.Regexp{
			regexp.MustCompile(`\b(defined|declared|definition|declaration)\b`),
			regexp.MustCompile(`\b(config|configuration|configured|settings|constant|default value)\b`),
			regexp.MustCompile(`\bentry ?point\b`),
			regexp.MustCompile(`\bwhere (is|are|does|do)\b.*\b(come from|generated|produced|raised|thrown|parsed|created|set)\b`),
			regexp.MustCompile(`\bwhich (file|function|class|method)\b`),
		}
	})
	locationCuesZH = sync.OnceValue(func() []*regexp.Regexp {
		return []*regexp.Regexp{
			regexp.MustCompile(`(定义|声明)在哪|(哪里|在哪).*(定义|声明)`),
			regexp.MustCompile(`配置|入口|哪个文件`),
		}
	})

	implementationCues = sync.OnceValue(func() []*regexp.Regexp {
		return []*regexp.Regexp{
			regexp.MustCompile(`\bhow (is|are|does|do|did|can|to)\b`),
			regexp.MustCompile(`\bimplement(ed|s|ation)?\b`),
			regexp.MustCompile(`\b(logic|algorithm|mechanism)\b`),
			regexp.MustCompile(`\bwhy\b`),
		}
	})
	implementationCuesZH = sync.OnceValue(func() []*regexp.Regexp {
		return []*regexp.Regexp{
			regexp.MustCompile(`怎么|怎样|如何|实现|逻辑|原理|流程|机制|为什么`),
		}
	})
)

// questionRE tells a question from a statement: a question mark, an
// interrogative word opening the text or a clause, or a Chinese question
// word or particle.
var questionRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`[?？]|(?:^|[,;]\s*)(?:who|whom|whose|what|where|which|how|why|when|is|are|does|can)\b|吗|呢|谁|哪|什么|怎么|怎样|如何|为什么|是否`)
})

// IsQuestion says whether a text is phrased as a question rather than as a
// statement (a commit subject, a task title, a bug report's summary).
func IsQuestion(q string) bool {
	return questionRE().MatchString(strings.ToLower(strings.TrimSpace(quoted().ReplaceAllString(q, `""`))))
}

// ChangeIntent is the intent of a change request (a bug report, a feature
// request, a commit-style task): the places a change touches, two hops.
// A cue word does not override it unless the text is phrased as a
// question: "calls of", "constant" or "configuration" in a statement name
// what is to change, they do not ask who calls it or where it is defined.
func ChangeIntent(query string) Intent {
	in := Classify(query)
	if in.MatchedPattern == "" || !IsQuestion(query) {
		return Intent{Kind: IntentChange, Depth: 2}
	}
	return in
}

// quoted matches quoted text (an error message, a literal): its words are
// not the question's.
var quoted = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("\"[^\"]*\"|“[^”]*”|`[^`]*`|'[^']{3,}'") })

// Classify reads a question and returns its intent with the expansion
// depth to use: impact 2 (callers favoured), implementation 2, usage 1
// (callers favoured), location 0. Change requests are told by the search
// (ContextOptions.ChangeRequest), not by cues here.
// A question that matches no cue is treated as implementation, depth 2 as
// well: a bare description of behaviour ("token budget packing") asks what
// the code doing it is made of as much as "how is … done" does.
func Classify(query string) Intent {
	q := strings.ToLower(strings.Join(strings.Fields(quoted().ReplaceAllString(query, `""`)), " "))
	if cue, ok := match(q, impactCues(), impactCuesZH()); ok {
		return Intent{Kind: IntentImpact, Depth: 2, FavourCallers: true, MatchedPattern: cue}
	}
	if cue, ok := match(q, usageCues(), usageCuesZH()); ok {
		return Intent{Kind: IntentUsage, Depth: 1, FavourCallers: true, MatchedPattern: cue}
	}
	if cue, ok := match(q, locationCues(), locationCuesZH()); ok {
		return Intent{Kind: IntentLocation, Depth: 0, MatchedPattern: cue}
	}
	if cue, ok := match(q, implementationCues(), implementationCuesZH()); ok {
		return Intent{Kind: IntentImplementation, Depth: 2, MatchedPattern: cue}
	}
	return Intent{Kind: IntentImplementation, Depth: 2}
}

func match(q string, lists ...[]*regexp.Regexp) (string, bool) {
	for _, res := range lists {
		for _, re := range res {
			if m := re.FindString(q); m != "" {
				return m, true
			}
		}
	}
	return "", false
}

// literalRE matches a literal a question quotes: "…", “…”, `…` or '…'
// where the opening single quote follows a space, a bracket or the
// text's start and the closing one precedes a space, punctuation or the
// end, so the apostrophes of "a type's … the server's" are
// not taken for quotes.
var literalRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("\"([^\"]+)\"|“([^”]+)”|`([^`]+)`|(?:^|[\\s(\\[:,])'([^'\\s][^']*)'(?:$|[\\s)\\].,;:?!])")
})

// minLiteral is the fewest characters a quoted literal needs to be looked
// up verbatim (shorter ones such as '=' match everywhere).
const minLiteral = 4

// QuotedLiterals returns the literals a question quotes (an error message,
// a string the code writes), at least minLiteral characters each, in
// order and without repeats: text to look up verbatim in the code.
func QuotedLiterals(q string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range literalRE().FindAllStringSubmatch(q, -1) {
		for _, s := range m[1:] {
			if len([]rune(strings.TrimSpace(s))) >= minLiteral && !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out
}
