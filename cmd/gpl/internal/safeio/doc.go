// Package safeio writes gpl's files and output streams so that nothing the
// user owns is clobbered and no write error goes unnoticed.
//
// There are two kinds of destination, and each has its own function:
//
//   - [RewriteSource] replaces a file the user wrote by hand: a .gpl source
//     (gpl fmt -w, gpl test -update, the REPL's :save) or a .golden file. It
//     refuses anything that is not a regular file (a directory, a named
//     pipe, a device, a socket) and a file that is read-only — no write
//     permission bit for the user, checked from the mode bits themselves,
//     because root passes every permission check and a chmod a-w is how a
//     user says "leave this alone". A missing file is created with mode
//     0644.
//   - [WriteReport] writes something gpl generates (the JUnit report of
//     gpl test --junit, and like reports). A destination that is not a
//     regular file — /dev/stdout, /dev/fd/N, a named pipe, a character
//     device such as /dev/null — is opened and written directly, never
//     renamed over, so /dev/null stays a device and a report sent to
//     /dev/stdout lands between what the shell wrote before and after it.
//     A regular file is replaced as RewriteSource replaces one.
//
// A symbolic link is followed: its target is what changes, and the link
// stays a link (a dangling link's target is created).
//
// # How a regular file is replaced
//
// The new text is first written in full to a temporary file in the same
// directory, synced to disk, with the original's mode (and, where the
// process may set it, owner and group). Then:
//
//   - when the file has one name and its owner could be kept, the copy is
//     renamed over it. A rename is atomic, so a reader, or a crash at any
//     moment, sees the old text or the new, never a mix and never a
//     truncated file;
//   - when the file has several names (hard links), or its owner could not
//     be given to the copy (a group-writable file of another user), a
//     rename would split the links or change the owner. The text is then
//     copied into the original in place — the same inode, so every name,
//     the owner, the mode and any ACL stay as they were — and synced; only
//     then is the temporary copy removed. The in-place copy is not atomic:
//     a crash in that short window leaves the complete new text in the
//     temporary file beside the original (".NAME.*.gpl-new"), from which it
//     can be recovered. Refusing hard-linked files would have been the
//     other choice; it would make gpl fmt -w unusable in trees that share
//     files by hard link (some package stores and backup schemes do), and
//     the temporary copy closes most of the risk.
//
// On any failure before the original is touched, the temporary file is
// removed and the original is left exactly as it was.
//
// # Streams
//
// [Writer] wraps standard output or standard error and remembers the
// first write error, so that a verb's many unchecked prints are checked
// once, at exit: gpl fmt a.gpl > /dev/full fails instead of exiting 0.
package safeio
