package alu

import (
	"math"

	"github.com/smsim/smsim/isa"
)

// evalCvt converts a (raw bits of Type2) to Type.
func evalCvt(in *isa.Inst, a uint64) uint64 {
	dt, st := in.Type, in.Type2
	mode := rndOf(in)
	sat := in.Mods&isa.ModSat != 0
	ftz := in.Mods&isa.ModFtz != 0
	switch {
	case !dt.Float() && !st.Float():
		return cvtIntInt(dt, st, a, sat)
	case dt.Float() && !st.Float():
		f := fmtOf(dt)
		if mode == isa.RndNone {
			mode = rn
		}
		w := st.Bits()
		neg, mag := false, a&mask(w)
		if st.Signed() {
			if v := sext(a, w); v < 0 {
				neg, mag = true, uint64(-v)
			}
		}
		r := f.round(neg, mag, 0, false, mode)
		if sat {
			r = f.sat(r)
		}
		return r
	case !dt.Float():
		sf := fmtOf(st)
		a &= mask(sf.bits)
		if ftz && sf == fmtF32 {
			a = sf.flush(a)
		}
		if mode == isa.RndNone {
			mode = isa.RndRZI
		}
		return floatToInt(dt, roundIntegral(sf.decode(a), mode))
	}
	sf, df := fmtOf(st), fmtOf(dt)
	a &= mask(sf.bits)
	if ftz && sf == fmtF32 {
		a = sf.flush(a)
	}
	var r uint64
	x := sf.decode(a)
	switch {
	case x != x:
		r = df.nan
		if sf == fmtF64 && df == fmtF64 {
			r = a | 1<<51
		}
	case mode >= isa.RndRNI && mode <= isa.RndRPI:
		r = df.encode(roundIntegral(x, mode)) // df is at least as wide as sf
	case math.IsInf(x, 0) || x == 0:
		r = df.encode(x)
	default:
		if mode == isa.RndNone {
			mode = rn
		}
		r = df.roundDir(x, 0, mode)
	}
	if ftz && df == fmtF32 {
		r = df.flush(r)
	}
	if sat {
		r = df.sat(r)
	}
	return r
}

func cvtIntInt(dt, st isa.Type, a uint64, sat bool) uint64 {
	sw, dw := st.Bits(), dt.Bits()
	var v uint64 // the source value, extended to 64 bits
	neg := false
	if st.Signed() {
		s := sext(a, sw)
		v, neg = uint64(s), s < 0
	} else {
		v = a & mask(sw)
	}
	if sat {
		if dt.Signed() {
			lo, hi := -int64(1)<<uint(dw-1), int64(mask(dw-1))
			switch {
			case neg && int64(v) < lo:
				v = uint64(lo)
			case !neg && v > uint64(hi):
				v = uint64(hi)
			}
		} else {
			switch {
			case neg:
				v = 0
			case v > mask(dw):
				v = mask(dw)
			}
		}
	}
	return v & mask(dw)
}

// roundIntegral rounds x to an integral value (mode RNI RZI RMI RPI).
func roundIntegral(x float64, mode int) float64 {
	switch mode {
	case isa.RndRNI:
		return math.RoundToEven(x)
	case isa.RndRMI:
		return math.Floor(x)
	case isa.RndRPI:
		return math.Ceil(x)
	}
	return math.Trunc(x)
}

// floatToInt converts an integral float64 to integer type t, saturating:
// NaN gives 0, out-of-range values clamp to the type's range.
func floatToInt(t isa.Type, r float64) uint64 {
	w := t.Bits()
	if r != r {
		return 0
	}
	if t.Signed() {
		lim := math.Ldexp(1, w-1) // 2^(w-1)
		switch {
		case r >= lim:
			return mask(w - 1)
		case r <= -lim:
			return (uint64(1) << uint(w-1)) & mask(w)
		}
		return uint64(int64(r)) & mask(w)
	}
	switch {
	case r <= 0:
		return 0
	case r >= math.Ldexp(1, w):
		return mask(w)
	}
	return uint64(r)
}
