"""Packing helpers for tl.quantized_matmul (torch tensors in, torch tensors
out; docs/quantization.md has the layouts):

    qweight, scales = tile.quant.pack_int4(w, group_size=128)
    y = kernel(x, qweight, scales)      # tl.quantized_matmul(x, qweight, scales)

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


def pack_int4(w, group_size: int = 128):
    """(qweight int8 [N, K / 2], scales f32 [K / group_size, N]): signed
    values -8..7, q = round(w / s), s = max |w| / 7 per group, two per
    byte along K."""
    import torch

    g = _groups(w, group_size)
    s = g.abs().amax(dim=-1, keepdim=True).clamp_min(1e-12) / 7.0
    q = torch.round(g / s).clamp(-8, 7).to(torch.int32).reshape(w.shape)
    return _pack_nibbles(q).contiguous(), s.squeeze(-1).T.contiguous()


def pack_mxfp4(w):
    """(qweight int8 [N, K / 2], scales int8 [N, K / 32]): OCP MXFP4, one
    e8m0 scale 2^(e - 127) per 32 values (the largest power of two that
    keeps the block's largest magnitude within e2m1's 6), each value
    rounded to the nearest e2m1."""
    import torch

    g = _groups(w, 32)
    amax = g.abs().amax(dim=-1, keepdim=True).clamp_min(2.0 ** -126)
    e = torch.floor(torch.log2(amax)) - 2          # 6 = 1.5 * 2^2
    scaled = g / torch.exp2(e)
    grid = torch.tensor(E2M1_VALUES, device=w.device)
    codes = (scaled.abs().unsqueeze(-1) - grid).abs().argmin(dim=-1)
    codes = codes | ((scaled < 0).to(codes.dtype) << 3)
    scales = (e.squeeze(-1) + 127).clamp(0, 254).to(torch.uint8)
    return (_pack_nibbles(codes.reshape(w.shape)).contiguous(),
            scales.view(torch.int8).contiguous())


def dequantize(qweight, scales, zeros=None, *, group_size: int = 128,
               format: str = "int4"):
    """The float32 weight [N, K] that tl.quantized_matmul multiplies by
    (before its rounding to x's dtype): (q - zeros) * scales."""
    import torch

    if format == "mxfp4":
        codes = _unpack_nibbles(qweight, signed=False)
        grid = torch.tensor(E2M1_VALUES, device=qweight.device)
        values = grid[codes & 7] * torch.where(codes >= 8, -1.0, 1.0)
        e = scales.view(torch.uint8).to(torch.float32)
        return values * torch.exp2(e - 127).repeat_interleave(32, dim=1)
    q = (_unpack_nibbles(qweight, signed=True) if format == "int4"
         else qweight.to(torch.int32)).float()
    s = scales.float().T.repeat_interleave(group_size, dim=1)
    if zeros is not None:
        q = q - zeros.float().T.repeat_interleave(group_size, dim=1)
    return q * s
