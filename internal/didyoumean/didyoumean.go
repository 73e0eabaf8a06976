// Package didyoumean suggests the closest known word for a mistyped one.
package didyoumean

import "strings"

// Closest returns the candidate nearest to word by edit distance (case
// folded), if it is near enough to be a plausible typo: at most one edit
// per three characters, and at least one. Ties go to the longer common
// prefix (SGL011 suggests SGL010 before SGL001), then to the first.
func Closest(word string, candidates []string) (string, bool) {
	w := strings.ToLower(word)
	best, bestDist, bestPrefix := "", -1, 0
	for _, c := range candidates {
		lc := strings.ToLower(c)
		d, p := distance(w, lc), commonPrefix(w, lc)
		if bestDist < 0 || d < bestDist || d == bestDist && p > bestPrefix {
			best, bestDist, bestPrefix = c, d, p
		}
	}
	limit := max(1, len([]rune(w))/3)
	if bestDist < 0 || bestDist > limit {
		return "", false
	}
	return best, true
}

// distance is the Levenshtein distance between a and b, in runes.
func distance(a, b string) int {
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

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}
