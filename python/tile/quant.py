"""Packing helpers for tl.quantized_matmul (torch tensors in, torch tensors
out; docs/quantization.md has the layouts):

    qweight, scales = tile.quant.pack_int4(w, group_size=128)
    y = kernel(x, qweight, scales)      # tl.quantized_matmul(x, qweight, scales)

int4 and MXFP4 have a second layout, ``layout="mma"``: the same bytes
reordered for the tensor cores, each thread's bytes its mma.sync B
fragments (int4: 16 bytes a block of 128 along K, decoded by one logic op
per pair of values, K a multiple of 128; MXFP4: 4 bytes a block of 32,
one scale group, so the groups keep their scales, K a multiple of 32),
which ``tl.quantized_matmul(..., layout="mma")`` reads. ``to_mma_layout``
reorders a ``"rows"`` qweight.

Each ``pack_*`` quantizes a float weight w [N, K] (torch's Linear weight)
symmetrically per group of K (round to nearest); ``dequantize`` gives back
the float weight the kernel multiplies by (the reference for tests). The
helpers import torch when called.
"""

from __future__ import annotations

#: The e2m1 (MXFP4) values by code 0..7 (bit 3 is the sign).
E2M1_VALUES = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0)


def _groups(w, group_size: int):
    n, k = w.shape
    if k % group_size:
        raise ValueError(f"K = {k} is not a multiple of group_size = "
                         f"{group_size}")
    return w.float().reshape(n, k // group_size, group_size)


def _pack_nibbles(codes):
    """[N, K] integer codes 0..15 -> int8 [N, K / 2], the lower K index in
    the low nibble."""
    import torch

    codes = codes.to(torch.int32) & 0xF
    packed = codes[:, 0::2] | (codes[:, 1::2] << 4)
    return packed.to(torch.uint8).view(torch.int8)


#: Under layout="mma", the stored position p of each block of 4 R along K
#: holds K index perm(p) (tile.matmul's k_runs = R: 32 for int4, 8 for
#: MXFP4): p = R c + 4 t + 2 h + e holds 16 t + 8 h + 2 c + e.
def _mma_k_order(runs: int = 32, device=None):
    import torch

    p = torch.arange(4 * runs, device=device)
    c, t, h, e = p // runs, (p % runs) // 4, (p // 2) % 2, p % 2
    return 16 * t + 8 * h + 2 * c + e


#: The fragment runs of each format's layout="mma" (tile.matmul k_runs).
MMA_RUNS = {"int4": 32, "mxfp4": 8}


#: Under layout="mma", value v of each 8 stored values sits in nibble
#: NIBBLE_OF[v] of its little-endian 32-bit word (AWQ's order:
#: tile.unpack's `interleaved`).
_NIBBLE_OF = (0, 4, 1, 5, 2, 6, 3, 7)


#: MXFP4's layout="mma" packs each little-endian 32-bit word of 8 codes
#: bit by bit (tile.unpack's `bits`): bit b of value v of the word at bit
#: MXFP4_MMA_BITS[4 v + b]. Values 2 q and 2 q + 1 (a pair of bf16 in a
#: tensor-core fragment) sit 16 bits apart, so that one rotation of the
#: word and an and place a pair's sign at bits 15 / 31 and its exponent
#: and mantissa at bits 6-8 / 22-24 (the word and a rotation for q = 3):
#: 2.25 integer ops a pair where nibbles take 3.25 (bench/RESULTS.md,
#: session 52).
MXFP4_MMA_BITS = (0, 1, 2, 9, 16, 17, 18, 25, 10, 11, 12, 19, 26, 27, 28, 3,
                  4, 5, 6, 13, 20, 21, 22, 29, 14, 7, 8, 15, 30, 23, 24, 31)


def _pack_bits(codes, order=MXFP4_MMA_BITS):
    """[N, K] 4-bit codes (K a multiple of 8) -> int8 [N, K / 2], each word
    of 8 values in `order` (bit b of value v at word bit order[4 v + b])."""
    import torch

    n, k = codes.shape
    values = codes.to(torch.int64).reshape(n, k // 8, 8)
    words = torch.zeros(n, k // 8, dtype=torch.int64, device=codes.device)
    for v in range(8):
        for b in range(4):
            words |= ((values[:, :, v] >> b) & 1) << order[4 * v + b]
    as_bytes = torch.stack([(words >> (8 * i)) & 0xFF for i in range(4)],
                           dim=-1)
    return as_bytes.reshape(n, k // 2).to(torch.uint8).view(torch.int8)


def _unpack_bits(packed, order=MXFP4_MMA_BITS):
    """The inverse of _pack_bits: [N, K] codes 0..15."""
    import torch

    b = packed.view(torch.uint8).to(torch.int64)
    n, half = b.shape
    by = b.reshape(n, half // 4, 4)
    words = by[:, :, 0] | by[:, :, 1] << 8 | by[:, :, 2] << 16 | by[:, :, 3] << 24
    values = torch.zeros(n, half // 4, 8, dtype=torch.int64, device=b.device)
    for v in range(8):
        for bit in range(4):
            values[:, :, v] |= ((words >> order[4 * v + bit]) & 1) << bit
    return values.reshape(n, 2 * half).to(torch.int32)


def _mma_k_stored(codes, runs: int):
    """[N, K] codes in K order -> [N, K] in layout="mma"'s K order (no
    nibble order)."""
    n, k = codes.shape
    block = 4 * runs
    if k % block:
        raise ValueError(f"layout='mma' needs K a multiple of {block} but "
                         f"got K = {k}")
    order = _mma_k_order(runs, codes.device)
    return codes.reshape(n, k // block, block)[:, :, order].reshape(n, k)


def _mma_k_restored(values, runs: int):
    """The inverse of _mma_k_stored."""
    import torch

    n, k = values.shape
    block = 4 * runs
    codes = torch.empty_like(values)
    order = _mma_k_order(runs, values.device)
    codes.reshape(n, k // block, block)[:, :, order] = values.reshape(
        n, k // block, block)
    return codes


def _to_mma_codes(codes, runs: int = 32):
    """[N, K] codes in K order -> [N, K] in the stored order of
    layout="mma" (the K permutation, then the nibble order), ready for
    _pack_nibbles."""
    import torch

    n, k = codes.shape
    stored = _mma_k_stored(codes, runs)
    # Value v of a word goes to nibble _NIBBLE_OF[v]: nibble i holds value
    # _NIBBLE_OF.index(i).
    value_at = torch.tensor([_NIBBLE_OF.index(i) for i in range(8)],
                            device=codes.device)
    return stored.reshape(n, k // 8, 8)[:, :, value_at].reshape(n, k)


def _from_mma_codes(stored, runs: int = 32):
    """The inverse of _to_mma_codes."""
    import torch

    n, k = stored.shape
    nibble_of = torch.tensor(_NIBBLE_OF, device=stored.device)
    values = stored.reshape(n, k // 8, 8)[:, :, nibble_of].reshape(n, k)
    return _mma_k_restored(values, runs)


def to_mma_layout(qweight, format: str = "int4"):
    """A layout="rows" qweight [N, K / 2] of `format` ("int4": K a multiple
    of 128; "mxfp4": of 32) reordered into layout="mma"; the scales do not
    change."""
    if format not in MMA_RUNS:
        raise ValueError(f"layout='mma' is int4's and mxfp4's, not {format!r}")
    codes = _unpack_nibbles(qweight, signed=False)
    if format == "mxfp4":
        return _pack_bits(_mma_k_stored(codes, MMA_RUNS[format])).contiguous()
    return _pack_nibbles(_to_mma_codes(codes, MMA_RUNS[format])).contiguous()


def _unpack_nibbles(packed, signed: bool):
    import torch

    b = packed.view(torch.uint8).to(torch.int32)
    low, high = b & 0xF, b >> 4
    codes = torch.stack((low, high), dim=-1).reshape(b.shape[0], -1)
    if signed:
        codes = torch.where(codes >= 8, codes - 16, codes)
    return codes


def pack_int8(w, group_size: int = 128):
    """(qweight int8 [N, K], scales f32 [K / group_size, N]): q =
    round(w / s), s = max |w| / 127 per group."""
    import torch

    g = _groups(w, group_size)
    s = g.abs().amax(dim=-1, keepdim=True).clamp_min(1e-12) / 127.0
    q = torch.round(g / s).clamp(-128, 127).to(torch.int8)
    return q.reshape(w.shape).contiguous(), s.squeeze(-1).T.contiguous()


def pack_int4(w, group_size: int = 128, layout: str = "rows"):
    """(qweight int8 [N, K / 2], scales f32 [K / group_size, N]): signed
    values -8..7, q = round(w / s), s = max |w| / 7 per group, two per
    byte along K (layout="rows", the lower K index in the low nibble), or
    reordered for the tensor cores (layout="mma", K a multiple of 128)."""
    import torch

    if layout not in ("rows", "mma"):
        raise ValueError(f"unknown layout {layout!r} (expected 'rows' or 'mma')")
    g = _groups(w, group_size)
    s = g.abs().amax(dim=-1, keepdim=True).clamp_min(1e-12) / 7.0
    q = torch.round(g / s).clamp(-8, 7).to(torch.int32).reshape(w.shape)
    if layout == "mma":
        q = _to_mma_codes(q, MMA_RUNS["int4"])
    return _pack_nibbles(q).contiguous(), s.squeeze(-1).T.contiguous()


def pack_mxfp4(w, layout: str = "rows"):
    """(qweight int8 [N, K / 2], scales int8 [N, K / 32]): OCP MXFP4, one
    e8m0 scale 2^(e - 127) per 32 values, the spec's 2^(floor(log2 amax) -
    2) (e2m1's largest exponent is 2): the block's largest magnitude scales
    into [4, 8), and values above e2m1's 6 round to 6; each value rounded
    to the nearest e2m1. Two codes a byte along K (layout="rows", the lower
    K index in the low nibble), or reordered for the tensor cores
    (layout="mma": each block of 32 in fragment runs of 8; the scales the
    same)."""
    import torch

    if layout not in ("rows", "mma"):
        raise ValueError(f"unknown layout {layout!r} (expected 'rows' or 'mma')")
    g = _groups(w, 32)
    amax = g.abs().amax(dim=-1, keepdim=True).clamp_min(2.0 ** -126)
    # 6 = 1.5 * 2^2; within e8m0's 2^-127 .. 2^127 (a tiny block's codes
    # are rounded against the scale its byte means).
    e = (torch.floor(torch.log2(amax)) - 2).clamp(-127, 127)
    scaled = g / torch.exp2(e)
    grid = torch.tensor(E2M1_VALUES, device=w.device)
    codes = (scaled.abs().unsqueeze(-1) - grid).abs().argmin(dim=-1)
    codes = codes | ((scaled < 0).to(codes.dtype) << 3)
    scales = (e.squeeze(-1) + 127).clamp(0, 254).to(torch.uint8)
    codes = codes.reshape(w.shape)
    packed = (_pack_bits(_mma_k_stored(codes, MMA_RUNS["mxfp4"]))
              if layout == "mma" else _pack_nibbles(codes))
    return packed.contiguous(), scales.view(torch.int8).contiguous()


def dequantize(qweight, scales, zeros=None, *, group_size: int = 128,
               format: str = "int4", layout: str = "rows"):
    """The float32 weight [N, K] that tl.quantized_matmul multiplies by
    (before its rounding to x's dtype): (q - zeros) * scales."""
    import torch

    if layout == "mma":
        if format not in MMA_RUNS:
            raise ValueError("layout='mma' is int4's and mxfp4's")
        if format == "mxfp4":
            codes = _mma_k_restored(_unpack_bits(qweight), MMA_RUNS[format])
        else:
            codes = _from_mma_codes(_unpack_nibbles(qweight, signed=False),
                                    MMA_RUNS[format])
        qweight = _pack_nibbles(codes)

    if format == "mxfp4":
        codes = _unpack_nibbles(qweight, signed=False)
        grid = torch.tensor(E2M1_VALUES, device=qweight.device)
        values = grid[codes & 7] * torch.where(codes >= 8, -1.0, 1.0)
        e = scales.view(torch.uint8).to(torch.int32)
        # OCP e8m0: 2^(e - 127) built from its bits (e in f32's exponent
        # field; e = 0 the subnormal 2^-127, bit 22), so that no exp2 of the
        # device's math library is trusted with the subnormal; 255 is NaN.
        bits = torch.where(e == 0, torch.full_like(e, 1 << 22), e << 23)
        scale = torch.where(e == 255, float("nan"), bits.view(torch.float32))
        return values * scale.repeat_interleave(32, dim=1)
    q = (_unpack_nibbles(qweight, signed=True) if format == "int4"
         else qweight.to(torch.int32)).float()
    s = scales.float().T.repeat_interleave(group_size, dim=1)
    if zeros is not None:
        q = q - zeros.float().T.repeat_interleave(group_size, dim=1)
    return q * s
