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
//
// A writer that adds the same few members to many lines does better to
// encode them once with AppendJSONMembers and use AppendWithMembers.
func AppendJSONL(dst []byte, line []byte, class Class, rule string) []byte {
	var members [64]byte
	return AppendWithMembers(dst, line, AppendJSONMembers(members[:0], "class", string(class), "rule", rule))
}

// AppendJSONMembers appends to dst the JSON object members "k1":"v1",
// "k2":"v2", … for the key and value pairs in kv, escaped as JSON strings
// and separated by commas, with no surrounding braces; it panics if kv
// has an odd length.
func AppendJSONMembers(dst []byte, kv ...string) []byte {
	if len(kv)%2 != 0 {
		panic("priority.AppendJSONMembers: odd number of arguments")
	}
	for i := 0; i < len(kv); i += 2 {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendJSONString(dst, kv[i])
		dst = append(dst, ':')
		dst = appendJSONString(dst, kv[i+1])
	}
	return dst
}

// AppendWithMembers appends to dst the JSON object line with members,
// already encoded JSON object members such as AppendJSONMembers gives,
// inserted before its closing brace (after a comma unless the object is
// empty), and returns the extended buffer; it appends no newline. line
// must be a JSON object such as a line StreamReader accepted (any bytes
// after the closing brace, such as whitespace, are kept); a line not ending
// in '}' (after trailing whitespace) is appended unchanged. It does not
// allocate beyond growing dst.
func AppendWithMembers(dst, line, members []byte) []byte {
	if n := len(line); n >= 2 && line[n-1] == '}' && len(members) > 0 {
		if p := line[n-2]; p != '{' && !isSpace(p) {
			// The usual line, members before a closing brace that ends
			// it: two copies and two bytes, none of the scans below.
			dst = append(dst, line[:n-1]...)
			dst = append(dst, ',')
			dst = append(dst, members...)
			return append(dst, '}')
		}
	}
	return appendMembersScanned(dst, line, members)
}

// appendMembersScanned is AppendWithMembers for any line: it finds the
// closing brace and the byte before it past any whitespace.
func appendMembersScanned(dst, line, members []byte) []byte {
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
	if prev >= 0 && line[prev] != '{' && len(members) > 0 {
		dst = append(dst, ',')
	}
	dst = append(dst, members...)
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
