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
  let summary = "Lower tile values to per-thread registers and instructions, by their layouts";
  let description = [{
    Inside each `gpu.launch`, a register tile becomes a `vector<S x elt>` per
    thread, S and the element each slot holds given by its layout
    (docs/layouts.md): `#tile.blocked` (or none: the launch's strided
    layout, slot k of thread t holding element (k * T + t) mod elements,
    in runs of 16 bytes where they fit), and the MMA family (`#tile.mma`,
    `#tile.dot_operand`, `#tile.slice`) through its linear map. A tile in
    shared memory becomes a flat view of its bytes. Elementwise ops
    vectorize their scalar region; loads and stores move 16-byte runs or
    masked gathers and scatters; reductions fold in registers, across
    lanes and through shared memory as the layout needs; `tile.wgmma`,
    mma.sync dots and `tile.convert_layout` into dot operands become the
    tensor cores' instructions; copies and barriers become cp.async, the
    TMA and mbarriers; `tile.warp_specialize` becomes branches on the
    thread id with setmaxnreg. Scratch shared memory (one region, reused)
    and the buffers' shared memory are sized on the launch.
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

def DependentLaunchesPass : Pass<"tile-dependent-launches", "ModuleOp"> {
  let summary = "Each launch of a host function overlaps the one before it (programmatic dependent launch, sm_90 on)";
  let description = [{
    A GPU runs two kernels of one stream one after the other: the second
    is launched only once the first has drained, about 1-2 us on an H200,
    which a short kernel pair (a split-K product and its reduction) pays in
    full. With programmatic dependent launch the second starts while the
    first finishes and waits for it on the GPU instead.

    For every host function, every `gpu.launch_func` of its entry block
    after the first is marked `tile.dependent_launch` (the bundle's
    `dependent`, launched with CUDA's programmatic stream serialization);
    its kernel begins with `griddepcontrol.wait` (inline PTX with a memory
    clobber), which returns once the launch before it has completed and
    its writes are visible, so no access moves ahead of it; for a launch
    that is not dependent it is a no-op. The kernel before does not signal
    (`griddepcontrol.launch_dependents`): the dependent launch starts as
    its blocks exit, just before it completes; signalled at that kernel's
    entry, the dependent launch waited resident for microseconds and ended
    later than without overlap. The kernels' modules must target sm_90 or
    later (griddepcontrol's first chip).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::gpu::GPUDialect"];
}

def ExternDynamicSharedPass : Pass<"tile-extern-dynamic-shared"> {
  let summary = "Dynamic shared memory declared extern, as CUDA's extern __shared__";
  let description = [{
    Gives the internal, uninitialized `[0 x T]` shared-memory globals that
    upstream's `convert-gpu-to-nvvm` makes for `gpu.dynamic_shared_memory`
    external linkage. The NVPTX backend then declares the window as
    `.extern .shared .align A .b8 name[]`, as CUDA does, instead of a
    one-byte static `.shared` variable that every access runs past:
    compute-sanitizer's synccheck fails the launch of such a kernel once
    TMA copies write its dynamic shared memory.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
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

def LowerFP8CastsPass : Pass<"tile-lower-fp8-casts"> {
  let summary = "arith.extf / arith.truncf of fp8 to PTX's paired conversions";
  let description = [{
    `arith.extf` from f8E4M3FN or f8E5M2 (scalars or 1-D vectors) becomes
    `nvvm.convert.f8x2.to.f16x2` on each pair of lanes (a lone lane paired
    with a zero), then an exact cast from f16; `arith.truncf` to fp8
    becomes a cast to f32, then `nvvm.convert.f32x2.to.f8x2` per pair,
    rounded to nearest even and saturated to the largest finite value
    (`satfinite`, as cuBLAS's fp8 outputs are; NaN stays NaN). LLVM has no
    fp8 types (fp8 values are i8 there) and arith-to-llvm no fp8 casts.
    The conversions are PTX's from sm_89 on: inside a gpu.module for an
    older chip, an fp8 cast is an error at its location.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::vector::VectorDialect"];
}

def PackedDequantPass : Pass<"tile-packed-dequant"> {
  let summary = "Dequantize into packed bf16 / f16 pairs";
  let description = [{
    Four rewrites of a dequantized weight's math, each bit-identical:
    - `arith.truncf` to bf16 / f16 of an f32 `arith.mulf` whose factors are
      an integer of at most 8 bits (`sitofp` / `uitofp`) and an `extf` from
      that same type (or a second such integer) becomes the multiply in
      the narrow type: the f32 product is exact, so it is rounded once
      either way, and a packed multiply does two values an instruction.
    - `sitofp` / `uitofp` to a vector of bf16 / f16 of 4-bit fields of
      32-bit words (the `shli` / `shrsi` by 28 of `tile.unpack`'s lowering)
      becomes one and-then-or / xor with 128.0's bits (bf16; 1024.0 for
      f16), one PTX `lop3.b32` a word (`llvm.inline_asm`), and one packed
      subtraction per two values.
    Other integer conversions to bf16 / f16 go through f32 (exact for 16
    bits or fewer), where tile-small-int-to-float takes them.
    - an MXFP4 (e2m1) code decoded through f32's bits and scaled by a
      bf16-exact scale, rounded to bf16
      (`truncf(mulf(mulf(bitcast((c & 7) << 22 | (c & 8) << 28), 2^126),
      s))` of 4-bit fields c), becomes the same bits placed in bf16 pairs
      (an and, two shifts and an and-or a word) and two packed multiplies
      (by 2^126 and by s) per two values (the codes +-0.5 are bf16
      subnormals times 2^126: checked on the H200 by
      matmul_mxfp4_tiny_scales_ragged).
    - a vector of bf16 / f16 `arith.bitcast` from integer math on one byte
      of a word (an e8m0 scale's decode, once a scale byte:
      `bitcast(trunci(f(extui(trunci(shrui(words, 8j))))))`), where f
      evaluated on all 256 bytes is `((e & m) << s) + b` below 2^16
      (then unsigned clamps by constants, as 16-bit lanes), becomes that
      math on the whole 32-bit word: bytes j and j + 2 are 16 bits apart,
      so an and, a shift and an add make both halves' bits, and the
      result is byte j's half (CSE shares the word with byte j +- 2).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::vector::VectorDialect"];
}

def SmallIntToFloatPass : Pass<"tile-small-int-to-float"> {
  let summary = "Integers of 16 bits or fewer to f32 by a magic-number add";
  let description = [{
    `arith.sitofp` / `arith.uitofp` of an integer of at most 16 bits (scalar
    or vector) to f32 becomes: the value extended to i32, plus the bits of
    1.5 * 2^23 (signed) or 2^23 (unsigned), bitcast to f32, minus that
    float. Exact for every such integer; an integer add and a float add at
    full rate instead of a conversion (16 per SM per clock on sm_90). A
    dequantized weight (int4, int8) converts every element. 4-bit fields of
    32-bit words (tile.unpack's lowering) need no extract: the field at bit
    l is the mantissa of 2^(23 - l) + n once and-ed out and or-ed (xor-ed
    with 8 << l as well, for signed fields) with that exponent.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect"];
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
