"""@tile.kernel programs shared by test_kernel_api.py (a module of its own,
so that a child process traces exactly the same source and finds the same
cache key, and so that python/tools/aot_fill.py --tests can compile them
ahead of time for a GPU machine without the compiler)."""

import tile
import tile.kernel as tk


@tile.kernel(grid=lambda M, N: (tk.cdiv(M, 64), tk.cdiv(N, 64)), threads=128)
def add(X: tk.Buffer, Y: tk.Buffer, Out: tk.Buffer):
    pm, pn = tk.program_id(0), tk.program_id(1)
    x = tk.load(X, (pm * 64, pn * 64), (64, 64))      # masked at the edges
    y = tk.load(Y, (pm * 64, pn * 64), (64, 64))
    tk.store(Out, (pm * 64, pn * 64), x + y)


@tile.kernel(grid=lambda X, ROWS: (tk.cdiv(X.shape[0], ROWS),), threads=128)
def softmax(X: tk.Buffer, Y: tk.Buffer, ROWS=2):
    """Row softmax, ROWS rows per program, the whole row in one tile."""
    r0 = tk.program_id(0) * ROWS
    cols = tk.next_power_of_2(X.shape[1])
    x = tk.load(X, (r0, 0), (ROWS, cols), padding=float("-inf")).to(tk.f32)
    m = x.max(axis=1)
    e = tk.exp(x - m[:, None])
    y = e / e.sum(axis=1)[:, None]
    tk.store(Y, (r0, 0), y.to(Y.dtype))


BM, BN, BK = 64, 64, 32


@tile.kernel(grid=lambda M, N: (tk.cdiv(M, BM), tk.cdiv(N, BN)), threads=128)
def matmul(A: tk.Buffer["M", "K"], B: tk.Buffer["K", "N"],
           C: tk.Buffer["M", "N"]):
    """C = A @ B with a K loop: a plain matmul, so tensor cores where the
    target has them (bf16 / f16)."""
    m0 = tk.program_id(0) * BM
    n0 = tk.program_id(1) * BN
    acc = tk.zeros((BM, BN))
    for k in tk.range(0, A.shape[1], BK):
        a = tk.load(A, (m0, k), (BM, BK))
        b = tk.load(B, (k, n0), (BK, BN))
        acc = tk.dot(a, b, acc)
    tk.store(C, (m0, n0), acc.to(C.dtype))


@tile.kernel(grid=lambda M, N: (tk.cdiv(M, BM), tk.cdiv(N, BN)), threads=128)
def matmul_bias_relu(A: tk.Buffer["M", "K"], B: tk.Buffer["K", "N"],
                     bias: tk.Buffer["N"], C: tk.Buffer["M", "N"]):
    """relu(A @ B + bias): an elementwise epilogue after the K loop."""
    m0 = tk.program_id(0) * BM
    n0 = tk.program_id(1) * BN
    acc = tk.zeros((BM, BN))
    for k in tk.range(0, A.shape[1], BK):
        acc = tk.dot(tk.load(A, (m0, k), (BM, BK)),
                     tk.load(B, (k, n0), (BK, BN)), acc)
    b = tk.load(bias, (n0,), (BN,)).to(tk.f32)
    tk.store(C, (m0, n0), tk.relu(acc + b[None, :]).to(C.dtype))


@tile.kernel(grid=lambda M, N: (tk.cdiv(M, BM), tk.cdiv(N, BN)), threads=128)
def matmul_partial_k(A: tk.Buffer["M", "K"], B: tk.Buffer["K", "N"],
                     C: tk.Buffer["M", "N"]):
    """C = A[:, 32:] @ B[32:, :]: a K loop that does not start at 0."""
    m0 = tk.program_id(0) * BM
    n0 = tk.program_id(1) * BN
    acc = tk.zeros((BM, BN))
    for k in tk.range(32, A.shape[1], BK):
        acc = tk.dot(tk.load(A, (m0, k), (BM, BK)),
                     tk.load(B, (k, n0), (BK, BN)), acc)
    tk.store(C, (m0, n0), acc.to(C.dtype))


@tile.kernel(grid=lambda M, N: (tk.cdiv(M, 32), tk.cdiv(N, 32)), threads=128)
def matmul_accumulate(A: tk.Buffer["M", "K"], B: tk.Buffer["K", "N"],
                      C: tk.Buffer["M", "N"], D: tk.Buffer["M", "N"]):
    """D = C + A @ B: the accumulator starts from C; the loop is tk.fori."""
    m0 = tk.program_id(0) * 32
    n0 = tk.program_id(1) * 32
    start = tk.load(C, (m0, n0), (32, 32)).to(tk.f32)

    def step(k, acc):
        a = tk.load(A, (m0, k), (32, 16))
        b = tk.load(B, (k, n0), (16, 32))
        return tk.dot(a, b, acc)

    acc = tk.fori(0, A.shape[1], 16, start, step)
    tk.store(D, (m0, n0), acc.to(D.dtype))


#: The signatures the GPU tests launch, per kernel: the single source of
#: truth for test_kernel_api.py and python/tools/aot_fill.py --tests.
#: Every shape is ragged against its tiles.
GPU_SHAPES = {
    "add": [[("f32", (1000, 3001))] * 3,
            [("bf16", (127, 65))] * 3],
    "softmax": [[("f32", (333, 1025)), ("f32", (333, 1025))],
                [("bf16", (100, 4097)), ("bf16", (100, 4097)), 1]],
    "matmul": [[("bf16", (257, 192)), ("bf16", (192, 136)), ("bf16", (257, 136))],
               [("f32", (100, 70)), ("f32", (70, 90)), ("f32", (100, 90))]],
    "matmul_bias_relu": [[("bf16", (300, 256)), ("bf16", (256, 200)),
                          ("bf16", (200,)), ("bf16", (300, 200))]],
    "matmul_partial_k": [[("bf16", (200, 200)), ("bf16", (200, 136)),
                          ("bf16", (200, 136))]],
    "matmul_accumulate": [[("bf16", (129, 100)), ("bf16", (100, 77)),
                           ("f32", (129, 77)), ("f32", (129, 77))]],
}
