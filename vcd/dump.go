// Reading a whole dump into signals (ReadAll).

package vcd

// Sample is a value at a time.
type Sample struct {
	Time  uint64
	Value Value
}

// Signal is a declared variable with its changes in file order. Aliases
// (names sharing an identifier code) share the same Changes slice.
type Signal struct {
	Var
	Changes []Sample
}

// ValueAt returns the value at time t (the last change at or before t)
// and false if the signal has no change at or before t.
func (s *Signal) ValueAt(t uint64) (Value, bool) {
	lo, hi := 0, len(s.Changes)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if s.Changes[m].Time <= t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == 0 {
		return Value{}, false
	}
	return s.Changes[lo-1].Value, true
}

// Dump is a whole VCD file in memory, as ReadAll returns it.
type Dump struct {
	Header  *Header
	Signals []*Signal // one per Header.Vars entry, in declaration order
	EndTime uint64    // the last time stamp in the file
	byName  map[string]*Signal
}

// Signal returns the signal with the full hierarchical name, or nil.
func (d *Dump) Signal(name string) *Signal { return d.byName[name] }

// ReadAll reads the rest of the input and returns every signal with its
// changes.
func (r *Reader) ReadAll() (*Dump, error) {
	h, err := r.Header()
	if err != nil {
		return nil, err
	}
	lists := map[string][]Sample{}
	if err := r.Each(func(c Change) error {
		lists[c.ID] = append(lists[c.ID], Sample{Time: c.Time, Value: c.Value})
		return nil
	}); err != nil {
		return nil, err
	}
	d := &Dump{Header: h, EndTime: r.time, byName: make(map[string]*Signal, len(h.Vars))}
	for _, v := range h.Vars {
		s := &Signal{Var: v, Changes: lists[v.ID]}
		d.Signals = append(d.Signals, s)
		if _, ok := d.byName[v.Name]; !ok {
			d.byName[v.Name] = s
		}
	}
	return d, nil
}
