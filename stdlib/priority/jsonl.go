package priority

import (
	"encoding/json"
	"unicode/utf8"
)

// AppendJSONL appends to dst the JSON object line with the members
// "class":class and "rule":rule added before its closing brace, and returns
// the extended buffer; it appends no newline. line must be a JSON object
// such as a line StreamReader accepted (any bytes after the closing brace,
// such as whitespace, are kept); a line not ending in '}' (after trailing
// whitespace) is appended unchanged. class and rule are escaped as JSON
// strings. For printable-ASCII class and rule names it does not allocate
// beyond growing dst.
func AppendJSONL(dst []byte, line []byte, class Class, rule string) []byte {
	end := len(line) - 1
	for end >= 0 && isSpace(line[end]) {
		end--
	}
	if end < 0 || line[end] != '}' {
		return append(dst, line...)
	}
	prev := end - 1
	for prev >= 0 && isSpace(line[prev]) {
		prev--
	}
	dst = append(dst, line[:end]...)
	if prev >= 0 && line[prev] != '{' {
		dst = append(dst, ',')
	}
	dst = append(dst, `"class":`...)
	dst = appendJSONString(dst, string(class))
	dst = append(dst, `,"rule":`...)
	dst = appendJSONString(dst, rule)
	return append(dst, line[end:]...)
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// appendJSONString appends s as a JSON string, escaped as encoding/json
// escapes it.
func appendJSONString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' || c >= utf8.RuneSelf {
			b, _ := json.Marshal(s) // rare: let encoding/json do the escaping
			return append(dst, b...)
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}
