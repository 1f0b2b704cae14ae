package changes

import "testing"

func TestCount(t *testing.T) {
	blk := func(h string, n int) Block { return Block{Hash: h, Len: n} }
	cases := []struct {
		name          string
		before, after []Block
		blocks, delta int
	}{
		{"nothing", nil, nil, 0, 0},
		{"same", []Block{blk("a", 3), blk("b", 4)}, []Block{blk("a", 3), blk("b", 4)}, 0, 0},
		{"one changed", []Block{blk("a", 3), blk("b", 4), blk("c", 5)}, []Block{blk("a", 3), blk("x", 10), blk("c", 5)}, 1, 6},
		{"two changed apart", []Block{blk("a", 3), blk("b", 4), blk("c", 5)}, []Block{blk("y", 1), blk("b", 4), blk("z", 7)}, 2, 0},
		{"added", []Block{blk("a", 3)}, []Block{blk("a", 3), blk("n", 140)}, 1, 140},
		{"removed", []Block{blk("a", 3), blk("b", 40)}, []Block{blk("a", 3)}, 1, -40},
		{"replaced by more", []Block{blk("a", 3)}, []Block{blk("x", 2), blk("y", 2)}, 2, 1},
		{"moved", []Block{blk("a", 3), blk("b", 4)}, []Block{blk("b", 4), blk("a", 3)}, 2, 0},
	}
	for _, c := range cases {
		blocks, delta, ok := Count(c.before, c.after)
		if !ok || blocks != c.blocks || delta != c.delta {
			t.Errorf("%s: Count = %d blocks, %+d chars; want %d, %+d", c.name, blocks, delta, c.blocks, c.delta)
		}
	}
}

// Lists too long to compare say nothing, rather than count every block
// of them as changed.
func TestCountTooLongSaysNothing(t *testing.T) {
	many := func(prefix string, n int) []Block {
		out := make([]Block, n)
		for i := range out {
			out[i] = Block{Hash: prefix + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676)), Len: 5}
		}
		return out
	}
	before, after := many("x", 1100), many("x", 1100)
	after[0], after[1099] = Block{Hash: "top", Len: 3}, Block{Hash: "toast", Len: 9}
	if n, _, ok := Count(before, after); ok {
		t.Errorf("Count of two 1,100-block lists = %d blocks, want no answer (ok false)", n)
	}
}
