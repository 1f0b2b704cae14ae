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
		blocks, delta := Count(c.before, c.after)
		if blocks != c.blocks || delta != c.delta {
			t.Errorf("%s: Count = %d blocks, %+d chars; want %d, %+d", c.name, blocks, delta, c.blocks, c.delta)
		}
	}
}
