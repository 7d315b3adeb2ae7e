"""A @tile.jit function as a torch custom operator.

    @tile.jit
    def bias_gelu(x, w, b):
        return tl.gelu(x @ w + b)

    op = bias_gelu.torch_op("mylib::bias_gelu")
    y = op(x, w, b)                                 # eager
    f = torch.compile(lambda x, w, b: op(x, w, b) * 2, fullgraph=True)
    op.register_autograd(backward, setup_context=setup_context)

The operator is registered with ``torch.library.custom_op``, so torch
sees it as one opaque call: ``torch.compile`` graphs keep it whole
(``fullgraph=True`` does not break on it), and its fake implementation
gives the outputs' shapes and dtypes from the trace alone, without
compiling anything. Under CUDA graph capture (``torch.cuda.graph``, or
``torch.compile(mode="reduce-overhead")``) its launches are recorded like
any other: the runtime takes scratch from torch's allocator and writes
TMA descriptors with copies on the capturing stream (runtime.launcher).
Backward functions are torch's business: ``op.register_autograd`` pairs
one with the operator (it may call other tile operators).
"""

from __future__ import annotations

import inspect
from typing import Optional

from .errors import ArgumentError

_SCHEMA_TYPES = {float: "float", int: "int", bool: "bool", str: "str"}


def _schema_of(fn, outputs: int) -> str:
    """"(Tensor x, float alpha=0.5) -> Tensor" from the Python signature:
    unannotated parameters are tensors; float/int/bool/str annotations are
    constants of the trace (defaults kept)."""
    params = []
    for p in inspect.signature(fn.fn).parameters.values():
        if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            raise ArgumentError(f"{fn.name}: parameter '{p.name}' ({p.kind}) "
                                "cannot be an operator argument; pass schema=")
        kind = p.annotation
        if kind is p.empty or getattr(kind, "__name__", None) == "Tensor" \
                or kind == "Tensor":
            text = f"Tensor {p.name}"
        elif kind in _SCHEMA_TYPES:
            text = f"{_SCHEMA_TYPES[kind]} {p.name}"
        else:
            raise ArgumentError(f"{fn.name}: parameter '{p.name}' is annotated "
                                f"{kind!r}; use Tensor, float, int, bool or str, "
                                "or pass schema=")
        if p.default is not p.empty:
            if not text.startswith("Tensor"):
                text += f"={p.default!r}"
            else:
                raise ArgumentError(f"{fn.name}: tensor parameter '{p.name}' "
                                    "has a default; pass schema=")
        params.append(text)
    if outputs < 1:
        raise ArgumentError(f"{fn.name}: outputs must be at least 1")
    result = "Tensor" if outputs == 1 else \
        "(" + ", ".join(["Tensor"] * outputs) + ")"
    return f"({', '.join(params)}) -> {result}"


def torch_op(fn, name: str, *, outputs: int = 1, schema: Optional[str] = None):
    """Registers `fn` (a JITFunction) as the torch custom operator `name`
    ("namespace::name") and returns it (torch's CustomOpDef: call it, or
    ``register_autograd`` on it). `schema` defaults to the function's
    signature with `outputs` tensor results (see _schema_of)."""
    import torch

    from .dtypes import dtype as as_dtype
    from .language import TensorSpec, trace

    if "::" not in name:
        raise ArgumentError(f"operator name '{name}' needs a namespace: "
                            "'mylib::op'")

    def run(*args, **kwargs):
        return fn(*args, **kwargs)

    op = torch.library.custom_op(name, run, mutates_args=(),
                                 schema=schema or _schema_of(fn, outputs))

    @op.register_fake
    def _outputs_of_the_trace(*args, **kwargs):
        values = fn._bind(args, kwargs)
        params, device = [], None
        for pname, v in zip(fn._params, values):
            if isinstance(v, torch.Tensor):
                # A symbolic size is specialized: a tile kernel is compiled
                # for one shape.
                params.append((pname, TensorSpec(tuple(int(d) for d in v.shape),
                                                 as_dtype(v.dtype))))
                device = device or v.device
            else:
                params.append((pname, v))
        traced = trace(fn.fn, params, fn.name)
        results = [torch.empty(tuple(o.shape), dtype=o.dtype.torch(),
                               device=device) for o in traced.outputs]
        return results[0] if len(results) == 1 else tuple(results)

    return op
