package browsertest

import (
	"encoding/binary"
	"errors"
)

// The parts of LevelDB's formats the saved tab groups' reader needs
// (github.com/google/leveldb doc/table_format.md and log_format.md):
// Chromium's sync store compacts its log into tables once it grows, so a
// long run's entries are in both.

// record is a key's latest write: its sequence number, and its value or
// its deletion.
type record struct {
	seq uint64
	val []byte
	del bool
}

// store is a database's keys with their latest records.
type store map[string]record

// put keeps the record when it is newer than the key's.
func (s store) put(key []byte, seq uint64, val []byte, del bool) {
	if r, ok := s[string(key)]; ok && r.seq > seq {
		return
	}
	s[string(key)] = record{seq: seq, val: append([]byte(nil), val...), del: del}
}

const tableMagic = 0xdb4775248b80fb57

// readTable adds the records of one table file (.ldb) to s.
func readTable(data []byte, s store) error {
	if len(data) < 48 || binary.LittleEndian.Uint64(data[len(data)-8:]) != tableMagic {
		return errors.New("not a LevelDB table")
	}
	footer := data[len(data)-48:]
	_, n := handle(footer) // the metaindex: filters, which a full read needs not
	if n <= 0 {
		return errors.New("a bad footer")
	}
	index, err := block(data, footer[n:])
	if err != nil {
		return err
	}
	return entries(index, func(_, h []byte) error {
		b, err := block(data, h)
		if err != nil {
			return err
		}
		return entries(b, func(k, v []byte) error {
			// An internal key: the user's key, then 8 bytes of sequence
			// number << 8 | type (1 a value, 0 a deletion).
			if len(k) < 8 {
				return errors.New("a short key")
			}
			tag := binary.LittleEndian.Uint64(k[len(k)-8:])
			s.put(k[:len(k)-8], tag>>8, v, tag&0xff == 0)
			return nil
		})
	})
}

// handle reads a block handle (offset and size, varints) and its length.
func handle(b []byte) ([2]uint64, int) {
	off, n := binary.Uvarint(b)
	if n <= 0 {
		return [2]uint64{}, 0
	}
	size, m := binary.Uvarint(b[n:])
	if m <= 0 {
		return [2]uint64{}, 0
	}
	return [2]uint64{off, size}, n + m
}

// block returns the contents of the block h points at, uncompressed.
func block(data, h []byte) ([]byte, error) {
	hd, n := handle(h)
	if n <= 0 || hd[0] > uint64(len(data)) || hd[1] > uint64(len(data))-hd[0] || uint64(len(data))-hd[0]-hd[1] < 5 {
		return nil, errors.New("a block handle outside the file")
	}
	b := data[hd[0] : hd[0]+hd[1]]
	switch data[hd[0]+hd[1]] { // the trailer: compression type, then a checksum
	case 0:
		return b, nil
	case 1:
		return snappyDecode(b)
	}
	return nil, errors.New("a block compressed in an unknown way")
}

// entries calls f with each key and value of a block (keys share a
// prefix with the one before; restart points end the block).
func entries(b []byte, f func(k, v []byte) error) error {
	if len(b) < 4 {
		return errors.New("a short block")
	}
	restarts := uint64(binary.LittleEndian.Uint32(b[len(b)-4:]))
	if restarts*4+4 > uint64(len(b)) {
		return errors.New("a bad block")
	}
	b = b[:uint64(len(b))-restarts*4-4]
	var key []byte
	for len(b) > 0 {
		var h [3]uint64
		for i := range h {
			v, n := binary.Uvarint(b)
			if n <= 0 {
				return errors.New("a bad block entry")
			}
			h[i] = v
			b = b[n:]
		}
		shared, own, vlen := h[0], h[1], h[2]
		if shared > uint64(len(key)) || own > uint64(len(b)) || vlen > uint64(len(b))-own {
			return errors.New("a bad block entry")
		}
		key = append(key[:shared:shared], b[:own]...)
		if err := f(key, b[own:own+vlen]); err != nil {
			return err
		}
		b = b[own+vlen:]
	}
	return nil
}

// snappyDecode decodes a snappy block (github.com/google/snappy
// format_description.txt): its length, then literals and copies.
func snappyDecode(src []byte) ([]byte, error) {
	n, w := binary.Uvarint(src)
	if w <= 0 || n > 1<<26 {
		return nil, errors.New("a bad snappy length")
	}
	src = src[w:]
	dst := make([]byte, 0, n)
	for len(src) > 0 {
		tag := src[0]
		var length, offset uint64
		switch tag & 3 {
		case 0: // a literal
			length = uint64(tag>>2) + 1
			src = src[1:]
			if extra := length - 1; extra >= 60 {
				k := int(extra - 59) // 1 to 4 bytes of length
				if len(src) < k {
					return nil, errors.New("a short snappy literal")
				}
				length = 0
				for i := k - 1; i >= 0; i-- {
					length = length<<8 | uint64(src[i])
				}
				length++
				src = src[k:]
			}
			if length > uint64(len(src)) {
				return nil, errors.New("a short snappy literal")
			}
			dst = append(dst, src[:length]...)
			src = src[length:]
			continue
		case 1:
			if len(src) < 2 {
				return nil, errors.New("a short snappy copy")
			}
			length = uint64(tag>>2&7) + 4
			offset = uint64(tag>>5)<<8 | uint64(src[1])
			src = src[2:]
		case 2, 3: // a copy with a 2- or 4-byte offset
			k := 2 << (tag&3 - 2)
			if len(src) < 1+k {
				return nil, errors.New("a short snappy copy")
			}
			length = uint64(tag>>2) + 1
			for i := k; i >= 1; i-- {
				offset = offset<<8 | uint64(src[i])
			}
			src = src[1+k:]
		}
		if offset == 0 || offset > uint64(len(dst)) || length > n-uint64(len(dst)) {
			return nil, errors.New("a bad snappy copy")
		}
		start := uint64(len(dst)) - offset
		for i := uint64(0); i < length; i++ { // may overlap what it writes
			dst = append(dst, dst[start+i])
		}
	}
	if uint64(len(dst)) != n {
		return nil, errors.New("a snappy block of the wrong length")
	}
	return dst, nil
}
