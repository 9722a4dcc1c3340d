package query

import "strings"

// stopEN are English question and filler words dropped from queries. The
// list is short on purpose: words that mean something in code (get, set,
// new, use, list, map, type, ...) are kept. "code", "function", "method",
// "class", "file" and "implement*" are dropped because in a question about a
// code base they describe the answer rather than narrow it down.
var stopEN = setOf(`
	how where what which when who whom why whose
	does do did doing done is are was were be been being am
	the a an of to in on for with by from at as into onto about via
	and or not nor but if then than so
	that this these those there here it its they them their we our us you your me my i
	can could should would will shall may might must
	code codes function functions method methods class classes file files
	implemented implement implements implementation implementations
	find show please
	any some all each every
	doesn don didn isn aren wasn weren hasn haven won shouldn couldn wouldn
	e.g i.e etc
`)

// stopZH are Chinese question and filler words dropped from queries. A
// segmented word made up only of stop words ("哪些地方", "怎么实现") is
// dropped too. 处理 is deliberately not here: it is often the point of the
// question and the lexicon maps it to handle/process.
var stopZH = setOf(`
	怎么 怎样 怎么样 如何 什么 什么样 为什么 哪些 哪个 哪 哪儿 在哪 哪里 这里 那里
	一下 实现 的是 一个 可以 代码 逻辑 地方 所有 进行 相关 是否 有没有 有 没有
	这个 那个 这些 那些 这 那 我 我们 你 你们 他 它 请 帮 帮我 找 找到 看 看看 一些 其中
	函数 方法 具体 部分 以及 还是 或者 如果 需要 应该 用 使用 通过 对 给 从 到 及 等
	的 地 得 了 着 过 是 在 和 与 或 吗 呢 吧 啊 把 被 会 要 能 时 时候 里 中 上 下 就 都 也 还 又
`)

func setOf(words string) map[string]bool {
	m := make(map[string]bool)
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// isStopZH reports whether w is a Chinese stop word, or a concatenation of
// stop words that is not a lexicon key (对等 is 对+等 but means "peer").
func isStopZH(w string) bool {
	if stopZH[w] {
		return true
	}
	loadTables()
	if _, ok := lexicon.m[w]; ok {
		return false
	}
	rs := []rune(w)
	if len(rs) > 8 {
		return false
	}
	// ok[i]: rs[:i] splits into stop words.
	var ok [9]bool
	ok[0] = true
	for i := 1; i <= len(rs); i++ {
		for j := 0; j < i && !ok[i]; j++ {
			ok[i] = ok[j] && stopZH[string(rs[j:i])]
		}
	}
	return ok[len(rs)]
}

type variant struct {
	text   string
	weight float64
}

// variants returns extra lower-weight forms of a lower-case word: the base
// form of an irregular past (irregularEN: sent → send) and, for other ASCII
// words of 4+ letters, the singular of a plural (WeightPlural) and the stem
// of an -ing/-ed form (WeightInflect), every such variant of 3+ letters;
// see ParseWith for the rules.
func variants(w string) []variant {
	if base, ok := irregularEN[w]; ok {
		return []variant{{base, WeightInflect}}
	}
	if len(w) < 4 {
		return nil
	}
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return nil
		}
	}
	var out []variant
	add := func(s string, wt float64) {
		if len(s) < 3 || s == w {
			return
		}
		for _, v := range out {
			if v.text == s {
				return
			}
		}
		out = append(out, variant{s, wt})
	}
	n := len(w)
	switch {
	case strings.HasSuffix(w, "ies"):
		add(w[:n-3]+"y", WeightPlural) // queries → query
		add(w[:n-1], WeightPlural)     // cookies → cookie
	case strings.HasSuffix(w, "es"):
		add(w[:n-1], WeightPlural) // types → type
		if strings.ContainsRune("sxzho", rune(w[n-3])) {
			add(w[:n-2], WeightPlural) // classes → class, matches → match
		}
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") &&
		!strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		add(w[:n-1], WeightPlural) // redirects → redirect
	case strings.HasSuffix(w, "ied"):
		add(w[:n-3]+"y", WeightInflect) // copied → copy
	case strings.HasSuffix(w, "ing"):
		stem(w[:n-3], add)
	case strings.HasSuffix(w, "ed"):
		stem(w[:n-2], add)
	}
	return out
}

// stem adds the candidates for the stem of an -ing/-ed word.
func stem(s string, add func(string, float64)) {
	if len(s) < 3 {
		return
	}
	add(s, WeightInflect)     // loading → load
	add(s+"e", WeightInflect) // closed → close, parsing → parse
	if n := len(s); s[n-1] == s[n-2] && !strings.ContainsRune("aeiou", rune(s[n-1])) {
		add(s[:n-1], WeightInflect) // mapping → map
	}
}

// irregularEN maps irregular past tenses and past participles of English
// verbs to their base form, which is how code names the action (written →
// write, sent → send, thrown → throw). Forms that are also common words of
// another meaning (left, lay, saw, felt, wound, rose, ground, shot) are
// left out.
var irregularEN = func() map[string]string {
	m := map[string]string{}
	for _, line := range strings.Split(`
		write wrote written
		choose chose chosen
		send sent
		build built
		rebuild rebuilt
		keep kept
		hold held
		find found
		throw threw thrown
		begin began begun
		break broke broken
		bring brought
		catch caught
		deal dealt
		draw drew drawn
		drive drove driven
		feed fed
		fall fell fallen
		forget forgot forgotten
		freeze froze frozen
		give gave given
		grow grew grown
		hide hid hidden
		hang hung
		know knew known
		lend lent
		lose lost
		make made
		mean meant
		meet met
		pay paid
		run ran
		rewrite rewrote rewritten
		overwrite overwrote overwritten
		override overrode overridden
		say said
		see seen
		seek sought
		sell sold
		show shown
		sleep slept
		spend spent
		spin spun
		stand stood
		stick stuck
		strike struck
		sweep swept
		take took taken
		tell told
		think thought
		understand understood
		undo undid undone
		wake woke woken
		fly flew flown
		forbid forbade forbidden
		prove proven
		shake shook shaken
		shrink shrank shrunk
		slide slid
		tear tore torn
		weave wove woven
		bind bound
		lead led
		arise arose arisen
		get got gotten
	`, "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		for _, form := range f[1:] {
			m[form] = f[0]
		}
	}
	return m
}()
