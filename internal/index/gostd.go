package index

// goStdInterfaces are the method sets of standard-library interfaces that
// project interfaces and structs often embed (type Transport interface {
// Read(…); io.Closer }, type conn struct{ net.Conn }), keyed by the
// reference a type fact writes for them ("PATH#T", "!error"), with
// signatures in the notation of type facts (types of other packages as
// "PATH#T"). They are used only when that package is not part of the
// project (indexing $GOROOT/src reads io from its source). They are facts
// of the Go language's standard library, like the Python builtins of
// internal/lang, and name nothing of any project.
var goStdInterfaces = map[string]map[string]string{
	"!error":          {"Error": "()(string)"},
	"io#Reader":       {"Read": "([]byte)(int,error)"},
	"io#Writer":       {"Write": "([]byte)(int,error)"},
	"io#Closer":       {"Close": "()(error)"},
	"io#Seeker":       {"Seek": "(int64,int)(int64,error)"},
	"io#ReaderAt":     {"ReadAt": "([]byte,int64)(int,error)"},
	"io#WriterAt":     {"WriteAt": "([]byte,int64)(int,error)"},
	"io#ReaderFrom":   {"ReadFrom": "(io#Reader)(int64,error)"},
	"io#WriterTo":     {"WriteTo": "(io#Writer)(int64,error)"},
	"io#ByteReader":   {"ReadByte": "()(byte,error)"},
	"io#ByteWriter":   {"WriteByte": "(byte)(error)"},
	"io#ByteScanner":  {"ReadByte": "()(byte,error)", "UnreadByte": "()(error)"},
	"io#RuneReader":   {"ReadRune": "()(rune,int,error)"},
	"io#RuneScanner":  {"ReadRune": "()(rune,int,error)", "UnreadRune": "()(error)"},
	"io#StringWriter": {"WriteString": "(string)(int,error)"},
	"io#ReadCloser":   {"Read": "([]byte)(int,error)", "Close": "()(error)"},
	"io#WriteCloser":  {"Write": "([]byte)(int,error)", "Close": "()(error)"},
	"io#ReadWriter":   {"Read": "([]byte)(int,error)", "Write": "([]byte)(int,error)"},
	"io#ReadSeeker":   {"Read": "([]byte)(int,error)", "Seek": "(int64,int)(int64,error)"},
	"io#WriteSeeker":  {"Write": "([]byte)(int,error)", "Seek": "(int64,int)(int64,error)"},
	"io#ReadWriteCloser": {"Read": "([]byte)(int,error)", "Write": "([]byte)(int,error)",
		"Close": "()(error)"},
	"io#ReadSeekCloser": {"Read": "([]byte)(int,error)", "Seek": "(int64,int)(int64,error)",
		"Close": "()(error)"},
	"io#ReadWriteSeeker": {"Read": "([]byte)(int,error)", "Write": "([]byte)(int,error)",
		"Seek": "(int64,int)(int64,error)"},
	"fmt#Stringer":               {"String": "()(string)"},
	"fmt#GoStringer":             {"GoString": "()(string)"},
	"sort#Interface":             {"Len": "()(int)", "Less": "(int,int)(bool)", "Swap": "(int,int)"},
	"encoding#TextMarshaler":     {"MarshalText": "()([]byte,error)"},
	"encoding#TextUnmarshaler":   {"UnmarshalText": "([]byte)(error)"},
	"encoding#BinaryMarshaler":   {"MarshalBinary": "()([]byte,error)"},
	"encoding#BinaryUnmarshaler": {"UnmarshalBinary": "([]byte)(error)"},
	"encoding/json#Marshaler":    {"MarshalJSON": "()([]byte,error)"},
	"encoding/json#Unmarshaler":  {"UnmarshalJSON": "([]byte)(error)"},
	"flag#Value":                 {"String": "()(string)", "Set": "(string)(error)"},
	"net/http#Handler":           {"ServeHTTP": "(net/http#ResponseWriter,*net/http#Request)"},
	"net/http#RoundTripper":      {"RoundTrip": "(*net/http#Request)(*net/http#Response,error)"},
	"net/http#Flusher":           {"Flush": "()"},
	"context#Context": {"Deadline": "()(time#Time,bool)", "Done": "()(<-chan struct{})",
		"Err": "()(error)", "Value": "(any)(any)"},
	"net#Conn": {"Read": "([]byte)(int,error)", "Write": "([]byte)(int,error)", "Close": "()(error)",
		"LocalAddr": "()(net#Addr)", "RemoteAddr": "()(net#Addr)", "SetDeadline": "(time#Time)(error)",
		"SetReadDeadline": "(time#Time)(error)", "SetWriteDeadline": "(time#Time)(error)"},
	"net#Addr": {"Network": "()(string)", "String": "()(string)"},
	"hash#Hash": {"Write": "([]byte)(int,error)", "Sum": "([]byte)([]byte)", "Reset": "()",
		"Size": "()(int)", "BlockSize": "()(int)"},
}

// goStdTypes are the method sets (pointer receivers included) of
// standard-library concrete types that project structs often embed
// (type lockedBuffer struct{ sync.Mutex; bytes.Buffer }, type bufWriter
// struct{ *bufio.Writer }), in the notation of goStdInterfaces: the
// embedding type's method set has them (concrete in resolve_go.go).
var goStdTypes = map[string]map[string]string{
	"bytes#Buffer": {"Available": "()(int)", "AvailableBuffer": "()([]byte)", "Bytes": "()([]byte)", "Cap": "()(int)",
		"Grow": "(int)", "Len": "()(int)", "Next": "(int)([]byte)", "Read": "([]byte)(int,error)",
		"ReadByte": "()(byte,error)", "ReadBytes": "(byte)([]byte,error)", "ReadFrom": "(io#Reader)(int64,error)",
		"ReadRune": "()(rune,int,error)", "ReadString": "(byte)(string,error)", "Reset": "()", "String": "()(string)",
		"Truncate": "(int)", "UnreadByte": "()(error)", "UnreadRune": "()(error)", "Write": "([]byte)(int,error)",
		"WriteByte": "(byte)(error)", "WriteRune": "(rune)(int,error)", "WriteString": "(string)(int,error)",
		"WriteTo": "(io#Writer)(int64,error)"},
	"bufio#Writer": {"Available": "()(int)", "AvailableBuffer": "()([]byte)", "Buffered": "()(int)", "Flush": "()(error)",
		"ReadFrom": "(io#Reader)(int64,error)", "Reset": "(io#Writer)", "Size": "()(int)", "Write": "([]byte)(int,error)",
		"WriteByte": "(byte)(error)", "WriteRune": "(rune)(int,error)", "WriteString": "(string)(int,error)"},
	"bufio#Reader": {"Buffered": "()(int)", "Discard": "(int)(int,error)", "Peek": "(int)([]byte,error)",
		"Read": "([]byte)(int,error)", "ReadByte": "()(byte,error)", "ReadBytes": "(byte)([]byte,error)",
		"ReadLine": "()([]byte,bool,error)", "ReadRune": "()(rune,int,error)", "ReadSlice": "(byte)([]byte,error)",
		"ReadString": "(byte)(string,error)", "Reset": "(io#Reader)", "Size": "()(int)", "UnreadByte": "()(error)",
		"UnreadRune": "()(error)", "WriteTo": "(io#Writer)(int64,error)"},
	"strings#Builder": {"Cap": "()(int)", "Grow": "(int)", "Len": "()(int)", "Reset": "()", "String": "()(string)",
		"Write": "([]byte)(int,error)", "WriteByte": "(byte)(error)", "WriteRune": "(rune)(int,error)",
		"WriteString": "(string)(int,error)"},
	"strings#Reader": {"Len": "()(int)", "Read": "([]byte)(int,error)", "ReadAt": "([]byte,int64)(int,error)",
		"ReadByte": "()(byte,error)", "ReadRune": "()(rune,int,error)", "Reset": "(string)",
		"Seek": "(int64,int)(int64,error)", "Size": "()(int64)", "UnreadByte": "()(error)", "UnreadRune": "()(error)",
		"WriteTo": "(io#Writer)(int64,error)"},
	"sync#Mutex": {"Lock": "()", "TryLock": "()(bool)", "Unlock": "()"},
	"sync#RWMutex": {"Lock": "()", "RLock": "()", "RLocker": "()(sync#Locker)", "RUnlock": "()", "TryLock": "()(bool)",
		"TryRLock": "()(bool)", "Unlock": "()"},
}
