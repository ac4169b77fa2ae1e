package config

import (
	"fmt"
	"math"
	"math/bits"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// The schema is the tree of keys computed once, by reflection, from the
// struct tags of Config. It is read-only after package initialisation.

type nodeKind uint8

const (
	kindSection nodeKind = iota // a struct: a mapping of keys
	kindArray                   // a fixed-size array of leaves: key.N
	kindLeaf                    // one value
)

type field struct {
	key      string // dotted key; "" for the root
	name     string // last segment
	path     []int  // struct field / array indices from the root
	typ      reflect.Type
	kind     nodeKind
	doc      string
	unit     string
	enum     []string
	fixed    string
	check    string
	hasMin   bool
	hasMax   bool
	min, max int64  // range of a signed integer
	umin     uint64 // range of an unsigned integer
	umax     uint64
	children []*field // section: fields in declaration order; array: elements
}

type schemaTable struct {
	root   *field
	byKey  map[string]*field
	leaves []string // every leaf key, sorted by keyLess
	all    []string // every key, sections and arrays included, sorted
}

var schema = buildSchema()

func buildSchema() *schemaTable {
	s := &schemaTable{byKey: map[string]*field{}}
	s.root = &field{kind: kindSection, typ: reflect.TypeOf(Config{})}
	s.addChildren(s.root)
	for k, f := range s.byKey {
		s.all = append(s.all, k)
		if f.kind == kindLeaf {
			s.leaves = append(s.leaves, k)
		}
	}
	sort.Slice(s.leaves, func(i, j int) bool { return keyLess(s.leaves[i], s.leaves[j]) })
	sort.Slice(s.all, func(i, j int) bool { return keyLess(s.all[i], s.all[j]) })
	return s
}

func (s *schemaTable) addChildren(parent *field) {
	t := parent.typ
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("yaml"), ",")
		if !sf.IsExported() || name == "" || name == "-" {
			panic(fmt.Sprintf("config: field %s.%s needs a yaml tag", t.Name(), sf.Name))
		}
		f := &field{
			name: name,
			key:  joinKey(parent.key, name),
			path: appendPath(parent.path, i),
			typ:  sf.Type,
			doc:  sf.Tag.Get("doc"),
		}
		if f.doc == "" {
			panic("config: key " + f.key + " needs a doc tag")
		}
		parent.children = append(parent.children, f)
		s.byKey[f.key] = f
		switch sf.Type.Kind() {
		case reflect.Struct:
			f.kind = kindSection
			s.addChildren(f)
		case reflect.Array:
			f.kind = kindArray
			f.parseTags(sf.Tag, sf.Type.Elem())
			for j := 0; j < sf.Type.Len(); j++ {
				e := *f
				e.kind = kindLeaf
				e.name = strconv.Itoa(j)
				e.key = joinKey(f.key, e.name)
				e.path = appendPath(f.path, j)
				e.typ = sf.Type.Elem()
				e.children = nil
				f.children = append(f.children, &e)
				s.byKey[e.key] = &e
			}
		default:
			f.kind = kindLeaf
			f.parseTags(sf.Tag, sf.Type)
		}
	}
}

// parseTags reads the value tags of a leaf (or of an array's elements, of type t).
func (f *field) parseTags(tag reflect.StructTag, t reflect.Type) {
	switch t.Kind() {
	case reflect.Bool, reflect.String,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
	default:
		panic(fmt.Sprintf("config: key %s has unsupported type %s", f.key, t))
	}
	f.unit = tag.Get("unit")
	f.fixed = tag.Get("fixed")
	f.check = tag.Get("check")
	if e := tag.Get("enum"); e != "" {
		f.enum = strings.Split(e, "|")
	}
	if f.check != "" && checks[f.check] == nil {
		panic("config: key " + f.key + ": unknown check " + f.check)
	}
	bound := func(name string) (int64, uint64, bool) {
		v, ok := tag.Lookup(name)
		if !ok {
			return 0, 0, false
		}
		if isUnsigned(t) {
			u, err := strconv.ParseUint(v, 10, t.Bits())
			if err != nil {
				panic("config: key " + f.key + ": bad " + name + " tag")
			}
			return 0, u, true
		}
		n, err := strconv.ParseInt(v, 10, t.Bits())
		if err != nil {
			panic("config: key " + f.key + ": bad " + name + " tag")
		}
		return n, 0, true
	}
	f.min, f.umin, f.hasMin = bound("min")
	f.max, f.umax, f.hasMax = bound("max")
	if isSigned(t) && !f.hasMin {
		f.hasMin, f.min = true, 0 // no key of this model is negative
	}
}

func joinKey(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

func appendPath(p []int, i int) []int {
	return append(append([]int(nil), p...), i)
}

func isSigned(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return true
	}
	return false
}

func isUnsigned(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	}
	return false
}

// keyLess orders dotted keys segment by segment, numeric segments by value
// (env.regs.2 before env.regs.10).
func keyLess(a, b string) bool {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) && i < len(bs); i++ {
		if as[i] == bs[i] {
			continue
		}
		an, aerr := strconv.Atoi(as[i])
		bn, berr := strconv.Atoi(bs[i])
		if aerr == nil && berr == nil {
			return an < bn
		}
		return as[i] < bs[i]
	}
	return len(as) < len(bs)
}

// value returns the addressable field of root (a *Config's Elem) that f names.
func (f *field) value(root reflect.Value) reflect.Value {
	v := root
	for _, i := range f.path {
		if v.Kind() == reflect.Struct {
			v = v.Field(i)
		} else {
			v = v.Index(i)
		}
	}
	return v
}

// typeName is the user-facing type of a leaf.
func (f *field) typeName() string {
	switch {
	case f.enum != nil:
		return "enum"
	case f.typ.Kind() == reflect.Bool:
		return "bool"
	case f.typ.Kind() == reflect.String:
		return "string"
	case isUnsigned(f.typ):
		return fmt.Sprintf("uint%d", f.typ.Bits())
	default:
		return fmt.Sprintf("int%d", f.typ.Bits())
	}
}

// accepts describes the values a leaf accepts, for error messages and Info.
func (f *field) accepts() string {
	switch {
	case f.fixed != "":
		return "only " + f.fixed
	case f.enum != nil:
		return "one of " + strings.Join(f.enum, ", ")
	case f.check != "":
		return checkHelp[f.check]
	case f.typ.Kind() == reflect.Bool:
		return "true or false"
	case f.typ.Kind() == reflect.String:
		return "any string"
	}
	var r string
	switch {
	case isUnsigned(f.typ):
		lo, hi := uint64(0), maxUint(f.typ)
		if f.hasMin {
			lo = f.umin
		}
		if f.hasMax {
			hi = f.umax
		}
		r = fmt.Sprintf("an integer in %d..%d", lo, hi)
	default:
		lo, hi := f.min, maxInt(f.typ)
		if f.hasMax {
			hi = f.max
		}
		r = fmt.Sprintf("an integer in %d..%d", lo, hi)
	}
	r += " (decimal, 0x hex, 0o octal, 0b binary, _ separators"
	if s := suffixHelp[f.unit]; s != "" {
		r += ", suffix " + s
	}
	return r + ")"
}

func maxUint(t reflect.Type) uint64 { return math.MaxUint64 >> (64 - t.Bits()) }
func maxInt(t reflect.Type) int64   { return math.MaxInt64 >> (64 - t.Bits()) }

// Unit suffixes accepted by integer keys of a given unit.
var (
	suffixes = map[string][]struct {
		s string
		m uint64
	}{
		"bytes": {{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}},
		"ns":    {{"ns", 1}, {"us", 1e3}, {"µs", 1e3}, {"ms", 1e6}, {"s", 1e9}},
	}
	suffixHelp = map[string]string{"bytes": "KiB/MiB/GiB", "ns": "ns/us/ms/s"}
)

// parseUint parses an unsigned integer in Go literal syntax (0x, 0o, 0b, _),
// with a leading-zero decimal read as decimal, and a unit suffix where the
// unit allows one.
func parseUint(s, unit string) (uint64, bool) {
	mult := uint64(1)
	for _, sx := range suffixes[unit] {
		if len(s) > len(sx.s) && strings.EqualFold(s[len(s)-len(sx.s):], sx.s) {
			// "s" must not eat the end of "ns", "us", "ms".
			rest := strings.TrimSpace(s[:len(s)-len(sx.s)])
			if rest == "" || !isDigitOrSep(rest[len(rest)-1]) {
				continue
			}
			s, mult = rest, sx.m
			break
		}
	}
	var n uint64
	var err error
	if len(s) > 1 && s[0] == '0' && s[1] >= '0' && s[1] <= '9' {
		n, err = strconv.ParseUint(strings.ReplaceAll(s, "_", ""), 10, 64)
	} else {
		n, err = strconv.ParseUint(s, 0, 64)
	}
	if err != nil {
		return 0, false
	}
	hi, lo := bits.Mul64(n, mult)
	if hi != 0 {
		return 0, false
	}
	return lo, true
}

func isDigitOrSep(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c == '_'
}

// parse converts s to the leaf's type and stores it in dst after checking it.
// The returned message does not name the key.
func (f *field) parse(s string, dst reflect.Value) string {
	v := reflect.New(f.typ).Elem()
	switch {
	case f.typ.Kind() == reflect.Bool:
		switch strings.ToLower(s) {
		case "true", "yes", "on", "1":
			v.SetBool(true)
		case "false", "no", "off", "0":
			v.SetBool(false)
		default:
			return fmt.Sprintf("%q is not a boolean (want true or false)", s)
		}
	case f.typ.Kind() == reflect.String:
		if f.enum != nil {
			for _, e := range f.enum {
				if strings.EqualFold(s, e) {
					s = e
					break
				}
			}
		}
		v.SetString(s)
	default:
		neg := strings.HasPrefix(s, "-")
		u, ok := parseUint(strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+"), f.unit)
		if !ok || s == "" {
			return fmt.Sprintf("%q is not %s", s, f.accepts())
		}
		if isUnsigned(f.typ) {
			if neg && u != 0 {
				return fmt.Sprintf("%s is negative; want %s", s, f.accepts())
			}
			if u > maxUint(f.typ) {
				return fmt.Sprintf("%s is out of range; want %s", s, f.accepts())
			}
			v.SetUint(u)
		} else {
			lim := uint64(maxInt(f.typ))
			if neg {
				lim++
			}
			if u > lim {
				return fmt.Sprintf("%s is out of range; want %s", s, f.accepts())
			}
			n := int64(u)
			if neg {
				n = -n
			}
			v.SetInt(n)
		}
	}
	if msg := f.checkValue(v); msg != "" {
		return msg
	}
	dst.Set(v)
	return ""
}

// checkValue applies the leaf's own rules (fixed, enum, range, check) to v.
func (f *field) checkValue(v reflect.Value) string {
	got := formatValue(v)
	if f.fixed != "" {
		if got != f.fixed {
			return fmt.Sprintf("is fixed at %s and cannot be changed (got %s)", f.fixed, got)
		}
		return ""
	}
	if f.enum != nil {
		for _, e := range f.enum {
			if got == e {
				return ""
			}
		}
		return fmt.Sprintf("%q is not one of %s", got, strings.Join(f.enum, ", "))
	}
	if f.check != "" {
		if err := checks[f.check](got); err != nil {
			return err.Error()
		}
		return ""
	}
	switch {
	case isUnsigned(f.typ):
		if u := v.Uint(); f.hasMin && u < f.umin || f.hasMax && u > f.umax {
			return fmt.Sprintf("%d is out of range; want %s", u, f.accepts())
		}
	case isSigned(f.typ):
		if n := v.Int(); f.hasMin && n < f.min || f.hasMax && n > f.max {
			return fmt.Sprintf("%d is out of range; want %s", n, f.accepts())
		}
	}
	return ""
}

// formatValue is the canonical text of a leaf value, as Get returns it and
// as parse accepts it.
func formatValue(v reflect.Value) string {
	switch {
	case v.Kind() == reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case v.Kind() == reflect.String:
		return v.String()
	case isUnsigned(v.Type()):
		return strconv.FormatUint(v.Uint(), 10)
	default:
		return strconv.FormatInt(v.Int(), 10)
	}
}

// Named checks of string leaves (the check tag).
var checks = map[string]func(string) error{
	"ident":     checkIdent,
	"pmcounter": func(s string) error { _, err := ParsePMCounter(s); return err },
	"kibs":      func(s string) error { _, err := ParseKiBs(s); return err },
}

var checkHelp = map[string]string{
	"ident":     "a PTX identifier ([a-zA-Z][a-zA-Z0-9_$]* or [_$%][a-zA-Z0-9_$]+) or empty",
	"pmcounter": "cycles, instructions, event:K (K 0..15), events:MASK (16-bit, nonzero), stall:STATE or off",
	"kibs":      "rising sizes in KiB, comma-separated (0..16384), or empty",
}

// checkIdent accepts "" or a PTX identifier.
func checkIdent(s string) error {
	if s == "" {
		return nil
	}
	ok := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		digit := c >= '0' && c <= '9'
		switch {
		case i == 0:
			ok = letter || c == '_' || c == '$' || c == '%'
		default:
			ok = letter || digit || c == '_' || c == '$'
		}
		if !ok {
			break
		}
	}
	if ok && !(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') && len(s) == 1 {
		ok = false // "_", "$", "%" alone are not identifiers
	}
	if !ok {
		return fmt.Errorf("%q is not a PTX identifier", s)
	}
	return nil
}
