#!/usr/bin/env python3
"""A FlashAttention forward kernel written at the tile level, the one that
tile-fuse's attention group is to emit from the math (issue 15); until then the
benchmark's kernels come from here.
    attention_tile.py BH S D BM BN [stages] [warp_specialize 0|1] [ref] [causal]
                      [programs=N]
Q, K, V and O are [BH * S, D] (torch's [B, H, S, D] flattened); each program
loads K tiles as they are stored and tile.transpose views them as K^T. With
ref (BH = 1) a tensor-level reference follows."""
import sys
BH, S, D, BM, BN = map(int, sys.argv[1:6])
stages = int(sys.argv[6]) if len(sys.argv) > 6 else 1
ws = sys.argv[7] == "1" if len(sys.argv) > 7 else False
ref = "ref" in sys.argv[8:]
causal = "causal" in sys.argv[8:]
# Keys past S (a ragged last block) and, with causal, keys after the query
# are masked to -inf; a ragged S needs one head (rows past S would be the
# next head's).
ragged = S % BN != 0 or S % BM != 0
assert not ragged or BH == 1
masked = causal or S % BN != 0
cdiv = lambda a, b: (a + b - 1) // b
threads = 128 * (BM // 64)
scale = 1.0 / D ** 0.5
q = f"memref<{BH*S}x{D}xbf16>"; kt = q; v = q; o = q
T = lambda *s: "!tile.tile<" + "x".join(map(str, s)) + ">"
f32 = lambda *s: T(*s, "f32")
bf = lambda *s: T(*s, "bf16")
# "programs=N": at least N programs per SM (a register cap for ptxas).
programs = next((int(a.split("=")[1]) for a in sys.argv[8:] if a.startswith("programs=")), 0)
attrs = []
if programs:
    attrs.append(f"min_programs_per_sm = {programs}")
if stages > 1 or ws:
    attrs.append(f"tile.config = #tile.config<block = [{BM}, {BN}, {D}], threads = {threads}, mma = wgmma, "
                 f"instr = [64, {BN}, 16], warps = [{BM//16}, 1], stages = {stages}" + (", warp_specialize = true" if ws else "") + ">")
cfg = f" attributes {{{', '.join(attrs)}}}" if attrs else ""
keep = "%keep = arith.cmpi slt, %kp, %cS32 : i32"
if causal:
    keep = ("%inside = arith.cmpi slt, %kp, %cS32 : i32\n        %past = arith.cmpi sle, %kp, %qp : i32\n"
            "        %keep = arith.andi %inside, %past : i1")
mask = f"""      %ri = tile.iota dim = 0 : {T(BM, BN, "i32")}
      %ci = tile.iota dim = 1 : {T(BM, BN, "i32")}
      %m32 = arith.index_cast %mr : index to i32
      %n32 = arith.index_cast %n : index to i32
      %s = tile.map (%s0, %ri, %ci) : ({f32(BM, BN)}, {T(BM, BN, "i32")}, {T(BM, BN, "i32")}) -> {f32(BM, BN)} {{
      ^bb0(%a: f32, %r: i32, %c: i32):
        %qp = arith.addi %r, %m32 : i32
        %kp = arith.addi %c, %n32 : i32
        {keep}
        %sel = arith.select %keep, %a, %ninf : f32
        tile.yield %sel : f32
      }}
""" if masked else ""
dot = "%s0" if masked else "%s"
print(f"""func.func @attn(%Q: {q}, %KT: {kt}, %V: {v}, %O: {o}) {{
  tile.kernel @attn_0 grid [{cdiv(S, BM)}, {BH}] threads {threads} (%Q, %KT, %V, %O) : {q}, {kt}, {v}, {o}{cfg} {{
  ^bb0(%q: {q}, %kt: {kt}, %v: {v}, %o: {o}):
    %c0 = arith.constant 0 : index
    %cBM = arith.constant {BM} : index
    %cBN = arith.constant {BN} : index
    %cS = arith.constant {S} : index
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %scale = arith.constant {scale!r} : f32
    %cS32 = arith.constant {S} : i32
    %pm = tile.program_id 0
    %ph = tile.program_id 1
    %hS = arith.muli %ph, %cS : index
    %mr = arith.muli %pm, %cBM : index
    %m0 = arith.addi %hS, %mr : index
    %tq = tile.load %q[%m0, %c0] : {q} -> {bf(BM, D)}
    %zs = tile.splat %zero : f32 -> {f32(BM, BN)}
    %z = tile.splat %zero : f32 -> {f32(BM, D)}
    %mi = tile.splat %ninf : f32 -> {f32(BM)}
    %li = tile.splat %zero : f32 -> {f32(BM)}
    {"%hi = arith.addi %mr, %cBM : index" if causal else ""}
    {"%end = arith.minui %hi, %cS : index" if causal else ""}
    %res:3 = scf.for %n = %c0 to {"%end" if causal else "%cS"} step %cBN iter_args(%acc = %z, %m = %mi, %l = %li) -> ({f32(BM, D)}, {f32(BM)}, {f32(BM)}) {{
      %kr = arith.addi %hS, %n : index
      %tkn = tile.load %kt[%kr, %c0] : {kt} -> {bf(BN, D)}
      %tk = tile.transpose %tkn : {bf(BN, D)} -> {bf(D, BN)}
      {dot} = tile.dot %tq, %tk, %zs : {bf(BM, D)}, {bf(D, BN)} -> {f32(BM, BN)}
{mask}      %mx = tile.reduce %s, %ninf dim = 1 : {f32(BM, BN)}, f32 -> {f32(BM)} {{
      ^bb0(%a: f32, %b: f32):
        %r = arith.maximumf %a, %b : f32
        tile.yield %r : f32
      }}
      %mn = tile.map (%m, %mx) : ({f32(BM)}, {f32(BM)}) -> {f32(BM)} {{
      ^bb0(%a: f32, %b: f32):
        %bs = arith.mulf %b, %scale : f32
        %r = arith.maximumf %a, %bs : f32
        tile.yield %r : f32
      }}
      %mb = tile.broadcast %mn [1] : {f32(BM)} -> {f32(BM, BN)}
      %p = tile.map (%s, %mb) : ({f32(BM, BN)}, {f32(BM, BN)}) -> {f32(BM, BN)} {{
      ^bb0(%a: f32, %b: f32):
        %as = arith.mulf %a, %scale : f32
        %d = arith.subf %as, %b : f32
        %e = math.exp %d : f32
        tile.yield %e : f32
      }}
      %ls = tile.reduce %p, %zero dim = 1 : {f32(BM, BN)}, f32 -> {f32(BM)} {{
      ^bb0(%a: f32, %b: f32):
        %r = arith.addf %a, %b : f32
        tile.yield %r : f32
      }}
      %alpha = tile.map (%m, %mn) : ({f32(BM)}, {f32(BM)}) -> {f32(BM)} {{
      ^bb0(%a: f32, %b: f32):
        %d = arith.subf %a, %b : f32
        %e = math.exp %d : f32
        tile.yield %e : f32
      }}
      %ln = tile.map (%l, %alpha, %ls) : ({f32(BM)}, {f32(BM)}, {f32(BM)}) -> {f32(BM)} {{
      ^bb0(%a: f32, %b: f32, %c: f32):
        %t = arith.mulf %a, %b : f32
        %r = arith.addf %t, %c : f32
        tile.yield %r : f32
      }}
      %ab = tile.broadcast %alpha [1] : {f32(BM)} -> {f32(BM, D)}
      %accs = tile.map (%acc, %ab) : ({f32(BM, D)}, {f32(BM, D)}) -> {f32(BM, D)} {{
      ^bb0(%a: f32, %b: f32):
        %r = arith.mulf %a, %b : f32
        tile.yield %r : f32
      }}
      %pb = tile.cast %p : {f32(BM, BN)} -> {bf(BM, BN)}
      %tv = tile.load %v[%kr, %c0] : {v} -> {bf(BN, D)}
      %acc2 = tile.dot %pb, %tv, %accs : {bf(BM, BN)}, {bf(BN, D)} -> {f32(BM, D)}
      scf.yield %acc2, %mn, %ln : {f32(BM, D)}, {f32(BM)}, {f32(BM)}
    }}
    %lb = tile.broadcast %res#2 [1] : {f32(BM)} -> {f32(BM, D)}
    %out = tile.map (%res#0, %lb) : ({f32(BM, D)}, {f32(BM, D)}) -> {f32(BM, D)} {{
    ^bb0(%a: f32, %b: f32):
      %r = arith.divf %a, %b : f32
      tile.yield %r : f32
    }}
    %ob = tile.cast %out : {f32(BM, D)} -> {bf(BM, D)}
    tile.store %ob, %o[%m0, %c0] : {bf(BM, D)}, {o}
  }}
  return
}}""")
if ref:
    assert BH == 1
    t = lambda *s: "tensor<" + "x".join(map(str, s)) + ">"
    print(f"""
func.func @ref(%q: {t(S, D, 'bf16')}, %k: {t(S, D, 'bf16')}, %v: {t(S, D, 'bf16')}) -> {t(S, D, 'bf16')} {{
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant {scale!r} : f32
  %kt = tile.transpose %k : {t(S, D, 'bf16')} -> {t(D, S, 'bf16')}
  %s = tile.matmul %q, %kt : ({t(S, D, 'bf16')}, {t(D, S, 'bf16')}) -> {t(S, S, 'f32')}
  %rows = tile.iota dim = 0 : {t(S, S, 'i32')}
  %cols = tile.iota dim = 1 : {t(S, S, 'i32')}
  %ss = tile.map (%s, %rows, %cols) : ({t(S, S, 'f32')}, {t(S, S, 'i32')}, {t(S, S, 'i32')}) -> {t(S, S, 'f32')} {{
  ^bb0(%a: f32, %i: i32, %j: i32):
    %r = arith.mulf %a, %scale : f32
    %keep = arith.cmpi sle, %j, %i : i32
    %m = arith.select %keep, %r, %ninf : f32
    tile.yield {"%m" if causal else "%r"} : f32
  }}
  %max = tile.reduce %ss, %ninf dim = 1 : {t(S, S, 'f32')}, f32 -> {t(S, 'f32')} {{
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }}
  %mb = tile.broadcast %max [1] : {t(S, 'f32')} -> {t(S, S, 'f32')}
  %e = tile.map (%ss, %mb) : ({t(S, S, 'f32')}, {t(S, S, 'f32')}) -> {t(S, S, 'f32')} {{
  ^bb0(%a: f32, %b: f32):
    %d = arith.subf %a, %b : f32
    %x = math.exp %d : f32
    tile.yield %x : f32
  }}
  %sum = tile.reduce %e, %zero dim = 1 : {t(S, S, 'f32')}, f32 -> {t(S, 'f32')} {{
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }}
  %sb = tile.broadcast %sum [1] : {t(S, 'f32')} -> {t(S, S, 'f32')}
  %p = tile.map (%e, %sb) : ({t(S, S, 'f32')}, {t(S, S, 'f32')}) -> {t(S, S, 'bf16')} {{
  ^bb0(%a: f32, %b: f32):
    %d = arith.divf %a, %b : f32
    %x = arith.truncf %d : f32 to bf16
    tile.yield %x : bf16
  }}
  %o = tile.matmul %p, %v : ({t(S, S, 'bf16')}, {t(S, D, 'bf16')}) -> {t(S, D, 'f32')}
  %ob = tile.cast %o : {t(S, D, 'f32')} -> {t(S, D, 'bf16')}
  return %ob : {t(S, D, 'bf16')}
}}""")
