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
