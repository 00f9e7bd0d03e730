package lang

// EditDistance is the Levenshtein distance between a and b, in runes, with a transposition of two
// neighbours counted as one edit.
func EditDistance(a, b string) int {
	if isASCII(a) && isASCII(b) && len(b) < smallRow {
		// Names are short and ASCII: bytes are runes, and the rows fit
		// on the stack.
		var rows [3][smallRow]int
		return editDistance([]byte(a), []byte(b), rows[0][:len(b)+1], rows[1][:len(b)+1], rows[2][:len(b)+1])
	}
	ra, rb := []rune(a), []rune(b)
	return editDistance(ra, rb, make([]int, len(rb)+1), make([]int, len(rb)+1), make([]int, len(rb)+1))
}

// smallRow bounds the strings EditDistance measures without allocating.
const smallRow = 64

func editDistance[T byte | rune](ra, rb []T, prev2, prev, cur []int) int {
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
