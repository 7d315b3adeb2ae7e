//===- Passes.td - Tile conversion passes ------------------*- tablegen -*-===//

#ifndef TILE_CONVERSION_PASSES_TD
#define TILE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTileKernelToGPUPass : Pass<"convert-tile-kernel-to-gpu", "ModuleOp"> {
  let summary = "Turn tile.kernel into gpu.launch";
  let description = [{
    Each `tile.kernel` becomes a `gpu.launch` with its grid and thread count
    and the kernel's name as the launch's `function`/`module`, so that
    upstream `gpu-kernel-outlining` produces a `gpu.func` of that name.
    `tile.program_id` becomes `gpu.block_id`. Tile values inside are left for
    `convert-tile-to-simt`.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::arith::ArithDialect"];
}

def OutlineKernelsPass : Pass<"tile-outline-kernels", "ModuleOp"> {
  let summary = "gpu-kernel-outlining, keeping the launches' NVVM launch bounds";
  let description = [{
    Runs upstream `gpu-kernel-outlining`, which drops a `gpu.launch`'s own
    attributes, and puts the launch's `nvvm.*` attributes (the
    `nvvm.minctasm` that `convert-tile-kernel-to-gpu` makes from
    `tile.kernel`'s `min_programs_per_sm`) on the `gpu.func` outlined from
    it, where `convert-gpu-to-nvvm` carries them to the LLVM function.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def ConvertTileToSIMTPass : Pass<"convert-tile-to-simt", "ModuleOp"> {
  let summary = "Lower tile values to per-thread vectors (SIMT, no tensor cores)";
  let description = [{
    Inside each `gpu.launch`, a `!tile.tile<...>` held by the launch's T
    threads becomes a `vector<P x elt>` per thread, P = max(1, elements / T),
    in the strided layout of docs/layouts.md: slot k of thread t holds
    element (k * T + t) mod elements, row-major. Elementwise ops vectorize
    their scalar region; loads and stores become masked gathers and scatters
    bounded by the memref's shape; reductions, broadcasts and dots exchange
    data through dynamic shared memory (one region, reused, sized on the
    launch).
  }];
  let options = [
    Option<"asyncCopies", "async-copies", "bool", /*default=*/"true",
           "Lower tile.copy_async to cp.async (sm_80 and later); without, "
           "to plain loads and stores">,
    Option<"sharedMemoryPerSm", "shared-memory-per-sm", "int64_t",
           /*default=*/"0",
           "The target's shared memory per SM in bytes: a launch asking for "
           "N programs per SM (nvvm.minctasm) whose N programs' shared "
           "memory, with the 1 KB the hardware keeps per program, does not "
           "fit is an error (0: not checked)">
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def ConvertTileMatmulToWGMMAPass
    : Pass<"convert-tile-matmul-to-wgmma", "ModuleOp"> {
  let summary = "Hopper matmul kernels: TMA ring, warp-specialized wgmma";
  let description = [{
    Rewrites each tile-level matmul kernel (the K loop of `tile.load` A and
    B tiles into `tile.dot`, stored after the loop, as `tile-tile` makes it)
    with bf16 or f16 operands into the sm_90a structure of the fastest
    Hopper GEMMs:

    - a block tile of 128 x `block-n` x 64; a persistent grid of
      `persistent-programs` programs walks the tiles (program p takes tiles
      p, p + P, ...), ordered in groups of 8 block-rows so that tiles in
      flight together share B in L2;
    - a ring of `stages` shared-memory buffers filled by TMA
      (`nvgpu.tma.async.load`, 128-byte swizzle) and tracked by "full" and
      "empty" mbarriers;
    - warp specialization: warpgroup 0 is the producer (one thread issues
      the copies; `setmaxnreg` gives its registers away), warpgroups 1 and 2
      are consumers, each multiplying 64 rows with `nvgpu.warpgroup.mma`
      (wgmma m64n`block-n`k16, accumulators in registers), releasing a stage
      as soon as the wgmma group reading it has completed;
    - an epilogue that moves each consumer's accumulators through its own
      shared-memory slab, 32 columns at a time, and writes rows of 4
      elements per thread, masked at the edges and converted to the
      output's element type. The slabs are apart from the ring, so the
      producer fills the ring with the next tile's stages while the
      consumers store this one.

    Edges are handled by TMA's zero fill (loads) and masks (stores), so any
    M, N, K works, provided TMA's alignment holds: row strides of A, B and C
    must be multiples of 16 bytes (K and N multiples of 8 for bf16). A
    kernel that breaks it stays on the SIMT path, with a remark that says
    why. One pass does promotion, pipelining and MMA mapping here for the
    Hopper path; splitting it into tile-promote / tile-pipeline / tile-mma
    is planned (docs/pipeline.md).
  }];
  let options = [
    Option<"stages", "stages", "int64_t", /*default=*/"4",
           "Shared-memory stages in the TMA ring">,
    Option<"blockN", "block-n", "int64_t", /*default=*/"256",
           "Block tile N (64, 128 or 256; M is 128, K is 64)">,
    Option<"groupRows", "group-rows", "int64_t", /*default=*/"8",
           "Block-rows per group of the tile order (tiles in flight together "
           "share B in L2)">,
    Option<"persistentPrograms", "persistent-programs", "int64_t",
           /*default=*/"132",
           "Programs of the persistent grid, each looping over tiles (132: "
           "the SMs of an H100 SXM or H200); 0 launches one program per "
           "tile">
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def ConvertTileMatmulToMMASyncPass
    : Pass<"convert-tile-matmul-to-mma-sync", "ModuleOp"> {
  let summary = "Ampere matmul kernels: cp.async ring, ldmatrix, mma.sync";
  let description = [{
    Rewrites each tile-level matmul kernel (the K loop of `tile.load` A and
    B tiles into `tile.dot`, stored after the loop, as `tile-tile` makes it)
    with bf16 or f16 operands into the sm_80 structure of CUTLASS's Ampere
    GEMMs, which every later chip runs too:

    - a block tile of 128 x `block-n` x 32 with warps of 64 x 64 (2 x 2
      warps for 128, 2 x 4 for 256), one program per tile, programs ordered
      in groups of 8 block-rows so that neighbours share B in L2;
    - a ring of `stages` shared-memory buffers filled with 16-byte
      `cp.async` (`nvgpu.device_async_copy`, zero-filling past the ragged
      M, N and K edges), one async group per K step, waited on with
      `nvgpu.device_async_wait` and one barrier per step; shared rows are
      padded by 16 bytes so that `ldmatrix` and `cp.async` hit every bank
      once;
    - `nvgpu.ldmatrix` fetches A fragments (and B fragments transposed,
      since B is K x N row-major); m16n8k16 `mma.sync` accumulates in f32
      registers (`nvgpu.mma.sync` for f16; `nvvm.mma.sync` for bf16, which
      MLIR 22's nvgpu-to-nvvm lowering does not type);
    - an epilogue straight from the accumulator fragments: each thread
      holds 2 consecutive columns of 2 rows per 16 x 8 tile, evaluates the
      fused epilogue on them, and stores them masked at the edges,
      converted to the output's element type.

    16-byte copies need 16-byte-aligned rows: row strides of A, B and the
    output must be multiples of 16 bytes (K and N multiples of 8 for bf16).
    A kernel that breaks it stays on the SIMT path, with a remark that says
    why.
  }];
  let options = [
    Option<"stages", "stages", "int64_t", /*default=*/"3",
           "Shared-memory stages in the cp.async ring (2 to 8)">,
    Option<"blockN", "block-n", "int64_t", /*default=*/"0",
           "Block tile N: 128 (4 warps) or 256 (8 warps); 0 picks 256 "
           "where that still makes at least 256 programs">
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def ApproximateMathPass : Pass<"tile-approximate-math"> {
  let summary = "Fast hardware approximations for f32 tanh, exp and division";
  let description = [{
    Marks f32 `arith.divf` with the `afn` fast-math flag (NVPTX then
    selects `div.approx.f32` instead of the IEEE division), replaces f32
    `math.exp` with `ex2.approx.ftz.f32` of `x * log2(e)` (results below
    2^-126 flush to zero) and f32 `math.tanh` with the GPU's
    `tanh.approx.f32` (inline PTX, one special-function-unit instruction,
    sm_75 and later; relative error about 2^-11) instead of libdevice's
    accurate `expf` and `tanhf`; scalars and fixed 1-D vectors. Opt-in (`tile-to-nvvm{fast-math=1}`,
    `tile-compile --fast-math`): good enough for results rounded to bf16 or
    f16, not for f32 results checked at 1e-5.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::vector::VectorDialect"];
}

def LogisticTanhPass : Pass<"tile-logistic-tanh"> {
  let summary = "f32 1 + tanh(z) and 1 - tanh(z) as 2 / (1 + 2^(-+2 log2(e) z))";
  let description = [{
    Rewrites `arith.addf` of an f32 `math.tanh` and the constant 1 (either
    order, scalars or fixed 1-D vectors) into `2 / (1 + 2^(-2 log2(e) z))`,
    and `arith.subf` of 1 and a tanh into the same with `+2 log2(e)`:
    a multiply, `ex2.approx.ftz.f32`, an FMA (`h = (1 + e) / 2`) and
    `rcp.approx.ftz.f32`, instead of libdevice's `tanhf` (both of its
    branches, about 17 instructions) and the add. The sum no longer cancels
    where tanh(z) nears -1 (or 1): measured on every f32 z in [-64, 64]
    (scripts/check-logistic.cu), 1 + tanh(z) is within 3.75 ulps for
    |z| <= 1 and 1.99 for z > 1 (tanhf's form: 5.68 and 1.03), and within
    about |z| ulps (63.4) for z < -1, where tanhf's form is off by up to
    1.7e7 ulps.
    The tanh-form GELU, `0.5 x (1 + tanh(...))`, is the use. Part of the
    exact pipeline; with fast math, tile-approximate-math's
    `tanh.approx.f32` is cheaper still (and less accurate).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect"];
}

def DivideByReciprocalPass : Pass<"tile-divide-by-reciprocal"> {
  let summary = "Exact f32 division by a broadcast divisor through its reciprocal";
  let description = [{
    An f32 vector `arith.divf` whose divisor is a `vector.broadcast` of one
    scalar (softmax's division by the row sum) pays for the IEEE division
    sequence on every lane. This pass computes the correctly rounded
    reciprocal `r = 1/s` once per divisor, then per lane `q0 = x*r`,
    `e = fma(-s, q0, x)`, `q = fma(e, r, q0)`: Markstein's correction,
    which rounds `q` exactly as `div.rn.f32` does while no intermediate
    leaves the normal range. Where any lane of the vector is outside that
    range (|x| < 2^-100, |q0| outside [2^-125, 2^125], a divisor outside
    [2^-125, 2^125], NaN, infinity), the whole vector takes the IEEE
    division instead (one `scf.if` per vector), so the result is bit for
    bit the IEEE quotient; a vector of zeros (a masked softmax's
    exp(-inf)) by a divisor in range is `x * r` there, also exact. Divisions already marked with fast-math flags
    (tile-approximate-math) are left as they are.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def NarrowMinMaxPass : Pass<"tile-narrow-min-max"> {
  let summary = "Min/max loop accumulators of widened bf16/f16 values kept narrow";
  let description = [{
    An `scf.for` value that is only ever combined by `arith.maximumf`
    (`minimumf`, `maxnumf`, `minnumf`) with values widened by `arith.extf`
    from one narrow float type (possibly through an `arith.select` with a
    constant that type holds exactly, a mask's filler), and that starts
    from such a constant, is carried in the narrow type and widened once
    after the loop. Widening is exact and monotonic, so the result is the
    same, NaN included. Softmax's max pass over bf16 then takes one packed
    `max.NaN.bf16x2` per two elements instead of a conversion and an f32
    max per element. The pipeline runs it for sm_80 and later, where PTX
    has the packed bf16 and f16 min/max.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def WidenBF16Pass : Pass<"tile-widen-bf16"> {
  let summary = "bf16 to f32 widening of vector pairs by shift and mask";
  let description = [{
    `arith.extf` from a vector of an even number of bf16 to f32 becomes
    integer work on the 32-bit words that hold each pair: the low element
    is the word shifted left by 16, the high one the word with its low 16
    bits cleared, then the lanes are interleaved back. This is the same
    value, bit for bit (bf16 is the high half of an f32), in one
    instruction per element; NVPTX's `cvt.f32.bf16` of the high half takes
    two (the half moved to a register of its own, then shifted).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect"];
}

#endif // TILE_CONVERSION_PASSES_TD
