package changes

// Block is one block of a page as a page script sums it up, without its
// words: a hash of its text and its length in characters.
type Block struct {
	Hash string
	Len  int
}

// Count says how much a page changed between two lists of its blocks:
// how many blocks were added, removed or changed (a removed block
// followed by an added one is one changed block, as in Lines), and by how
// many characters the page grew (negative: shrank). ok is false when the
// lists are too long to compare within Lines' bound, where every block
// would count as changed: then nothing is said.
func Count(before, after []Block) (blocks, deltaChars int, ok bool) {
	if n, m := len(before), len(after); n*m > maxCells || n > 0xFFFF || m > 0xFFFF {
		return 0, 0, false
	}
	a := make([]string, len(before))
	for i, b := range before {
		a[i] = b.Hash
		deltaChars -= b.Len
	}
	b := make([]string, len(after))
	for i, x := range after {
		b[i] = x.Hash
		deltaChars += x.Len
	}
	return len(Lines(a, b, nil)), deltaChars, true
}
