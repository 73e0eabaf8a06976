package config

import "strings"

// suggest returns the candidate closest to word by edit distance, or "" if
// none is close enough (case is ignored) to be a likely typo (at most a third of the word's
// length, and at least one edit, is allowed). Ties go to the longer common
// prefix: SGL011 suggests SGL010 before SGL001.
func suggest(word string, candidates []string) string {
	best, bestDist, bestPrefix := "", 0, 0
	limit := max(1, len([]rune(word))/3)
	lw := strings.ToLower(word)
	for _, c := range candidates {
		lc := strings.ToLower(c)
		d, p := levenshtein(lw, lc), commonPrefix(lw, lc)
		if d <= limit && (best == "" || d < bestDist || d == bestDist && p > bestPrefix) {
			best, bestDist, bestPrefix = c, d, p
		}
	}
	return best
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// levenshtein is the edit distance between a and b, by code points, with
// two rolling rows.
func levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
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
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
