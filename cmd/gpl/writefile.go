package main

import "github.com/gpl-lang/gpl/cmd/gpl/internal/safeio"

// writeFileAtomic replaces the contents of a file the user wrote — a .gpl
// source, a .golden file, the REPL's :save destination — with data. It is
// safeio.RewriteSource: a reader sees the old contents or the new, never a
// mix; a path that is not a regular file, or a read-only file, is refused
// and left as it was; the file keeps its mode, owner and hard links; a
// symbolic link is followed and stays a link; a new file gets 0644. gpl
// fmt -w, gpl test -update, the REPL's :save and its history write
// through it.
func writeFileAtomic(path string, data []byte) error {
	return safeio.RewriteSource(path, data)
}

// writeReportFile writes a report gpl generated (the JUnit report of gpl
// test --junit) to path. It is safeio.WriteReport: /dev/stdout, a named
// pipe or a device is written directly, never renamed over; a regular
// file is replaced as writeFileAtomic replaces one.
func writeReportFile(path string, data []byte) error {
	return safeio.WriteReport(path, data)
}
