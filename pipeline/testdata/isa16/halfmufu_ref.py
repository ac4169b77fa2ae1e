#!/usr/bin/env python3
"""References for TestHalfTranscendentals (pipeline/mufu_half_test.go):
2^x and tanh(x) at f16 and bf16 inputs, computed with mpmath at 60 digits.
Writes halfmufu_ref.txt: "f16|bf16 BITS EX2 TANH" per input (float.hex of
the double nearest the function; bf16's ex2 is of the input flushed to
zero when subnormal, as ex2.approx.ftz.bf16 does).
Run: python3 halfmufu_ref.py > halfmufu_ref.txt"""
import math, random, struct
import mpmath

mpmath.mp.dps = 60

def f16val(b):
    return struct.unpack('<e', struct.pack('<H', b))[0]

def bf16val(b):
    return struct.unpack('<f', struct.pack('<I', b << 16))[0]

def ref(fn, x):
    if math.isnan(x):
        return 'nan'
    if math.isinf(x):
        if fn == 'ex2':
            return 'inf' if x > 0 else '0x0.0p+0'
        return '0x1.0p+0' if x > 0 else '-0x1.0p+0'
    if x == 0:
        return '0x1.0p+0' if fn == 'ex2' else x.hex()
    m = mpmath.mpf(x)
    v = mpmath.power(2, m) if fn == 'ex2' else mpmath.tanh(m)
    try:
        return float(v).hex()
    except OverflowError:
        return 'inf'

random.seed(9)
f16 = [0x0000, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0x0001, 0x83ff,
       0x4900, 0xc900, 0x4bff, 0xcc00, 0x3555, 0x2e66, 0x4500]
bf16 = [0x0000, 0x8000, 0x3f80, 0xbf80, 0x7f80, 0xff80, 0x7fc0, 0x0001, 0x807f,
        0x42f0, 0xc2f0, 0x4300, 0xc300, 0x3eaa, 0x3dcd, 0x40a0]
while len(f16) < 64:
    f16.append(random.choice([random.randrange(0x0000, 0x4c00), random.randrange(0x8000, 0xcc00)]))
    bf16.append(random.choice([random.randrange(0x3000, 0x4310), random.randrange(0xb000, 0xc310)]))
for b in f16:
    x = f16val(b)
    print('f16 %04x %s %s' % (b, ref('ex2', x), ref('tanh', x)))
for b in bf16:
    x = bf16val(b)
    xf = 0.0 * math.copysign(1, x) if (b & 0x7f80) == 0 else x
    print('bf16 %04x %s %s' % (b, ref('ex2', xf), ref('tanh', x)))
