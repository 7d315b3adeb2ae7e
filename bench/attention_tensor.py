#!/usr/bin/env python3
"""softmax(Q K^T / sqrt(D) [+ causal mask]) V over [B, H, S, D] bf16 tensors,
written out at the tensor level as a user writes it: tile-fuse makes it one
attention kernel (issue 15).
    attention_tensor.py B H S D [causal] [kv=HKV]
With kv=HKV (grouped-query attention), K and V have HKV heads, repeated
(tile.repeat, torch's repeat_interleave) to the queries' H."""
import sys

b, h, s, d = map(int, sys.argv[1:5])
causal = "causal" in sys.argv[5:]
kv = next((int(a[3:]) for a in sys.argv[5:] if a.startswith("kv=")), h)
t = lambda *shape: "tensor<" + "x".join(map(str, shape)) + ">"
qkv, scores, rows = t(b, h, s, d, "bf16"), t(b, h, s, s, "f32"), t(b, h, s, "f32")
kvt = t(b, kv, s, d, "bf16")
repeats = "" if kv == h else f"""  %k = tile.repeat %kg dim = 1 times = {h // kv} : {kvt} -> {qkv}
  %v = tile.repeat %vg dim = 1 times = {h // kv} : {kvt} -> {qkv}
"""
kname, vname = ("%k", "%v") if kv == h else ("%kg", "%vg")
pos = t(b, h, s, s, "i32")
mask = f"""  %rows = tile.iota dim = 2 : {pos}
  %cols = tile.iota dim = 3 : {pos}
  %x = tile.map (%s, %rows, %cols) : ({scores}, {pos}, {pos}) -> {scores} {{
  ^bb0(%a: f32, %i: i32, %j: i32):
    %r = arith.mulf %a, %scale : f32
    %keep = arith.cmpi sle, %j, %i : i32
    %m = arith.select %keep, %r, %ninf : f32
    tile.yield %m : f32
  }}""" if causal else f"""  %x = tile.map (%s) : ({scores}) -> {scores} {{
  ^bb0(%a: f32):
    %r = arith.mulf %a, %scale : f32
    tile.yield %r : f32
  }}"""
print(f"""func.func @attention(%q: {qkv}, {kname}: {kvt}, {vname}: {kvt}) -> {qkv} {{
{repeats}  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant {1.0 / d ** 0.5!r} : f32
  %kt = tile.transpose %k : {qkv} -> {t(b, h, d, s, "bf16")}
  %s = tile.matmul %q, %kt : ({qkv}, {t(b, h, d, s, "bf16")}) -> {scores}
{mask}
  %max = tile.reduce %x, %ninf dim = 3 : {scores}, f32 -> {rows} {{
  ^bb0(%a: f32, %c: f32):
    %r = arith.maximumf %a, %c : f32
    tile.yield %r : f32
  }}
  %mb = tile.broadcast %max [3] : {rows} -> {scores}
  %e = tile.map (%x, %mb) : ({scores}, {scores}) -> {scores} {{
  ^bb0(%a: f32, %c: f32):
    %dd = arith.subf %a, %c : f32
    %r = math.exp %dd : f32
    tile.yield %r : f32
  }}
  %sum = tile.reduce %e, %zero dim = 3 : {scores}, f32 -> {rows} {{
  ^bb0(%a: f32, %c: f32):
    %r = arith.addf %a, %c : f32
    tile.yield %r : f32
  }}
  %sb = tile.broadcast %sum [3] : {rows} -> {scores}
  %p = tile.map (%e, %sb) : ({scores}, {scores}) -> {t(b, h, s, s, "bf16")} {{
  ^bb0(%a: f32, %c: f32):
    %r = arith.divf %a, %c : f32
    %pb = arith.truncf %r : f32 to bf16
    tile.yield %pb : bf16
  }}
  %o = tile.matmul %p, %v : ({t(b, h, s, s, "bf16")}, {qkv}) -> {t(b, h, s, d, "f32")}
  %ob = tile.cast %o : {t(b, h, s, d, "f32")} -> {qkv}
  return %ob : {qkv}
}}""")
