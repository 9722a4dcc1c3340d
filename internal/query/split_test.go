package query

import (
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"testing"
	"unicode/utf8"
)

func TestSplitIdentifier(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"compressIfNeeded", []string{"compress", "if", "needed"}},
		{"user_id", []string{"user", "id"}},
		{"HTTPServer2Go", []string{"http", "server", "2", "go"}},
		{"MemoryManager.compress", []string{"memory", "manager", "compress"}},
		{"spring.datasource.url", []string{"spring", "datasource", "url"}},
		{"$el", []string{"el"}},
		{"__init__", []string{"init"}},
		{"kebab-case-name", []string{"kebab", "case", "name"}},
		{"XMLHttpRequest", []string{"xml", "http", "request"}},
		{"getURLs", []string{"get", "urls"}},
		{"userIDs", []string{"user", "ids"}},
		{"parseJSONBody", []string{"parse", "json", "body"}},
		{"utf8", []string{"utf", "8"}},
		{"int64Value", []string{"int", "64", "value"}},
		{"ALL_CAPS", []string{"all", "caps"}},
		{"already", []string{"already"}},
		{"ÉcoleNormale", []string{"école", "normale"}},
		{"", nil},
		{"_$.-", nil},
	}
	for _, tt := range tests {
		if got := SplitIdentifier(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("SplitIdentifier(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestHasCJK(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"", false},
		{"plain ascii", false},
		{"café ünïcode", false},
		{"カタカナ", false},
		{"登录", true},
		{"retry 重试", true},
		{"\xff\xfe", false},
	}
	for _, tt := range tests {
		if got := HasCJK(tt.in); got != tt.want {
			t.Errorf("HasCJK(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestIndexText(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"plain words", "Hello World", "hello world"},
		{"camel", "func compressIfNeeded(buf []byte)", "func compressifneeded compress if needed buf byte"},
		{"snake", "user_id = 1", "user_id user id 1"},
		{"dotted", "MemoryManager.compress(x)", "memorymanager.compress memorymanager memory manager compress x"},
		{"dotted components", "self.user_id", "self.user_id user_id self user id"},
		{"config key", "spring.datasource.url=jdbc", "spring.datasource.url spring datasource url jdbc"},
		{"dollar", "this.$el", "this.$el $el this el"},
		{"trailing dot and dash", "done. -flag x-", "done flag x"},
		{"acronym", "HTTPServer2Go", "httpserver2go http server 2 go"},
		{"repeats kept", "retry retry", "retry retry"},
		{"only punctuation", "{}();, __ $", ""},
		{"chinese", "// 处理登录超时", "处理 登录 超时"},
		{"mixed", "重试retryCount次", "重试 retrycount retry count 次"},
		{"invalid utf8", "ab\xffcd \xc3 ef", "ab cd ef"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := IndexText(tt.in)
			if got != tt.want {
				t.Errorf("IndexText(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if !utf8.ValidString(got) {
				t.Errorf("IndexText(%q) is not valid UTF-8", tt.in)
			}
		})
	}
}

func TestIndexTextCJKSegmentOff(t *testing.T) {
	for in, want := range map[string]string{
		"// 处理登录超时":     "处理登录超时",
		"重试retryCount次": "重试 retrycount retry count 次",
		"plain words":   "plain words",
	} {
		if got := IndexTextWith(in, IndexOptions{WholeCJK: true}); got != want {
			t.Errorf("IndexText(%q) with segmentation off = %q, want %q", in, got, want)
		}
	}
}

// TestDictOnlyForChinese checks, in a fresh process (the dictionary view is
// per-process), that IndexText and Parse do not open the Chinese dictionary
// for text without Han characters, and that they do once Han characters
// show up.
func TestDictOnlyForChinese(t *testing.T) {
	if os.Getenv("QUERY_ZH_CHILD") == "1" {
		IndexText(benchCode + " café \xff")
		Parse("how does MemoryManager.compress handle user_id?")
		if segLoaded.Load() {
			fmt.Println("FAIL: dictionary opened for non-Chinese text")
			os.Exit(1)
		}
		IndexText("// 重试")
		if !segLoaded.Load() {
			fmt.Println("FAIL: dictionary not opened for Chinese text")
			os.Exit(1)
		}
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestDictOnlyForChinese$")
	cmd.Env = append(os.Environ(), "QUERY_ZH_CHILD=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
}

func TestSegment(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"处理登录超时的地方", []string{"处理", "登录", "超时", "的", "地方"}},
		{"日志轮转", []string{"日志", "轮转"}},
		{"循环是怎么实现的", []string{"循环", "是", "怎么", "实现", "的"}},
		// Callers pass runs of Han characters; anything else is cut into
		// runs of letters and digits.
		{"登录abc 超时, Retry2次\xff", []string{"登录", "abc", "超时", "retry2", "次"}},
	}
	for _, tt := range tests {
		if got := Segment(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Segment(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSegmentConcurrent(t *testing.T) {
	done := make(chan []string)
	for range 4 {
		go func() { done <- Segment("连接池空闲连接超时") }()
	}
	want := []string{"连接池", "空闲", "连接", "超时"}
	for range 4 {
		if got := <-done; !reflect.DeepEqual(got, want) {
			t.Errorf("Segment = %q, want %q", got, want)
		}
	}
}

func TestFallbackSegment(t *testing.T) {
	got := fallbackSegment("登录abc 超时")
	want := []string{"登", "录", "abc", "超", "时"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("fallbackSegment = %q, want %q", got, want)
	}
}

// benchCode is ~1000 bytes of typical ASCII source code.
const benchCode = `// compressIfNeeded compresses the message history when it grows past the
// configured token budget. It keeps the system prompt and the last N turns.
func (m *MemoryManager) compressIfNeeded(ctx context.Context, msgs []Message) ([]Message, error) {
	if len(msgs) <= m.cfg.KeepLast || m.tokenCount(msgs) < m.cfg.MaxTokens {
		return msgs, nil
	}
	head, tail := msgs[:1], msgs[len(msgs)-m.cfg.KeepLast:]
	summary, err := m.summarizer.Summarize(ctx, msgs[1:len(msgs)-m.cfg.KeepLast])
	if err != nil {
		return nil, fmt.Errorf("compress history: %w", err)
	}
	out := make([]Message, 0, len(tail)+2)
	out = append(out, head...)
	out = append(out, Message{Role: RoleSystem, Content: "Summary: " + summary})
	out = append(out, tail...)
	m.metrics.CompressedTotal.Inc()
	log.Printf("memory: compressed %d messages into %d (user_id=%s)", len(msgs), len(out), m.userID)
	return out, nil
}
`

func BenchmarkIndexText(b *testing.B) {
	b.SetBytes(int64(len(benchCode)))
	b.ReportAllocs()
	for b.Loop() {
		IndexText(benchCode)
	}
}

func BenchmarkSplitIdentifier(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		SplitIdentifier("MemoryManager.compressIfNeeded")
	}
}

// benchMixed is Go code with Chinese comments.
const benchMixed = `// compressIfNeeded 在消息历史超过配置的令牌预算时压缩历史，保留系统提示词和最后 N 轮对话。
// 压缩失败时返回错误，调用方负责重试；日志按天轮转。
func (m *MemoryManager) compressIfNeeded(ctx context.Context, msgs []Message) ([]Message, error) {
	if len(msgs) <= m.cfg.KeepLast { // 不需要压缩
		return msgs, nil
	}
	summary, err := m.summarizer.Summarize(ctx, msgs) // 调用大模型生成摘要
	if err != nil {
		return nil, fmt.Errorf("压缩历史失败: %w", err)
	}
	return append([]Message{{Role: RoleSystem, Content: summary}}, msgs[len(msgs)-m.cfg.KeepLast:]...), nil
}
`

func BenchmarkIndexTextMixedCJK(b *testing.B) {
	Segment("预热") // load the dictionary outside the timing
	b.SetBytes(int64(len(benchMixed)))
	b.ReportAllocs()
	for b.Loop() {
		IndexText(benchMixed)
	}
}
