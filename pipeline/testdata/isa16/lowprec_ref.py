#!/usr/bin/env python3
"""Expected words of lowprec.cu (issue 16, item 4), computed with exact
rational arithmetic (fractions) and IEEE 754 round-to-nearest-even (or
toward zero) into each format, independently of the Go model. Writes
lowprec_ref.txt: per thread, the input x (f32 bits) and its 44 words.
Run: python3 lowprec_ref.py > lowprec_ref.txt

Words (a = f16x2{hi x, lo y}, b = f16x2{y, z}, c = bf16x2{x, y},
d = bf16x2{y, z}; x2 operations work on both halves):
  0 cvt.rn.f16x2.f32 x,y  1 cvt.rz.f16x2.f32 x,y
  2 cvt.rn.relu.satfinite.f16x2.f32 1000x,1000y  3 cvt.rn.bf16x2.f32 x,y
  4 cvt.rz.relu.bf16x2.f32 x,y  5 f32(bf16(z))  6 f32(f16(z))
  7 add a,b  8 sub  9 mul  10 fma a,b,a  11 neg a  12 abs a  13 min
  14 max  15 fma.relu a,b,b  16 add.sat  17 setp.lt p|q (p | q<<1)
  18..27 the same (without add.sat) on c, d in bf16x2 (setp.gt)
  28 add.bf16 lo(c), lo(d)  29 fma.bf16 lo(c), lo(d), lo(c)
  30 setp.lt.bf16 lo(c), lo(d)  31 fma.f16 lo(a), lo(b), lo(a)
  32 cvt.rn.satfinite.e4m3x2.f32 4x,4y  33 e5m2x2  34 e4m3x2 .relu
  35 f16x2 of word 32  36 f16x2 of word 33  37 e4m3x2 of a  38 e5m2x2 of a
  39..42 cvt.pack.sat.{u8,s8,u16,s16}.s32.b32 of ia, ib (ia = bits(x)>>22
         arithmetic; 16-bit forms: ia*300, ib*300), c = 0x1234, 0xabcd
  43 cvt.rn.satfinite.f16.f32 1000x
"""
import math, random, struct
from fractions import Fraction as Q

F16 = (11, -14, 15)
BF16 = (8, -126, 127)
E4M3 = (4, -6, None, 448)
E5M2 = (3, -14, None, 57344)

def f32(v):
    return struct.unpack('<f', struct.pack('<f', v))[0]

def ilog2(a):  # floor(log2(a)) of a positive Fraction
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Q(2) ** e > a:
        e -= 1
    return e

def rnd(q, fmt, mode='rn', zsign=False):
    """q (exact) rounded into fmt (prec, emin, emax[, satmax]); a float."""
    prec, emin, emax = fmt[:3]
    if q == 0:
        return -0.0 if zsign else 0.0
    s = -1 if q < 0 else 1
    a = abs(q)
    e = max(ilog2(a), emin)
    quantum = Q(2) ** (e - (prec - 1))
    m = a / quantum
    n = round(m) if mode == 'rn' else math.floor(m)
    r = n * quantum
    if len(fmt) == 4:  # fp8 with .satfinite
        r = min(r, Q(fmt[3]))
    elif r >= Q(2) ** (emax + 1):
        if mode == 'rn':
            return s * math.inf
        r = (2 - Q(2) ** (1 - prec)) * Q(2) ** emax
    if r == 0:
        return -0.0 if s < 0 else 0.0
    return s * float(r)

def bits16(v, fmt):
    if fmt is F16:
        return struct.unpack('<H', struct.pack('<e', v))[0]
    return struct.unpack('<I', struct.pack('<f', v))[0] >> 16

def val16(b, fmt):
    if fmt is F16:
        return struct.unpack('<e', struct.pack('<H', b))[0]
    return struct.unpack('<f', struct.pack('<I', b << 16))[0]

def sign(v):
    return math.copysign(1, v) < 0

def add(x, y, fmt):
    if math.isinf(x) or math.isinf(y):
        return x + y
    return rnd(Q(x) + Q(y), fmt, zsign=sign(x) and sign(y))

def mul(x, y, fmt):
    if math.isinf(x) or math.isinf(y):
        return x * y
    return rnd(Q(x) * Q(y), fmt, zsign=sign(x) != sign(y))

def fma(x, y, z, fmt):
    if math.isinf(x) or math.isinf(y) or math.isinf(z):
        return x * y + z
    p = Q(x) * Q(y)
    return rnd(p + Q(z), fmt, zsign=(sign(x) != sign(y)) and sign(z))

def relu(v):
    return 0.0 if sign(v) else v

def fmin(x, y):
    if x == y:
        return x if sign(x) else y
    return min(x, y)

def fmax(x, y):
    if x == y:
        return y if sign(x) else x
    return max(x, y)

def sat(v):
    if sign(v):
        return 0.0
    return min(v, 1.0)

def satfinite(v, fmt):
    if math.isinf(v):
        prec, emin, emax = fmt
        return math.copysign(float((2 - Q(2) ** (1 - prec)) * Q(2) ** emax), v)
    return v

def fp8bits(v, fmt):
    """The code of v (exactly representable, finite) in e4m3/e5m2."""
    prec, emin = fmt[0], fmt[1]
    man = prec - 1
    bias = 7 if fmt is E4M3 else 15
    s = 0x80 if sign(v) else 0
    a = Q(abs(v))
    if a == 0:
        return s
    e = ilog2(a)
    if e < emin:
        return s | int(a / Q(2) ** (emin - man))
    return s | (e + bias) << man | int(a / Q(2) ** (e - man)) - (1 << man)

def fp8val(b, fmt):
    prec, emin = fmt[0], fmt[1]
    man = prec - 1
    bias = 7 if fmt is E4M3 else 15
    s = -1 if b & 0x80 else 1
    ex, m = (b & 0x7f) >> man, b & ((1 << man) - 1)
    if ex == 0:
        return s * float(Q(m) * Q(2) ** (emin - man))
    return s * float(Q(m | 1 << man) * Q(2) ** (ex - bias - man))

def to_fp8(v, fmt, relu_=False):
    if relu_ and sign(v):
        return 0
    if math.isinf(v):
        return fp8bits(math.copysign(fmt[3], v), fmt)
    return fp8bits(rnd(Q(v), fmt, zsign=sign(v)), fmt)

def pack(hi, lo, fmt):
    return bits16(hi, fmt) << 16 | bits16(lo, fmt)

def halves(w, fmt):
    return val16(w >> 16, fmt), val16(w & 0xffff, fmt)

def x2(op, fmt, *ws):
    his = [val16(w >> 16, fmt) for w in ws]
    los = [val16(w & 0xffff, fmt) for w in ws]
    return pack(op(*his), op(*los), fmt)

def packsat(a, b, c, lo, hi, bits):
    sa, sb = min(max(a, lo), hi), min(max(b, lo), hi)
    if bits == 16:
        return (sa & 0xffff) << 16 | (sb & 0xffff)
    return (c & 0xffff) << 16 | (sa & 0xff) << 8 | (sb & 0xff)

def words(x, y, z):
    cv = lambda v, fmt, mode='rn': rnd(Q(v), fmt, mode, zsign=sign(v))
    w = [0] * 44
    a = pack(cv(x, F16), cv(y, F16), F16)
    b = pack(cv(y, F16), cv(z, F16), F16)
    c = pack(cv(x, BF16), cv(y, BF16), BF16)
    d = pack(cv(y, BF16), cv(z, BF16), BF16)
    w[0] = a
    w[1] = pack(cv(x, F16, 'rz'), cv(y, F16, 'rz'), F16)
    x1k, y1k = f32(x * 1000.0), f32(y * 1000.0)
    w[2] = pack(relu(satfinite(cv(x1k, F16), F16)), relu(satfinite(cv(y1k, F16), F16)), F16)
    w[3] = c
    w[4] = pack(relu(cv(x, BF16, 'rz')), relu(cv(y, BF16, 'rz')), BF16)
    w[5] = struct.unpack('<I', struct.pack('<f', cv(z, BF16)))[0]
    w[6] = struct.unpack('<I', struct.pack('<f', cv(z, F16)))[0]
    for base, fmt, p, q in ((7, F16, a, b), (18, BF16, c, d)):
        ops = [lambda u, v: add(u, v, fmt), lambda u, v: add(u, -v, fmt),
               lambda u, v: mul(u, v, fmt)]
        k = base
        for op in ops:
            w[k] = x2(op, fmt, p, q)
            k += 1
        w[k] = x2(lambda u, v, t: fma(u, v, t, fmt), fmt, p, q, p); k += 1
        w[k] = x2(lambda u: -u, fmt, p); k += 1
        w[k] = x2(abs, fmt, p); k += 1
        w[k] = x2(fmin, fmt, p, q); k += 1
        w[k] = x2(fmax, fmt, p, q); k += 1
        w[k] = x2(lambda u, v, t: relu(fma(u, v, t, fmt)), fmt, p, q, q); k += 1
        if fmt is F16:
            w[k] = x2(lambda u, v: sat(add(u, v, fmt)), fmt, p, q); k += 1
        (ph, pl), (qh, ql) = halves(p, fmt), halves(q, fmt)
        if fmt is F16:
            w[k] = int(pl < ql) | int(ph < qh) << 1
        else:
            w[k] = int(pl > ql) | int(ph > qh) << 1
    cl, dl = halves(c, BF16)[1], halves(d, BF16)[1]
    w[28] = bits16(add(cl, dl, BF16), BF16)
    w[29] = bits16(fma(cl, dl, cl, BF16), BF16)
    w[30] = int(cl < dl)
    al, bl = halves(a, F16)[1], halves(b, F16)[1]
    w[31] = bits16(fma(al, bl, al, F16), F16)
    x4, y4 = x * 4.0, y * 4.0  # exact in f32
    w[32] = to_fp8(x4, E4M3) << 8 | to_fp8(y4, E4M3)
    w[33] = to_fp8(x4, E5M2) << 8 | to_fp8(y4, E5M2)
    w[34] = to_fp8(x4, E4M3, True) << 8 | to_fp8(y4, E4M3, True)
    w[35] = pack(fp8val(w[32] >> 8, E4M3), fp8val(w[32] & 0xff, E4M3), F16)
    w[36] = pack(fp8val(w[33] >> 8, E5M2), fp8val(w[33] & 0xff, E5M2), F16)
    ah, al = halves(a, F16)
    w[37] = to_fp8(ah, E4M3) << 8 | to_fp8(al, E4M3)
    w[38] = to_fp8(ah, E5M2) << 8 | to_fp8(al, E5M2)
    ia = struct.unpack('<i', struct.pack('<f', x))[0] >> 22
    ib = struct.unpack('<i', struct.pack('<f', y))[0] >> 22
    w[39] = packsat(ia, ib, 0x1234, 0, 0xff, 8)
    w[40] = packsat(ia, ib, 0xabcd, -0x80, 0x7f, 8)
    w[41] = packsat(ia * 300, ib * 300, 0, 0, 0xffff, 16)
    w[42] = packsat(ia * 300, ib * 300, 0, -0x8000, 0x7fff, 16)
    w[43] = bits16(satfinite(cv(x1k, F16), F16), F16)
    return w

random.seed(4)
xs = [1.0, -1.0, 0.5, 1.5, -2.75, 3.0, 1e-5, -3e-6, 6.1e-5, 0.1, 0.2, 0.3,
      65.5, 255.9, -300.0, 280.0, 1.0009765625, 1.00048828125, 0.33333334,
      2.0 ** -20, -2.0 ** -133, 100.0, -100.0, 0.999]
while len(xs) < 64:
    e = random.choice([-16, -8, -3, 0, 2, 5, 7])
    xs.append(random.uniform(-1, 1) * 2.0 ** e)
xs = [f32(v) for v in xs]
n = len(xs)
for i in range(n):
    x, y, z = xs[i], xs[(i + 1) % n], xs[(i + 2) % n]
    print('%08x %s' % (struct.unpack('<I', struct.pack('<f', x))[0],
                       ' '.join('%x' % v for v in words(x, y, z))))
