#!/usr/bin/env python3
"""Reference values for mufu.cu (issue 16, item 1), computed with mpmath at
60 digits, independent of the Go model. Writes mufu_ref.txt: one line per
input (64 f32 values), the input's bits, then float.hex() of the double
nearest to: 2^x, log2 x, sin x, cos x, 1/sqrt x, tanh x, 2^(f32(x*f32(log2 e))),
1/sqrt(hi(x)), 1/hi(x) (hi: the double (double)x with its low 32 bits
cleared), each of x and, after ';', of x flushed to zero when subnormal.
Run: python3 mufu_ref.py > mufu_ref.txt"""
import math, random, struct
import mpmath

mpmath.mp.dps = 60

def f32(v):
    return struct.unpack('<f', struct.pack('<f', v))[0]

def bits(v):
    return struct.unpack('<I', struct.pack('<f', v))[0]

def hi(v):
    b = struct.unpack('<Q', struct.pack('<d', v))[0] & ~0xffffffff
    return struct.unpack('<d', struct.pack('<Q', b))[0]

def flush(v):
    if v != 0 and abs(v) < 2.0**-126:
        return math.copysign(0.0, v)
    return v

def ref(fn, x):
    if math.isnan(x):
        return 'nan'
    try:
        r = fn(x)
    except (ValueError, ZeroDivisionError):
        return 'nan'
    if isinstance(r, str):
        return r
    return float(r).hex()

def ex2(x):
    if math.isinf(x):
        return 'inf' if x > 0 else '0x0.0p+0'
    return mpmath.power(2, mpmath.mpf(x))

def lg2(x):
    if x == 0:
        return '-inf'
    if x < 0:
        return 'nan'
    if math.isinf(x):
        return 'inf'
    return mpmath.log(mpmath.mpf(x), 2)

def trig(f):
    def g(x):
        if math.isinf(x):
            return 'nan'
        if x == 0 and f is mpmath.sin:
            return x.hex()  # sin(-0) = -0
        return f(mpmath.mpf(x))
    return g

def rsq(x):
    if x == 0:
        return '-inf' if math.copysign(1, x) < 0 else 'inf'
    if x < 0:
        return 'nan'
    if math.isinf(x):
        return '0x0.0p+0'
    return 1 / mpmath.sqrt(mpmath.mpf(x))

def th(x):
    if x == 0:
        return x.hex()  # tanh(-0) = -0
    if math.isinf(x):
        return '0x1.0p+0' if x > 0 else '-0x1.0p+0'
    return mpmath.tanh(mpmath.mpf(x))

def expf(x):
    return ex2(f32(x * f32(1.4426950408889634)))

def rcp(x):
    if x == 0:
        return '-inf' if math.copysign(1, x) < 0 else 'inf'
    if math.isinf(x):
        return '-0x0.0p+0' if x < 0 else '0x0.0p+0'
    return 1 / mpmath.mpf(x)

fns = [ex2, lg2, trig(mpmath.sin), trig(mpmath.cos), rsq, th, expf,
       lambda x: rsq(hi(x)), lambda x: rcp(hi(x))]

random.seed(16)
xs = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 0.75, 1.5, 3.0, -3.0,
      float('inf'), float('-inf'), float('nan'), 1e-40, -1e-40, 1.2e-38,
      100.0, -100.0, 127.5, -149.5, -126.5, 0.999, 1.001, 1e30, 1e-30,
      math.pi, -math.pi, 2 * math.pi, 50 * math.pi, -99 * math.pi, 1000.0, 0.1]
while len(xs) < 64:
    e = random.choice([-20, -5, -1, 0, 1, 3, 6, 10])
    xs.append(random.uniform(-1, 1) * 2.0**e)
for x in xs:
    x = f32(x)
    cols = [ref(f, x) for f in fns]
    fl = [ref(f, flush(x)) for f in fns]
    print('%08x %s ; %s' % (bits(x), ' '.join(cols), ' '.join(fl)))
