package shots

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// Join stacks baseline JPEGs of the same width, components and
// quantization tables top to bottom into one baseline JPEG, without
// decoding the pictures: each tile's Huffman-coded coefficients are read
// and written again with the standard tables (Chrome codes every capture
// with tables of its own), the DC predictions carried on from one tile to
// the next. Nothing is lost, and it takes a few milliseconds and the
// memory of the compressed bytes, where decoding, drawing and encoding a
// 30,000 px page takes a second and hundreds of megabytes. Every tile but
// the last must be a whole number of MCU rows tall (16 px for Chrome's
// 4:2:0 JPEGs); anything else is an error, and the caller stitches by
// decoding instead.
func Join(tiles [][]byte) ([]byte, error) {
	if len(tiles) == 0 {
		return nil, errors.New("no tiles to join")
	}
	parts := make([]part, len(tiles))
	for i, t := range tiles {
		parts[i] = part{data: t, rows: -1}
	}
	return transcode(parts, 0)
}

// CropTop is the top height px of a baseline JPEG as a JPEG of its own,
// cut the same way as Join joins: only the MCU rows needed are read.
func CropTop(data []byte, height int) ([]byte, error) {
	f, err := parseJPEG(data)
	if err != nil {
		return nil, err
	}
	if height <= 0 || height >= f.height {
		return data, nil
	}
	rows := (height + f.mcuH - 1) / f.mcuH
	return transcode([]part{{data: data, rows: rows}}, height)
}

// part is one JPEG to take rows from (-1: all of them).
type part struct {
	data []byte
	rows int
}

// jpegFile is what transcoding needs of one baseline JPEG.
type jpegFile struct {
	header        [][]byte // APPn and COM segments, markers included, kept from the first tile
	dqt           map[byte][]byte
	width, height int
	comps         []component
	hmax, vmax    int
	mcuW, mcuH    int
	mcusX, mcusY  int
	restart       int // MCUs between restart markers, 0: none
	dc, ac        [4]*huffDecoder
	scan          []scanComp
	data          []byte // entropy-coded data, up to the marker after it
}

type component struct {
	id, h, v, tq byte
}

// scanComp is a component of the scan: its index in comps and its tables.
type scanComp struct {
	ci     int
	td, ta byte
}

var errNotBaseline = errors.New("not a baseline JPEG the joiner can read")

// parseJPEG reads the segments of a baseline, interleaved, single-scan
// JPEG up to its entropy-coded data.
func parseJPEG(b []byte) (*jpegFile, error) {
	if len(b) < 4 || b[0] != 0xFF || b[1] != 0xD8 {
		return nil, errors.New("not a JPEG")
	}
	f := &jpegFile{dqt: map[byte][]byte{}}
	p := 2
	for {
		if p+4 > len(b) || b[p] != 0xFF {
			return nil, errors.New("a JPEG segment is cut short")
		}
		m := b[p+1]
		if m == 0xFF { // fill byte
			p++
			continue
		}
		n := int(binary.BigEndian.Uint16(b[p+2:]))
		if n < 2 || p+2+n > len(b) {
			return nil, errors.New("a JPEG segment is cut short")
		}
		seg := b[p+4 : p+2+n]
		switch {
		case m >= 0xE0 && m <= 0xEF || m == 0xFE: // APPn, COM
			f.header = append(f.header, b[p:p+2+n])
		case m == 0xDB:
			if err := f.readDQT(seg); err != nil {
				return nil, err
			}
		case m == 0xC4:
			if err := f.readDHT(seg); err != nil {
				return nil, err
			}
		case m == 0xDD:
			if len(seg) != 2 {
				return nil, errNotBaseline
			}
			f.restart = int(binary.BigEndian.Uint16(seg))
		case m == 0xC0:
			if err := f.readSOF(seg); err != nil {
				return nil, err
			}
		case m == 0xDA:
			if err := f.readSOS(seg); err != nil {
				return nil, err
			}
			f.data = b[p+2+n:]
			return f, nil
		default: // progressive, arithmetic, lossless, DNL...
			return nil, errNotBaseline
		}
		p += 2 + n
	}
}

func (f *jpegFile) readDQT(s []byte) error {
	for len(s) > 0 {
		pq, id := s[0]>>4, s[0]&15
		n := 65
		if pq == 1 {
			n = 129
		}
		if id > 3 || len(s) < n {
			return errNotBaseline
		}
		f.dqt[id] = append([]byte(nil), s[:n]...)
		s = s[n:]
	}
	return nil
}

func (f *jpegFile) readDHT(s []byte) error {
	for len(s) > 0 {
		if len(s) < 17 {
			return errNotBaseline
		}
		class, id := s[0]>>4, s[0]&15
		var counts [16]int
		total := 0
		for i := range counts {
			counts[i] = int(s[1+i])
			total += counts[i]
		}
		if class > 1 || id > 3 || total > 256 || len(s) < 17+total {
			return errNotBaseline
		}
		d, err := newHuffDecoder(counts, s[17:17+total])
		if err != nil {
			return err
		}
		if class == 0 {
			f.dc[id] = d
		} else {
			f.ac[id] = d
		}
		s = s[17+total:]
	}
	return nil
}

func (f *jpegFile) readSOF(s []byte) error {
	if len(s) < 6 || s[0] != 8 {
		return errNotBaseline
	}
	f.height, f.width = int(binary.BigEndian.Uint16(s[1:])), int(binary.BigEndian.Uint16(s[3:]))
	nc := int(s[5])
	if nc < 1 || nc > 4 || len(s) != 6+3*nc || f.width == 0 || f.height == 0 {
		return errNotBaseline
	}
	f.comps = make([]component, nc)
	for i := range f.comps {
		c := component{id: s[6+3*i], h: s[7+3*i] >> 4, v: s[7+3*i] & 15, tq: s[8+3*i]}
		if c.h < 1 || c.h > 4 || c.v < 1 || c.v > 4 || c.tq > 3 {
			return errNotBaseline
		}
		f.comps[i] = c
		f.hmax, f.vmax = max(f.hmax, int(c.h)), max(f.vmax, int(c.v))
	}
	if nc == 1 {
		// A single component is coded block by block, whatever its
		// sampling factors say (ITU T.81 A.2.2).
		f.comps[0].h, f.comps[0].v, f.hmax, f.vmax = 1, 1, 1, 1
	}
	f.mcuW, f.mcuH = 8*f.hmax, 8*f.vmax
	f.mcusX, f.mcusY = (f.width+f.mcuW-1)/f.mcuW, (f.height+f.mcuH-1)/f.mcuH
	return nil
}

func (f *jpegFile) readSOS(s []byte) error {
	if f.comps == nil || len(s) < 1 {
		return errNotBaseline
	}
	ns := int(s[0])
	if ns != len(f.comps) || len(s) != 4+2*ns {
		return errNotBaseline // one interleaved scan of every component
	}
	if ss, se, a := s[1+2*ns], s[2+2*ns], s[3+2*ns]; ss != 0 || se != 63 || a != 0 {
		return errNotBaseline
	}
	for i := 0; i < ns; i++ {
		id, tables := s[1+2*i], s[2+2*i]
		ci := -1
		for k, c := range f.comps {
			if c.id == id {
				ci = k
			}
		}
		sc := scanComp{ci: ci, td: tables >> 4, ta: tables & 15}
		if ci < 0 || sc.td > 3 || sc.ta > 3 || f.dc[sc.td] == nil || f.ac[sc.ta] == nil {
			return errNotBaseline
		}
		f.scan = append(f.scan, sc)
	}
	return nil
}

// sameKind says whether g can be joined below f.
func (f *jpegFile) sameKind(g *jpegFile) bool {
	if f.width != g.width || len(f.comps) != len(g.comps) {
		return false
	}
	for i := range f.comps {
		if f.comps[i] != g.comps[i] || !bytes.Equal(f.dqt[f.comps[i].tq], g.dqt[g.comps[i].tq]) {
			return false
		}
	}
	for i := range f.scan {
		if f.scan[i].ci != g.scan[i].ci {
			return false
		}
	}
	return true
}

// transcode writes the parts' MCU rows, in order, as one JPEG of the
// first part's kind. height is the output's height in px (0: every row of
// every part).
func transcode(parts []part, height int) ([]byte, error) {
	first, err := parseJPEG(parts[0].data)
	if err != nil {
		return nil, err
	}
	files := []*jpegFile{first}
	total := 0
	for i, p := range parts {
		f := first
		if i > 0 {
			if f, err = parseJPEG(p.data); err != nil {
				return nil, fmt.Errorf("tile %d: %w", i, err)
			}
			if !first.sameKind(f) {
				return nil, fmt.Errorf("tile %d is not of the first tile's kind (width, components, tables)", i)
			}
			files = append(files, f)
		}
		rows := f.mcusY
		if p.rows >= 0 {
			rows = min(rows, p.rows)
		}
		if i < len(parts)-1 && (p.rows < 0 && f.height%f.mcuH != 0) {
			return nil, fmt.Errorf("tile %d is %d px tall, not a whole number of %d px MCU rows", i, f.height, f.mcuH)
		}
		if p.rows < 0 && i == len(parts)-1 {
			total += f.height
		} else {
			total += rows * f.mcuH
		}
	}
	if height > 0 {
		total = min(total, height)
	}
	if total > 0xFFFF {
		return nil, fmt.Errorf("the joined image would be %d px tall, over JPEG's 65,535", total)
	}

	var out bytes.Buffer
	out.Write([]byte{0xFF, 0xD8})
	for _, h := range first.header {
		out.Write(h)
	}
	// The quantization tables in use, then the frame with the new height.
	seen := map[byte]bool{}
	for _, c := range first.comps {
		if !seen[c.tq] {
			seen[c.tq] = true
			writeSegment(&out, 0xDB, first.dqt[c.tq])
		}
	}
	sof := []byte{8, byte(total >> 8), byte(total), byte(first.width >> 8), byte(first.width), byte(len(first.comps))}
	for _, c := range first.comps {
		sof = append(sof, c.id, c.h<<4|c.v, c.tq)
	}
	writeSegment(&out, 0xC0, sof)
	var dht []byte
	for i, s := range stdHuffman {
		dht = append(dht, byte(i&1)<<4|byte(i>>1))
		dht = append(dht, s.counts[:]...)
		dht = append(dht, s.values...)
	}
	writeSegment(&out, 0xC4, dht)
	// Luminance tables for the first component, chrominance for the rest.
	sos := []byte{byte(len(first.scan))}
	for k, sc := range first.scan {
		t := byte(0x00)
		if k > 0 {
			t = 0x11
		}
		sos = append(sos, first.comps[sc.ci].id, t)
	}
	sos = append(sos, 0, 63, 0)
	writeSegment(&out, 0xDA, sos)

	w := bitWriter{buf: make([]byte, 0, len(parts[0].data)*len(parts))}
	pred := make([]int, len(first.comps)) // carried across tiles
	for i, f := range files {
		rows := f.mcusY
		if parts[i].rows >= 0 {
			rows = min(rows, parts[i].rows)
		}
		if err := copyRows(f, rows, &w, pred); err != nil {
			return nil, fmt.Errorf("tile %d: %w", i, err)
		}
	}
	w.flush()
	out.Write(w.buf)
	out.Write([]byte{0xFF, 0xD9})
	return out.Bytes(), nil
}

func writeSegment(out *bytes.Buffer, marker byte, body []byte) {
	n := len(body) + 2
	out.Write([]byte{0xFF, marker, byte(n >> 8), byte(n)})
	out.Write(body)
}

// copyRows reads the first rows MCU rows of f's scan and writes them with
// the standard tables, the DC of each block coded against pred.
func copyRows(f *jpegFile, rows int, w *bitWriter, pred []int) error {
	r := bitReader{data: f.data}
	in := make([]int, len(f.comps)) // the tile's own predictions
	mcus := rows * f.mcusX
	for m := 0; m < mcus; m++ {
		if f.restart > 0 && m > 0 && m%f.restart == 0 {
			if err := r.restart(); err != nil {
				return err
			}
			clear(in)
		}
		for k, sc := range f.scan {
			c := f.comps[sc.ci]
			dcEnc, acEnc := &stdEncoders[0], &stdEncoders[1]
			if k > 0 {
				dcEnc, acEnc = &stdEncoders[2], &stdEncoders[3]
			}
			for b := 0; b < int(c.h)*int(c.v); b++ {
				// DC: the difference, made absolute, coded against
				// the joined image's prediction.
				s, err := f.dc[sc.td].decode(&r)
				if err != nil {
					return err
				}
				if s > 11 {
					return errCorrupt
				}
				bits, err := r.bits(int(s))
				if err != nil {
					return err
				}
				in[sc.ci] += extend(bits, int(s))
				diff := in[sc.ci] - pred[sc.ci]
				pred[sc.ci] = in[sc.ci]
				ds, dbits := category(diff)
				if err := dcEnc.put(w, byte(ds)); err != nil {
					return err
				}
				w.put(dbits, ds)
				// AC: the same symbols and bits, new codes.
				for z := 1; z < 64; {
					rs, err := f.ac[sc.ta].decode(&r)
					if err != nil {
						return err
					}
					if err := acEnc.put(w, rs); err != nil {
						return err
					}
					run, size := int(rs>>4), int(rs&15)
					switch {
					case size == 0 && run != 15:
						z = 64 // end of block
						continue
					case size == 0:
						z += 16
					case size > 10:
						return errCorrupt
					default:
						bits, err := r.bits(size)
						if err != nil {
							return err
						}
						w.put(bits, size)
						z += run + 1
					}
					if z > 64 {
						return errCorrupt
					}
				}
			}
		}
	}
	return nil
}

var errCorrupt = errors.New("corrupt JPEG data")

// extend turns s bits v into a coefficient (ITU T.81 F.2.2.1).
func extend(v uint32, s int) int {
	if s == 0 {
		return 0
	}
	if v < 1<<(s-1) {
		return int(v) - (1 << s) + 1
	}
	return int(v)
}

// category is the size class of a difference and its s bits.
func category(d int) (int, uint32) {
	a := d
	if a < 0 {
		a = -a
	}
	s := 0
	for a > 0 {
		s++
		a >>= 1
	}
	if d < 0 {
		d--
	}
	return s, uint32(d) & (1<<s - 1)
}

// bitReader reads entropy-coded data: stuffed zero bytes skipped, and no
// bits past a marker.
type bitReader struct {
	data  []byte
	pos   int
	acc   uint32
	n     int // bits in acc
	ended bool
}

func (r *bitReader) fill() {
	for r.n <= 24 {
		if r.ended || r.pos >= len(r.data) {
			r.ended = true
			return
		}
		c := r.data[r.pos]
		if c == 0xFF {
			if r.pos+1 >= len(r.data) {
				r.ended = true
				return
			}
			if r.data[r.pos+1] != 0 {
				r.ended = true // a marker
				return
			}
			r.pos++
		}
		r.pos++
		r.acc |= uint32(c) << (24 - r.n)
		r.n += 8
	}
}

func (r *bitReader) bits(n int) (uint32, error) {
	if n == 0 {
		return 0, nil
	}
	if r.n < n {
		r.fill()
		if r.n < n {
			return 0, errCorrupt
		}
	}
	v := r.acc >> (32 - n)
	r.acc <<= n
	r.n -= n
	return v, nil
}

// restart skips to the byte after the next RSTn marker.
func (r *bitReader) restart() error {
	// Bits left in acc are padding; acc holds whole bytes read past them
	// only when no marker stopped the fill, which a restart rules out.
	r.acc, r.n = 0, 0
	if r.pos+1 >= len(r.data) || r.data[r.pos] != 0xFF || r.data[r.pos+1] < 0xD0 || r.data[r.pos+1] > 0xD7 {
		return errCorrupt
	}
	r.pos += 2
	r.ended = false
	return nil
}

// huffDecoder decodes one Huffman table: a 9-bit lookup for short codes,
// the canonical walk (ITU T.81 F.2.2.3) for the others.
type huffDecoder struct {
	fast    [1 << 9]uint16 // symbol<<8 | length, 0 when longer
	maxcode [17]int32
	valptr  [17]int32
	mincode [17]int32
	values  []byte
}

func newHuffDecoder(counts [16]int, values []byte) (*huffDecoder, error) {
	d := &huffDecoder{values: values}
	code, k := int32(0), int32(0)
	for l := 1; l <= 16; l++ {
		n := int32(counts[l-1])
		if code+n > 1<<l {
			return nil, errNotBaseline // more codes than the length allows
		}
		d.valptr[l], d.mincode[l] = k, code
		if n == 0 {
			d.maxcode[l] = -1
		} else {
			d.maxcode[l] = code + n - 1
			if l <= 9 {
				for i := int32(0); i < n; i++ {
					c := code + i
					sym := values[k+i]
					for fill := 0; fill < 1<<(9-l); fill++ {
						d.fast[int(c)<<(9-l)|fill] = uint16(sym)<<8 | uint16(l)
					}
				}
			}
		}
		code = (code + n) << 1
		k += n
	}
	return d, nil
}

func (d *huffDecoder) decode(r *bitReader) (byte, error) {
	if r.n < 16 {
		r.fill()
	}
	if r.n >= 9 {
		if e := d.fast[r.acc>>(32-9)]; e != 0 {
			l := int(e & 0xFF)
			r.acc <<= l
			r.n -= l
			return byte(e >> 8), nil
		}
	}
	code := int32(0)
	for l := 1; l <= 16; l++ {
		b, err := r.bits(1)
		if err != nil {
			return 0, err
		}
		code = code<<1 | int32(b)
		if code <= d.maxcode[l] {
			return d.values[d.valptr[l]+code-d.mincode[l]], nil
		}
	}
	return 0, errCorrupt
}

// bitWriter writes entropy-coded data with 0xFF bytes stuffed.
type bitWriter struct {
	buf []byte
	acc uint64 // the low n bits are pending
	n   int
}

// put writes the low n bits of v (n ≤ 16).
func (w *bitWriter) put(v uint32, n int) {
	w.acc = w.acc<<n | uint64(v&(1<<n-1))
	w.n += n
	for w.n >= 8 {
		w.n -= 8
		c := byte(w.acc >> w.n)
		w.buf = append(w.buf, c)
		if c == 0xFF {
			w.buf = append(w.buf, 0)
		}
	}
}

// flush pads the last byte with ones.
func (w *bitWriter) flush() {
	if w.n > 0 {
		w.put(1<<(8-w.n)-1, 8-w.n)
	}
}

// huffEncoder codes symbols with one table.
type huffEncoder struct {
	code [256]uint16
	size [256]uint8
}

func (e *huffEncoder) put(w *bitWriter, sym byte) error {
	if e.size[sym] == 0 {
		return errCorrupt
	}
	w.put(uint32(e.code[sym]), int(e.size[sym]))
	return nil
}

func newHuffEncoder(s huffSpec) huffEncoder {
	var e huffEncoder
	code, k := uint16(0), 0
	for l := 1; l <= 16; l++ {
		for i := 0; i < int(s.counts[l-1]); i++ {
			e.code[s.values[k]], e.size[s.values[k]] = code, uint8(l)
			code++
			k++
		}
		code <<= 1
	}
	return e
}

type huffSpec struct {
	counts [16]byte
	values []byte
}

// stdHuffman are the tables of ITU T.81 Annex K.3 (as image/jpeg writes
// them): luminance DC, luminance AC, chrominance DC, chrominance AC. They
// code every baseline symbol.
var stdHuffman = [4]huffSpec{
	{[16]byte{0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0}, []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}},
	{[16]byte{0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 125}, []byte{
		0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07,
		0x22, 0x71, 0x14, 0x32, 0x81, 0x91, 0xa1, 0x08, 0x23, 0x42, 0xb1, 0xc1, 0x15, 0x52, 0xd1, 0xf0,
		0x24, 0x33, 0x62, 0x72, 0x82, 0x09, 0x0a, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x25, 0x26, 0x27, 0x28,
		0x29, 0x2a, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49,
		0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69,
		0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89,
		0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7,
		0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3, 0xc4, 0xc5,
		0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xe1, 0xe2,
		0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8,
		0xf9, 0xfa,
	}},
	{[16]byte{0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0}, []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}},
	{[16]byte{0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 119}, []byte{
		0x00, 0x01, 0x02, 0x03, 0x11, 0x04, 0x05, 0x21, 0x31, 0x06, 0x12, 0x41, 0x51, 0x07, 0x61, 0x71,
		0x13, 0x22, 0x32, 0x81, 0x08, 0x14, 0x42, 0x91, 0xa1, 0xb1, 0xc1, 0x09, 0x23, 0x33, 0x52, 0xf0,
		0x15, 0x62, 0x72, 0xd1, 0x0a, 0x16, 0x24, 0x34, 0xe1, 0x25, 0xf1, 0x17, 0x18, 0x19, 0x1a, 0x26,
		0x27, 0x28, 0x29, 0x2a, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48,
		0x49, 0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68,
		0x69, 0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87,
		0x88, 0x89, 0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0xa2, 0xa3, 0xa4, 0xa5,
		0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3,
		0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda,
		0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8,
		0xf9, 0xfa,
	}},
}

var stdEncoders = [4]huffEncoder{
	newHuffEncoder(stdHuffman[0]), newHuffEncoder(stdHuffman[1]),
	newHuffEncoder(stdHuffman[2]), newHuffEncoder(stdHuffman[3]),
}
