//go:build race

package main

// raceEnabled is true under the race detector, which slows evaluation
// about tenfold; the 200-file acceptance suite then runs on fewer files.
const raceEnabled = true
