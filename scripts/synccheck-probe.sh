#!/usr/bin/env bash
#===- synccheck-probe.sh - Which instruction synccheck refuses -------------===#
#
# usage: scripts/synccheck-probe.sh   (on the GPU machine)
#
# Builds scripts/synccheck-probe.cu for sm_90a and runs each probe (one of
# mbarrier waits, bulk copies, TMA tensor copies, wgmma, setmaxnreg alone)
# plainly and under compute-sanitizer's synccheck; then, where torch is
# installed, a cuBLAS bf16 GEMM (its sm_90 kernels use wgmma and TMA) under
# synccheck. Prints one row per probe: plain result, synccheck result.
#
#===----------------------------------------------------------------------===#
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null) ||
  { echo "synccheck-probe: no compute-sanitizer"; exit 2; }
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
work="${OUT:-/tmp}/synccheck-probe"
mkdir -p "$work"
"$nvcc" -gencode arch=compute_90a,code=sm_90a -std=c++17 -o "$work/probe" \
  "$root/scripts/synccheck-probe.cu" -lcuda || exit 2
row() { # name, command...
  local name=$1; shift
  local plain sync
  plain=$(timeout 60 "$@" 2>&1 | tail -1)
  timeout 120 "$sanitizer" --tool synccheck "$@" >"$work/$name.log" 2>&1
  local rc=$?
  sync="exit $rc, $(grep -oE "ERROR SUMMARY: [0-9]+ errors?" "$work/$name.log" | tail -1)"
  grep -q "LAUNCH_FAILED\|unspecified launch failure" "$work/$name.log" && sync="$sync, launch failed"
  printf "%-12s | %-28s | %s\n" "$name" "$plain" "$sync"
}
printf "%-12s | %-28s | %s\n" probe plain synccheck
for p in syncthreads mbarrier hinted bulk tensor ring ring-hinted wgmma setmaxnreg \
    ring-tma ring-tma-one ring-tma-many; do
  row "$p" "$work/probe" "$p"
done
if python3 -c "import torch" 2>/dev/null; then
  row cublas python3 -c "
import torch
a = torch.randn(1024, 1024, device='cuda', dtype=torch.bfloat16)
c = a @ a
torch.cuda.synchronize()
print('cublas ok' if torch.allclose(c.float(), a.float() @ a.float(), rtol=2e-2, atol=1) else 'cublas wrong')"
fi
if python3 -c "import triton" 2>/dev/null; then
  # Triton's Hopper matmul over TMA descriptors (mbarrier ring, wgmma).
  cat >"$work/triton_tma.py" <<'PY'
import torch, triton, triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

@triton.jit
def matmul(a_desc, b_desc, c, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    m, n = tl.program_id(0) * BM, tl.program_id(1) * BN
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, K, BK):
        acc = tl.dot(a_desc.load([m, k]), b_desc.load([k, n]), acc)
    rows, cols = m + tl.arange(0, BM), n + tl.arange(0, BN)
    tl.store(c + rows[:, None] * N + cols[None, :], acc.to(tl.bfloat16))

a = torch.randn(1024, 1024, device="cuda", dtype=torch.bfloat16)
b = torch.randn(1024, 1024, device="cuda", dtype=torch.bfloat16)
c = torch.empty_like(a)
matmul[(8, 8)](TensorDescriptor.from_tensor(a, [128, 64]), TensorDescriptor.from_tensor(b, [64, 128]),
               c, 1024, 1024, BM=128, BN=128, BK=64, num_stages=4, num_warps=8)
torch.cuda.synchronize()
ok = torch.allclose(c.float(), a.float() @ b.float(), rtol=2e-2, atol=1)
print("triton ok" if ok else "triton wrong")
PY
  row triton python3 "$work/triton_tma.py"
fi
echo "logs: $work"
