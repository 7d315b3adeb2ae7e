//===- TileOps.td - Tile dialect operations ----------------*- tablegen -*-===//
//
// Operations of both levels. `map`, `reduce`, `broadcast` and `cast` act on
// ranked tensors (tensor level) and on !tile.tile values (tile level) alike;
// `matmul` is tensor level only; the rest are tile level.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_OPS_TD
#define TILE_OPS_TD

include "tile/Dialect/Tile/IR/TileDialect.td"
include "tile/Dialect/Tile/IR/TileTypes.td"
include "tile/Dialect/Tile/IR/TileAttrs.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

def Tile_TensorOrTile : AnyTypeOf<[AnyRankedTensor, Tile_TileType],
                                  "ranked tensor or tile">;

//===----------------------------------------------------------------------===//
// Tensor level
//===----------------------------------------------------------------------===//

def Tile_MatmulOp : Tile_Op<"matmul", [Pure, AttrSizedOperandSegments]> {
  let summary = "Matrix product of two rank-2 tensors, accumulated in f32";
  let description = [{
    `tile.matmul %a, %b` computes `C[i, j] = sum_k A[i, k] * B[k, j]` with
    f32 accumulation. Operands have the same float element type (f16, bf16
    or f32; fp8 operands may mix e4m3 and e5m2); the result is f32. Casting
    the result (to bf16, say) is a separate `tile.cast` that fusion folds
    into the kernel's epilogue.

    With `scales(%sa, %sb) block [gm, gk, gn]` (rank-2 operands only), each
    product is scaled by the f32 scale of its A block and its B block
    (DeepSeek-V3's and torch._scaled_mm's block scaling):
    `C[i, j] = sum_k A[i, k] * B[k, j] * SA[i / gm, k / gk] * SB[k / gk, j / gn]`,
    with SA of shape [ceil(M / gm), ceil(K / gk)] and SB of
    [ceil(K / gk), ceil(N / gn)] (integer division; either may lack its
    unit dimensions, as the Python frontend's tensors do). The kernel applies the
    scales once per K block of gk, to that block's partial product in f32:
    the promotion that keeps fp8 accumulation exact to f32 between blocks.
    A scale that varies only along M or N (per row, per column, per
    tensor) needs no block: multiply in the epilogue instead.

    With `k_runs = W` (8, 16 or 32; rank-2 operands, K a multiple of 4 W),
    B's rows are stored in the order in which mma.sync's B fragments lie
    in four runs of W (a weight packed for the tensor cores,
    docs/quantization.md): in each block of 4 W along K, B's row
    `W c + 4 t + 2 h + e` (c < 4, t < W / 4, h, e < 2) meets A's column
    `16 t + 8 h + 2 c + e`, so `C[i, j] = sum_p A[i, perm(p)] * B[p, j]`.
    Each thread then reads its share of a row of the stored weight as one
    run while A keeps its own order (ldmatrix). The tensor cores take it
    for a B dequantized in registers (a weight-only quantized matmul, its
    groups along K multiples of 4 W); any other B runs on SIMT FMAs.

    ```mlir
    %c = tile.matmul %a, %b : (tensor<128x64xbf16>, tensor<64x256xbf16>) -> tensor<128x256xf32>
    %d = tile.matmul %x, %wt scales(%sx, %sw) block [1, 128, 128] : (tensor<256x512xf8E4M3FN>, tensor<512x384xf8E4M3FN>, tensor<256x4xf32>, tensor<4x3xf32>) -> tensor<256x384xf32>
    %e = tile.matmul %x, %wt k_runs = 32 : (tensor<16x4096xbf16>, tensor<4096x4096xbf16>) -> tensor<16x4096xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$lhs, AnyRankedTensor:$rhs,
                       Optional<AnyRankedTensor>:$scale_lhs,
                       Optional<AnyRankedTensor>:$scale_rhs,
                       OptionalAttr<DenseI64ArrayAttr>:$scale_block,
                       OptionalAttr<I64Attr>:$k_runs);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs (`scales` `(` $scale_lhs^ `,` $scale_rhs `)`)?
    (`block` $scale_block^)? (`k_runs` `=` $k_runs^)? attr-dict `:` `(` type($lhs) `,` type($rhs)
    (`,` type($scale_lhs)^ `,` type($scale_rhs))? `)` `->` type($result)
  }];
  let builders = [
    OpBuilder<(ins "Type":$result, "Value":$lhs, "Value":$rhs), [{
      build($_builder, $_state, result, lhs, rhs, Value(), Value(),
            DenseI64ArrayAttr(), IntegerAttr());
    }]>
  ];
  let extraClassDeclaration = [{
    /// Whether the products carry block scales (`scales(...) block [...]`).
    bool isBlockScaled() { return getScaleLhs() != nullptr; }
    /// The block-scale rules of the verifier (shapes, element types).
    ::mlir::LogicalResult verifyBlockScales();
    /// The shapes of SA and SB: [ceil(M / gm), ceil(K / gk)] and
    /// [ceil(K / gk), ceil(N / gn)] (the given ones may lack their unit
    /// dimensions). Block-scaled, rank-2 static operands only.
    std::array<::llvm::SmallVector<int64_t, 2>, 2> getScaleShapes();
    /// Whether tiles of `tile` rows (columns) fit scale blocks of `group`:
    /// one scale per row (column), or the tile within one block
    /// (tile-configure chooses by it, tile-tile checks it).
    static bool scaleBlockFitsTile(int64_t group, int64_t tile) {
      return group == 1 || group % tile == 0;
    }
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Both levels
//===----------------------------------------------------------------------===//

def Tile_MapOp : Tile_Op<"map", [Pure, SingleBlock]> {
  let summary = "Elementwise map with a scalar region";
  let description = [{
    Applies the region to the elements at each position of its operands,
    which all have the result's shape and are all tensors or all tiles. The
    region takes one scalar per operand (its element type) and yields one
    scalar of the result's element type. The region may hold only
    side-effect-free, elementwise operations (arith, math), so any chain of
    them can be fused and vectorized without new code.

    ```mlir
    %y = tile.map (%x, %b) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32> {
    ^bb0(%u: f32, %v: f32):
      %s = arith.addf %u, %v : f32
      tile.yield %s : f32
    }
    ```
  }];
  let arguments = (ins Variadic<Tile_TensorOrTile>:$inputs);
  let results = (outs Tile_TensorOrTile:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $inputs `)` attr-dict `:` `(` type($inputs) `)` `->` type($result) $body
  }];
  let hasVerifier = 1;
}

def Tile_ReduceOp : Tile_Op<"reduce", [Pure, SingleBlock]> {
  let summary = "Reduction along one dimension with a combiner region";
  let description = [{
    Folds the elements along dimension `dim` with the combiner region,
    starting from `init`. The combiner takes two scalars of the element type
    and yields one; it must be associative and commutative, and `init` must
    be its identity (0 for add, -inf for max): the compiler reorders the
    fold and pads partial tiles with `init`. The result drops dimension
    `dim`. Reduce a bf16 tensor in f32 by casting first.

    ```mlir
    %m = tile.reduce %x, %ninf dim = 1 : tensor<64x128xf32>, f32 -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.maximumf %a, %b : f32
      tile.yield %r : f32
    }
    ```
  }];
  let arguments = (ins Tile_TensorOrTile:$input, AnyType:$init,
                       I64Attr:$dim);
  let results = (outs Tile_TensorOrTile:$result);
  let regions = (region SizedRegion<1>:$combiner);
  let assemblyFormat = [{
    $input `,` $init `dim` `=` $dim attr-dict `:` type($input) `,` type($init)
    `->` type($result) $combiner
  }];
  let hasVerifier = 1;
}

def Tile_BroadcastOp : Tile_Op<"broadcast", [Pure]> {
  let summary = "Broadcast by inserting new dimensions";
  let description = [{
    `dims` lists, in increasing order, the result dimensions that the input
    does not have; the remaining result dimensions equal the input's, in
    order. `result[i, j] = input[i]` for `dims = [1]`.

    ```mlir
    %bb = tile.broadcast %b [0] : tensor<256xbf16> -> tensor<128x256xbf16>
    ```
  }];
  let arguments = (ins Tile_TensorOrTile:$input, DenseI64ArrayAttr:$dims);
  let results = (outs Tile_TensorOrTile:$result);
  let assemblyFormat = "$input $dims attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_RepeatOp : Tile_Op<"repeat", [Pure]> {
  let summary = "Each slice along one dimension repeated, as torch.repeat_interleave";
  let description = [{
    `result[..., i, ...] = input[..., i floordiv times, ...]` along `dim`:
    the result's `dim` is `times` times the input's. Grouped-query
    attention's keys and values (fewer heads than the queries): tile-fuse
    takes a repeat of K or V along the head dimension into the attention
    block, whose kernel reads the shared head (no copy). Elsewhere tile-tile
    has no kernel for it yet.

    ```mlir
    %kr = tile.repeat %k dim = 1 times = 4 : tensor<2x2x1000x64xbf16> -> tensor<2x8x1000x64xbf16>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, I64Attr:$dim, I64Attr:$times);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $input `dim` `=` $dim `times` `=` $times attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_UnpackOp : Tile_Op<"unpack", [Pure]> {
  let summary = "Two 4-bit values out of each byte, along the last dimension";
  let description = [{
    Each i8 of the input holds two 4-bit values, the low nibble first:
    `result[..., 2 j + h] = nibble h of input[..., j]`, sign-extended to i8
    with `signed` (two's complement, -8 .. 7), else zero-extended (0 .. 15).
    The last dimension doubles. This is the storage of int4 and MXFP4
    (e2m1) weights (docs/quantization.md); a tile.map then turns the values
    into numbers. Of tensors: tile-fuse reads it inside a matmul's K loop
    where it feeds the B operand (a weight dequantized in registers); alone,
    tile-tile makes it a kernel of its own. Of register tiles: a thread's
    bytes become its own values where the result's runs are twice the
    input's (tile-assign-layouts' choice), else they move through shared
    memory.

    With `interleaved` (AWQ's packing order; the input's last dimension a
    multiple of 4), each little-endian 32-bit word of 4 input bytes holds 8
    values with value `v` in nibble `v / 2 + 4 (v % 2)` (byte
    `(v / 2) / 2 + 2 (v % 2)`, nibble `(v / 2) % 2` of it): values 2 q and
    2 q + 1 sit 16 bits apart, where one logic op makes them a pair of
    16-bit floats (tile-packed-dequant).

    With `bits` (32 entries; the input's last dimension a multiple of 4),
    each little-endian 32-bit word holds 8 values with bit `b` of value `v`
    at bit `bits[4 v + b]` of the word, any permutation of 0 .. 31: a
    packing whose bits sit where a value's decode wants them. MXFP4's
    `layout="mma"` (docs/quantization.md) places each e2m1 pair of values
    2 q and 2 q + 1 so that one rotation of the word (two for the last
    pair) and an and put them in a pair of bf16 (tile-packed-dequant).

    ```mlir
    %q = tile.unpack %packed signed : tensor<4096x2048xi8> -> tensor<4096x4096xi8>
    %p = tile.unpack %awq signed interleaved : tensor<4096x2048xi8> -> tensor<4096x4096xi8>
    %e = tile.unpack %fp4 bits = [0, 1, 2, 9, 16, 17, 18, 25, 10, 11, 12, 19, 26, 27, 28, 3, 4, 5, 6, 13, 20, 21, 22, 29, 14, 7, 8, 15, 30, 23, 24, 31] : tensor<4096x2048xi8> -> tensor<4096x4096xi8>
    ```
  }];
  let arguments = (ins Tile_TensorOrTile:$input, UnitAttr:$sign_extend,
                       UnitAttr:$interleaved,
                       OptionalAttr<DenseI64ArrayAttr>:$bits);
  let results = (outs Tile_TensorOrTile:$result);
  let assemblyFormat = [{
    $input (`signed` $sign_extend^)? (`interleaved` $interleaved^)? (`bits` `=` $bits^)? attr-dict `:` qualified(type($input)) `->` qualified(type($result))
  }];
  let extraClassDeclaration = [{
    /// The nibble (0 .. 7, low nibble of byte 0 first) of its 32-bit word
    /// that value `v` (0 .. 7) of the word takes: `interleaved`'s order.
    static int64_t interleavedNibble(int64_t v) { return v / 2 + 4 * (v % 2); }
    /// The bit of its 32-bit word that holds bit `b` (0 .. 3) of value `v`
    /// (0 .. 7) of the word, in any of the orders.
    int64_t wordBit(int64_t v, int64_t b) {
      if (std::optional<ArrayRef<int64_t>> order = getBits())
        return (*order)[4 * v + b];
      return 4 * (getInterleaved() ? interleavedNibble(v) : v) + b;
    }
    /// Whether values come in whole 32-bit words (interleaved or bits).
    bool byWords() { return getInterleaved() || getBits().has_value(); }
  }];
  let hasVerifier = 1;
}

def Tile_CastOp : Tile_Op<"cast", [Pure]> {
  let summary = "Elementwise conversion of the element type";
  let description = [{
    Converts each element: float to float (extend or round to nearest even),
    signed integer to float, float to signed integer (toward zero), integer
    to integer (sign-extend or truncate). The shape is unchanged.

    ```mlir
    %y = tile.cast %acc : tensor<128x256xf32> -> tensor<128x256xbf16>
    ```
  }];
  let arguments = (ins Tile_TensorOrTile:$input);
  let results = (outs Tile_TensorOrTile:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_FusedOp : Tile_Op<"fused", [IsolatedFromAbove, SingleBlock]> {
  let summary = "A group of tensor-level ops that becomes one kernel";
  let description = [{
    Made by `tile-fuse`: the ops in the region (tensor-level tile ops and
    scalar constants) are compiled into one kernel, so the values between
    them live in registers or shared memory, never in device memory. The
    region's arguments stand for the operands; it yields the group's
    result. The first matmul (or, without one, the first op) is the root
    that sets the kernel's schedule; the ops after it are its epilogue.

    ```mlir
    %y = tile.fused (%a, %b, %bias) : (tensor<64x32xbf16>, tensor<32x16xbf16>, tensor<16xf32>) -> tensor<64x16xbf16> {
    ^bb0(%x: tensor<64x32xbf16>, %w: tensor<32x16xbf16>, %v: tensor<16xf32>):
      %c = tile.matmul %x, %w : (tensor<64x32xbf16>, tensor<32x16xbf16>) -> tensor<64x16xf32>
      %vb = tile.broadcast %v [0] : tensor<16xf32> -> tensor<64x16xf32>
      %s = tile.map (%c, %vb) : (tensor<64x16xf32>, tensor<64x16xf32>) -> tensor<64x16xf32> {
      ^bb0(%p: f32, %q: f32):
        %r = arith.addf %p, %q : f32
        tile.yield %r : f32
      }
      %o = tile.cast %s : tensor<64x16xf32> -> tensor<64x16xbf16>
      tile.yield %o : tensor<64x16xbf16>
    }
    ```
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$inputs);
  let results = (outs AnyRankedTensor:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $inputs `)` attr-dict `:` `(` type($inputs) `)` `->` type($result) $body
  }];
  let hasVerifier = 1;
}

def Tile_YieldOp : Tile_Op<"yield", [Pure, Terminator, ReturnLike,
                                     ParentOneOf<["MapOp", "ReduceOp", "FusedOp"]>]> {
  let summary = "Yields the result of a map, reduce or fused region";
  let description = [{
    ```mlir
    tile.yield %s : f32
    ```
  }];
  let arguments = (ins AnyType:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

//===----------------------------------------------------------------------===//
// Host level
//===----------------------------------------------------------------------===//

def Tile_TmaDescriptorOp : Tile_Op<"tma_descriptor", [Pure]> {
  let summary = "A TMA tensor map over a buffer, for the copy engine";
  let description = [{
    Stands, on the host, for a TMA descriptor (CUtensorMap) over `source`
    with a box of `box` elements per dimension (outermost first) and a
    shared-memory swizzle of `swizzle` bytes (0, 32, 64 or 128).
    Out-of-bounds elements read as zero. The runtime encodes it and passes a
    pointer to its 128 bytes in device memory (MLIR 22 cannot pass
    `!nvgpu.tensormap.descriptor` as a kernel argument).

    TMA needs the source's row strides to be multiples of 16 bytes: a bf16
    row of 4097 elements cannot use it; the verifier says so.

    ```mlir
    %d = tile.tma_descriptor %A box [128, 64] swizzle 128 : memref<4096x4096xbf16> -> !llvm.ptr
    ```
  }];
  let arguments = (ins AnyMemRef:$source, DenseI64ArrayAttr:$box,
                       I64Attr:$swizzle);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $source `box` $box `swizzle` $swizzle attr-dict `:` type($source) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tile level
//===----------------------------------------------------------------------===//

def Tile_KernelOp : Tile_Op<"kernel", [IsolatedFromAbove, SingleBlock,
    SingleBlockImplicitTerminator<"ReturnOp">]> {
  let summary = "A grid of programs over memref arguments";
  let description = [{
    Launches `grid` programs (one to three dimensions), each run by `threads`
    threads, over the operands (memrefs, or `!llvm.ptr` TMA descriptors made
    by `tile.tma_descriptor`). The body's block arguments stand for the
    operands inside the kernel (it is isolated from above); tile values live
    in the program's registers. `sym_name` names the GPU function it becomes.
    `dynamic_shared_memory` (bytes) is set by lowering passes that carve
    shared memory. `min_programs_per_sm` asks the backend to fit at least
    that many programs on one SM at once (it caps the registers per thread;
    `nvvm.minctasm` on the GPU function).

    ```mlir
    tile.kernel @add_0 grid [16, 4] threads 256 (%a, %b) : memref<128x64xf32>, memref<128x64xf32> {
    ^bb0(%A: memref<128x64xf32>, %B: memref<128x64xf32>):
      %pm = tile.program_id 0
      ...
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       Variadic<AnyType>:$args,
                       DenseI64ArrayAttr:$grid,
                       I64Attr:$threads,
                       OptionalAttr<I64Attr>:$dynamic_shared_memory,
                       OptionalAttr<I64Attr>:$min_programs_per_sm);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name `grid` $grid `threads` $threads (`(` $args^ `)` `:` type($args))?
    attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Register and shared-memory tiles within the lowering's bounds.
    ::mlir::LogicalResult verifyTileSizes(int64_t threads);
  }];
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "StringRef":$name, "ValueRange":$args,
                   "ArrayRef<int64_t>":$grid, "int64_t":$threads)>
  ];
}

def Tile_ReturnOp : Tile_Op<"return", [Pure, Terminator, ReturnLike,
    ParentOneOf<["KernelOp", "WarpSpecializeOp"]>]> {
  let summary = "Ends a kernel body or a partition";
  let description = [{
    Implicit in the custom forms of `tile.kernel` and `tile.warp_specialize`.

    ```mlir
    tile.return
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def Tile_ProgramIdOp : Tile_Op<"program_id", [Pure]> {
  let summary = "Index of this program in the kernel grid";
  let description = [{
    The coordinate of the running program along grid dimension `dim`.

    ```mlir
    %pm = tile.program_id 0
    ```
  }];
  let arguments = (ins I64Attr:$dim);
  let results = (outs Index:$result);
  let assemblyFormat = "$dim attr-dict";
  let hasVerifier = 1;
}

def Tile_LoadOp : Tile_Op<"load"> {
  let summary = "Load a tile from a memref, masked at its bounds";
  let description = [{
    Reads the tile whose first element sits at `indices` in `source`.
    Elements that fall outside `source` read `padding` (zero when absent),
    so partial tiles at ragged edges need no special case.

    With `in_bounds`, the producer asserts that the whole tile lies inside
    `source`, and lowerings drop the bounds checks (as with
    `vector.transfer_read`'s `in_bounds`); a tile that does not is
    undefined behavior. The verifier rejects it where the indices are
    constants.

    `l2_fetch = B` (64, 128 or 256; a load into registers from global
    memory) asks the L2 to fetch B-byte lines around each access (PTX
    `ld.global.L2::B`): a hint, the values read are the same. The
    prefetch of a config with `l2_fetch` sets it on the loads it moves
    ahead; convert-tile-to-simt gives it to each access of 2, 4 or 8
    bytes (inline PTX: LLVM's NVPTX has no such load), not to 16-byte
    runs.

    ```mlir
    %a = tile.load %A[%m0, %k] : memref<4095x1023xbf16> -> !tile.tile<128x64xbf16>
    %b = tile.load %A[%m0, %k] {in_bounds} : memref<4096x1024xbf16> -> !tile.tile<128x64xbf16>
    %s = tile.load %S[%n0, %g] {l2_fetch = 128 : i64} : memref<8192x256xi8> -> !tile.tile<64x8xi8>
    ```
  }];
  let arguments = (ins Arg<AnyMemRef, "", [MemRead]>:$source,
                       Variadic<Index>:$indices,
                       OptionalAttr<TypedAttrInterface>:$padding,
                       UnitAttr:$in_bounds,
                       OptionalAttr<I64Attr>:$l2_fetch);
  let results = (outs Tile_TileType:$result);
  let builders = [
    OpBuilder<(ins "Type":$result, "Value":$source, "ValueRange":$indices,
                   CArg<"TypedAttr", "{}">:$padding,
                   CArg<"bool", "false">:$inBounds), [{
      build($_builder, $_state, result, source, indices, padding, inBounds,
            IntegerAttr());
    }]>
  ];
  let assemblyFormat = [{
    $source `[` $indices `]` attr-dict `:` type($source) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tile_StoreOp : Tile_Op<"store"> {
  let summary = "Store a tile into a memref, masked at its bounds";
  let description = [{
    Writes the tile with its first element at `indices` in `dest`; elements
    that fall outside `dest` are not written. `in_bounds` asserts, as for
    `tile.load`, that the whole tile lies inside `dest`.

    ```mlir
    tile.store %c, %C[%m0, %n0] : !tile.tile<128x128xf32>, memref<4095x4097xf32>
    ```
  }];
  let arguments = (ins Tile_TileType:$value,
                       Arg<AnyMemRef, "", [MemWrite]>:$dest,
                       Variadic<Index>:$indices,
                       UnitAttr:$in_bounds);
  let assemblyFormat = [{
    $value `,` $dest `[` $indices `]` attr-dict `:` qualified(type($value)) `,` type($dest)
  }];
  let hasVerifier = 1;
}

def Tile_DotOp : Tile_Op<"dot", [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
                                 AllTypesMatch<["acc", "result"]>]> {
  let summary = "Tile matrix product accumulated into an f32 tile";
  let description = [{
    `result = acc + lhs * rhs` for an MxK and a KxN tile of the same float
    element type and an MxN f32 accumulator. `k_runs = W`: B's rows in
    the fragment-run order of tile.matmul's `k_runs` (K a multiple of
    4 W): `result = acc + sum_p lhs[:, perm(p)] * rhs[p, :]`; on mma.sync,
    B then takes #tile.dot_operand's `k_width = W` and A its own order.
    `lhs_k_runs = W`: A's columns in that order instead (the transposed
    product of a weight-only matmul, y^T = W x^T, whose computed W is A):
    `result = acc + sum_p lhs[:, p] * rhs[perm(p), :]`; on wgmma, A in
    registers then takes `k_width = W` (a thread's W stored columns of
    rows g and g + 8 are its fragments of W / 4 K steps of 16).

    ```mlir
    %d = tile.dot %a, %b, %acc : !tile.tile<64x16xf32>, !tile.tile<16x64xf32> -> !tile.tile<64x64xf32>
    ```
  }];
  let arguments = (ins Tile_TileType:$lhs, Tile_TileType:$rhs,
                       Tile_TileType:$acc, OptionalAttr<I64Attr>:$k_runs,
                       OptionalAttr<I64Attr>:$lhs_k_runs);
  let results = (outs Tile_TileType:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $acc (`k_runs` `=` $k_runs^)? (`lhs_k_runs` `=` $lhs_k_runs^)? attr-dict `:` qualified(type($lhs)) `,` qualified(type($rhs))
    `->` qualified(type($result))
  }];
  let builders = [
    OpBuilder<(ins "Type":$result, "Value":$lhs, "Value":$rhs, "Value":$acc), [{
      build($_builder, $_state, result, lhs, rhs, acc, IntegerAttr(),
            IntegerAttr());
    }]>,
    OpBuilder<(ins "Type":$result, "Value":$lhs, "Value":$rhs, "Value":$acc,
                   "IntegerAttr":$k_runs), [{
      build($_builder, $_state, result, lhs, rhs, acc, k_runs, IntegerAttr());
    }]>
  ];
  let extraClassDeclaration = [{
    /// K index of A that row `p` of B meets under `k_runs = runs` (the
    /// identity without it): perm(p) of tile.matmul's description.
    static int64_t kRunsColumn(int64_t runs, int64_t p) {
      if (runs <= 0)
        return p;
      int64_t block = p / (4 * runs), r = p % (4 * runs);
      int64_t c = r / runs, t = (r % runs) / 4, h = (r / 2) % 2, e = r % 2;
      return block * 4 * runs + 16 * t + 8 * h + 2 * c + e;
    }
    /// The inverse: the stored row (or, under lhs_k_runs, column) that
    /// holds K index `k`.
    static int64_t kRunsStored(int64_t runs, int64_t k) {
      if (runs <= 0)
        return k;
      int64_t block = k / (4 * runs), r = k % (4 * runs);
      int64_t t = r / 16, h = (r / 8) % 2, c = (r / 2) % 4, e = r % 2;
      return block * 4 * runs + runs * c + 4 * t + 2 * h + e;
    }
  }];
  let hasVerifier = 1;
}

def Tile_SplatOp : Tile_Op<"splat", [Pure]> {
  let summary = "A tile with every element equal to a scalar";
  let description = [{
    ```mlir
    %z = tile.splat %c0 : f32 -> !tile.tile<64x64xf32>
    ```
  }];
  let arguments = (ins AnyType:$value);
  let results = (outs Tile_TileType:$result);
  let assemblyFormat = "$value attr-dict `:` type($value) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def Tile_IotaOp : Tile_Op<"iota", [Pure]> {
  let summary = "A tile whose elements are their own index along a dimension";
  let description = [{
    Element `(i, j)` is `i` (`dim = 0`) or `j` (`dim = 1`), as a signless
    integer (i32 or i64): the positions that masks compare in a tile.map
    (a causal mask keeps the scores whose key is at most the query's
    position). Of a tile, positions in the tile (add its offsets); of a
    tensor, in the tensor (tile-tile adds each program's offsets).

    ```mlir
    %rows = tile.iota dim = 0 : !tile.tile<128x64xi32>
    %cols = tile.iota dim = 1 : tensor<4096x4096xi32>
    ```
  }];
  let arguments = (ins I64Attr:$dim);
  let results = (outs Tile_TensorOrTile:$result);
  let assemblyFormat = "`dim` `=` $dim attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def Tile_MaskOp : Tile_Op<"mask", [Pure, AllTypesMatch<["input", "result"]>,
                                   AttrSizedOperandSegments]> {
  let summary = "Replace the elements outside per-dimension bounds";
  let description = [{
    Keeps element `(i, j)` where `i < bounds[0]` and `j < bounds[1]` and
    replaces the others with `fill`. Tiling puts it before a reduction of a
    partial tile, with the reduction's identity as `fill`, so that whatever
    was computed on padding does not reach the result.

    With `at`, the tile's own offsets: keeps element `(i, j)` where
    `at[0] + i < bounds[0]` and `at[1] + j < bounds[1]`, compared as
    unsigned numbers, so that an offset before the start (a negative index)
    masks the elements before index 0 as well as those past the bounds.
    Bounds are sizes, never negative; offsets and bounds are below 2^62 in
    magnitude (the SIMT lowering clamps them to the tile once and compares
    32-bit positions).

    ```mlir
    %m = tile.mask %t, %ninf bounds [%rows, %cols] : !tile.tile<8x128xf32>, f32
    %r = tile.mask %t, %zero bounds [%c1, %n] at [%c0, %col] : !tile.tile<1x1024xf32>, f32
    ```
  }];
  let arguments = (ins Tile_TileType:$input, AnyType:$fill,
                       Variadic<Index>:$bounds, Variadic<Index>:$offsets);
  let results = (outs Tile_TileType:$result);
  let assemblyFormat = [{
    $input `,` $fill `bounds` `[` $bounds `]` (`at` `[` $offsets^ `]`)? attr-dict `:` qualified(type($input)) `,` type($fill)
  }];
  let builders = [
    OpBuilder<(ins "Type":$type, "Value":$input, "Value":$fill,
                   "ValueRange":$bounds), [{
      build($_builder, $_state, type, input, fill, bounds, ValueRange{});
    }]>
  ];
  let hasVerifier = 1;
}

def Tile_SharedOp : Tile_Op<"shared"> {
  let summary = "A buffer in the program's shared memory";
  let description = [{
    A statically shaped buffer in shared memory, private to one program and
    alive for the whole kernel. The SIMT lowering places each one in the
    launch's dynamic shared memory, 16-byte aligned, before any scratch
    space the lowering itself needs. Two `tile.shared` ops are two buffers.

    ```mlir
    %buf = tile.shared : memref<2x5120xbf16, #gpu.address_space<workgroup>>
    ```
  }];
  let results = (outs Res<AnyStaticShapeMemRef, "", [MemAlloc]>:$buffer);
  let assemblyFormat = "attr-dict `:` type($buffer)";
  let hasVerifier = 1;
}

def Tile_CopyAsyncOp : Tile_Op<"copy_async", [AttrSizedOperandSegments]> {
  let summary = "Start copying a tile from global to shared memory";
  let description = [{
    Starts copying the tile of `shape` at `sourceIndices` in `source` to
    `destIndices` in the shared-memory `dest`, without going through
    registers, as one group of asynchronous copies (`cp.async` with zero
    fill: elements past `source`'s bounds arrive as zeros). The copied
    elements are readable once a `tile.wait_async` has waited for the
    group, by the thread that copied them: a `tile.load` of the same tile
    shape from `dest` reads, in each thread, exactly what that thread copied,
    so no barrier is needed. Rows of `source` must be whole 16-byte runs.

    ```mlir
    tile.copy_async %x[%row, %c0], %buf[%slot, %c0] shape [1, 5120] : memref<16384x5120xbf16>, memref<2x5120xbf16, #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins Arg<AnyMemRef, "", [MemRead]>:$source,
                       Variadic<Index>:$sourceIndices,
                       Arg<AnyMemRef, "", [MemWrite]>:$dest,
                       Variadic<Index>:$destIndices,
                       DenseI64ArrayAttr:$shape);
  let assemblyFormat = [{
    $source `[` $sourceIndices `]` `,` $dest `[` $destIndices `]` `shape` $shape attr-dict `:` type($source) `,` type($dest)
  }];
  let hasVerifier = 1;
}

def Tile_WaitAsyncOp : Tile_Op<"wait_async"> {
  let summary = "Wait for all but the newest `pending` copy groups";
  let description = [{
    Blocks until at most `pending` of this thread's most recent
    `tile.copy_async` groups are still in flight (`cp.async.wait_group`).

    ```mlir
    tile.wait_async 1
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntNonNegative]>:$pending);
  let assemblyFormat = "$pending attr-dict";
}

//===----------------------------------------------------------------------===//
// Layouts, shared memory and asynchronous copies
//===----------------------------------------------------------------------===//

def Tile_ConvertLayoutOp : Tile_Op<"convert_layout", [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "The same tile in another layout";
  let description = [{
    Moves the elements of a tile between threads, or between registers and
    shared memory: register to register goes through shared memory; a tile
    in shared memory to a `#tile.dot_operand` of mma.sync is `ldmatrix`;
    a register tile to shared memory is stored there. tile-assign-layouts
    inserts it where two layouts meet, tile-mma before mma.sync operands.

    ```mlir
    %f = tile.convert_layout %a : !tile.tile<128x32xbf16, layout = #tile.shared<padding = 8>, memory_space = #gpu.address_space<workgroup>> -> !tile.tile<128x32xbf16, layout = #tile.dot_operand<0, #mma>>
    ```
  }];
  let arguments = (ins Tile_TileType:$input);
  let results = (outs Tile_TileType:$result);
  let assemblyFormat = [{
    $input attr-dict `:` qualified(type($input)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_TransposeOp : Tile_Op<"transpose", [Pure]> {
  let summary = "A tensor or tile with its last two dimensions swapped";
  let description = [{
    `result[..., i, j] = input[..., j, i]` (tiles: rank 2; tensors: rank 2
    or more, leading batch dimensions kept). Of tensors, tile-tile makes it
    a kernel
    of tile transposes, unless the consumer reads the operand transposed.
    Of a tile in shared memory, a view that
    moves nothing: the result has the input's `#tile.shared` layout with
    `transposed` flipped (tile-promote makes a transposed load feeding a
    dot one: wgmma reads it as a K-major B, ldmatrix without `.trans`).
    Of a register tile, the elements are exchanged through shared memory.

    ```mlir
    %kt = tile.transpose %k : !tile.tile<128x64xbf16> -> !tile.tile<64x128xbf16>
    %t = tile.transpose %a : tensor<4096x128xbf16> -> tensor<128x4096xbf16>
    ```
  }];
  let arguments = (ins Tile_TensorOrTile:$input);
  let results = (outs Tile_TensorOrTile:$result);
  let assemblyFormat = [{
    $input attr-dict `:` qualified(type($input)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tile_ViewOp : Tile_Op<"view", [Pure, AttrSizedOperandSegments]> {
  let summary = "A tile in one slot of a shared-memory buffer";
  let description = [{
    The tile stored at `indices` (one per leading dimension) of a
    `tile.shared` buffer whose trailing dimensions are the tile's shape:
    slot s of a ring of stages. The result aliases the buffer; the bytes
    of each slot follow the result's `#tile.shared` layout.

    With `column` = c, the slots are rank-2 rows wider than the tile
    ([R, W] for an [R, C] tile) and the tile is columns [c, c + C) of each
    slot: a part of a wider TMA box (tile-pipeline copies the K step's
    pieces of a packed weight as one box, whose short rows alone copy
    slowly). Such a tile keeps the slot's row pitch: its layout is
    unswizzled with `padding` = W - C, or, where the slot is swizzled (its
    rows in column blocks of the swizzle's bytes, a wgmma operand read
    K-major), the slot's swizzle, the tile within one column block and
    padded to its B columns (`padding` = B - C): its first byte is (c / B)
    blocks and (c mod B) elements into the slot, so that descriptors built
    from its address address the slot's swizzled bytes. Only tile.wgmma,
    K-major (its A, or its B transposed), may read a part that starts
    inside a block (other accesses count from a tile's first byte as if a
    block began there). Elements of whole bytes.

    With `rows` %r, the slots are rank-2 with more rows than the tile ([P,
    C] for an [R, C] tile, P a multiple of R) and the tile is rows [r, r +
    R) of each slot, r a multiple of R (not checked: a value): the part of
    a slot that one program of a thread-block cluster copies for all with
    tile.tma_load's `multicast`. A swizzled slot is then one column block
    (C elements of the swizzle's bytes: its rows lie one after the other)
    and R a multiple of the swizzle's 8-row atom, so that the part's bytes
    are the slot's from its row r on, in the same layout.

    ```mlir
    %a = tile.view %ring[%slot] : memref<4x128x64xbf16, #gpu.address_space<workgroup>> -> !tile.tile<128x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
    %w = tile.view %ring[%slot] column 64 : memref<8x64x128xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<padding = 64>, memory_space = #gpu.address_space<workgroup>>
    %x = tile.view %ring[%slot] column 96 : memref<8x16x256xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x32xbf16, layout = #tile.shared<swizzle = 128, padding = 32>, memory_space = #gpu.address_space<workgroup>>
    %h = tile.view %ring[%slot] rows %r : memref<4x256x128xf8E4M3FN, #gpu.address_space<workgroup>> -> !tile.tile<128x128xf8E4M3FN, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins AnyStaticShapeMemRef:$buffer, Variadic<Index>:$indices,
                       Optional<Index>:$row, OptionalAttr<I64Attr>:$column);
  let results = (outs Tile_TileType:$result);
  let assemblyFormat = [{
    $buffer `[` $indices `]` (`rows` $row^)? (`column` $column^)? attr-dict `:` type($buffer) `->` qualified(type($result))
  }];
  let builders = [
    OpBuilder<(ins "Type":$result, "Value":$buffer, "ValueRange":$indices), [{
      build($_builder, $_state, result, buffer, indices, Value(), IntegerAttr());
    }]>
  ];
  let hasVerifier = 1;
}

def Tile_AsyncLoadOp : Tile_Op<"async_load"> {
  let summary = "Start copying a tile from global memory into shared memory";
  let description = [{
    Every thread of the program starts 16-byte `cp.async` copies of its
    part of the tile at `indices` in `source` into `dest` (a tile in shared
    memory), zero-filled past `source`'s bounds; `source`'s rows must be
    whole 16-byte runs. The copies join the thread's next
    `tile.async_commit` group; once `tile.wait_async` has waited for it and
    a `tile.barrier` has passed, every thread may read the tile.

    ```mlir
    tile.async_load %A[%m0, %k], %slot : memref<4096x4096xbf16>, !tile.tile<128x32xbf16, layout = #tile.shared<padding = 8>, memory_space = #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins Arg<AnyMemRef, "", [MemRead]>:$source,
                       Variadic<Index>:$indices, Tile_TileType:$dest);
  let assemblyFormat = [{
    $source `[` $indices `]` `,` $dest attr-dict `:` type($source) `,` qualified(type($dest))
  }];
  let hasVerifier = 1;
}

def Tile_AsyncCommitOp : Tile_Op<"async_commit"> {
  let summary = "Close this thread's group of tile.async_load copies";
  let description = [{
    `cp.async.commit_group`: the copies started since the last commit form
    one group, which `tile.wait_async` counts.

    ```mlir
    tile.async_commit
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def Tile_TmaLoadOp : Tile_Op<"tma_load"> {
  let summary = "Copy a tile into shared memory with the TMA, on a barrier";
  let description = [{
    One thread of the program (or partition) announces the tile's bytes to
    barrier `index` of `barriers` (`mbarrier.arrive.expect_tx`) and asks
    the tensor memory accelerator to copy the tile at `indices` (row,
    column) of the tensor that `descriptor` (a `tile.tma_descriptor` made
    on the host) describes into `dest`, zero-filled past its bounds. The
    barrier completes its phase when all its arrivals have come and the
    bytes have landed. The descriptor's box is [rows, S / element bytes]
    for `dest`'s `#tile.shared<swizzle = S>`; a wider tile is several
    boxes. An unswizzled, unpadded `dest` of at most 256 x 256 is one box
    (a weight's packed bytes, read back as each thread's runs).

    With `multicast` (a mask of ranks of the launch's thread-block
    cluster, `%cluster_ctarank`), the copy lands at `dest`'s place in the
    shared memory of every program of the mask, and completes its bytes on
    barrier `index` of `barriers` there (TMA multicast: programs that read
    the same tile each copy a part of it for all). Every program of the
    mask is taken to copy a part as large to the same mask, so the bytes
    announced are `dest`'s times the programs of the mask: what lands in
    this program's shared memory. The launch must be clustered (the
    kernel's config's `cluster`), and no program of the mask may have left
    before the copy lands.

    ```mlir
    tile.tma_load %desc[%k, %n0], %b, %full[%slot] : !llvm.ptr, !tile.tile<64x256xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
    tile.tma_load %desc[%k, %n1], %half, %full[%slot] {multicast = 3} : !llvm.ptr, !tile.tile<64x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
    ```
  }];
  let arguments = (ins AnyType:$descriptor, Variadic<Index>:$indices,
                       Tile_TileType:$dest, AnyType:$barriers, Index:$index,
                       OptionalAttr<I64Attr>:$multicast);
  let builders = [
    OpBuilder<(ins "Value":$descriptor, "ValueRange":$indices, "Value":$dest,
                   "Value":$barriers, "Value":$index), [{
      build($_builder, $_state, descriptor, indices, dest, barriers, index,
            IntegerAttr());
    }]>
  ];
  let assemblyFormat = [{
    $descriptor `[` $indices `]` `,` $dest `,` $barriers `[` $index `]` attr-dict
    `:` type($descriptor) `,` qualified(type($dest)) `,` type($barriers)
  }];
  let hasVerifier = 1;
}

def Tile_TmaStoreOp : Tile_Op<"tma_store"> {
  let summary = "Store a register tile through shared memory with the TMA";
  let description = [{
    Writes `value` (a register tile in a tensor-core layout) with its
    first element at `indices` (row, column) of `dest`, through
    `descriptor` (a `tile.tma_descriptor` of `dest` made on the host, of a
    box [rows of `value`, 128 bytes] and a 128-byte swizzle); elements
    past its bounds are not written (the TMA clips them). The copies are
    asynchronous: nothing else in the kernel may read or write `dest`. The scope's threads write
    `value` a column block (128 bytes of each row) at a time into the
    slots of `staging` ([slots, rows, block columns], taken in turn), and
    one thread asks the TMA to copy each block out and goes on: the copy
    reads the slot while the next block is written into the other. A slot
    is written again only after the copy out of it has read it, and the
    scope waits for its copies to finish before it ends. The staging
    buffer is this op's alone (a `tile.shared` no other op uses).

    ```mlir
    tile.tma_store %c, %C[%m0, %n0] via %desc, %staging : !tile.tile<128x256xbf16, layout = #mma>, memref<4096x4096xbf16>, !llvm.ptr, memref<2x128x64xbf16, #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins Tile_TileType:$value,
                       Arg<AnyMemRef, "", [MemWrite]>:$dest,
                       AnyType:$descriptor, Variadic<Index>:$indices,
                       Arg<AnyStaticShapeMemRef, "", [MemReadAt<0, FullEffect>, MemWriteAt<0, FullEffect>]>:$staging);
  let assemblyFormat = [{
    $value `,` $dest `[` $indices `]` `via` $descriptor `,` $staging attr-dict `:`
    qualified(type($value)) `,` type($dest) `,` type($descriptor) `,` type($staging)
  }];
  let hasVerifier = 1;
}

def Tile_BarrierGroupOp : Tile_Op<"barrier_group"> {
  let summary = "A group of mbarriers, initialized once per program";
  let description = [{
    Creates `num_barriers` mbarriers in shared memory (the result type's)
    and has one thread initialize each to expect `arrivals` arrivals per
    phase, visible to every thread afterwards. It stands at the top of a
    kernel body, before any partition.

    ```mlir
    %full = tile.barrier_group arrivals 2 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
    ```
  }];
  let arguments = (ins I64Attr:$arrivals);
  let results = (outs AnyType:$barriers);
  let assemblyFormat = "`arrivals` $arrivals attr-dict `:` type($barriers)";
  let hasVerifier = 1;
}

def Tile_ArriveOp : Tile_Op<"arrive"> {
  let summary = "Each warp arrives once on a barrier";
  let description = [{
    Every warp of the program (or partition), once its lanes are done with
    what they did before, arrives on barrier `index` of `barriers`: how
    consumers give a ring slot back to its producer. A group that counts
    warps expects as many arrivals. With `every_thread`, each thread
    arrives instead (a group that counts threads): each thread's own
    arrival releases its stores to the threads that wait on the barrier
    (k_warpgroups' hand-off of partial sums through shared memory, which
    compute-sanitizer's racecheck then sees as ordered; a lane-0 arrival
    after a warp's __syncwarp it does not).

    With `ranks` (a mask of ranks of the launch's thread-block cluster),
    each warp arrives instead on barrier `index` of the same group in the
    shared memory of every program of the mask (its own where its rank is
    in it): how the consumers of a slot that tile.tma_load's `multicast`
    fills in several programs give it back to each of their producers. The
    arrival releases at CTA scope (the warp's reads of the slot, which
    tile.wgmma_wait completed, are all it orders), as CUTLASS's cluster
    barriers do: at cluster scope every arrival costs a GPU-wide fence.

    ```mlir
    tile.arrive %empty[%slot] : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
    tile.arrive %handoff[%c0] {every_thread} : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
    tile.arrive %empty[%slot] {ranks = 3} : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
    ```
  }];
  let arguments = (ins AnyType:$barriers, Index:$index,
                       UnitAttr:$every_thread, OptionalAttr<I64Attr>:$ranks);
  let builders = [
    OpBuilder<(ins "Value":$barriers, "Value":$index), [{
      build($_builder, $_state, barriers, index, UnitAttr(), IntegerAttr());
    }]>
  ];
  let assemblyFormat = "$barriers `[` $index `]` attr-dict `:` type($barriers)";
  let hasVerifier = 1;
}

def Tile_BarrierOp : Tile_Op<"barrier"> {
  let summary = "All threads of the program (or partition) wait for each other";
  let description = [{
    `bar.sync` over the program's threads, or inside a `tile.warp_specialize`
    partition over the partition's (a named barrier): shared memory written
    before it is visible to every such thread after it.

    ```mlir
    tile.barrier
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def Tile_ClusterBarrierOp : Tile_Op<"cluster_barrier"> {
  let summary = "All threads of the launch's thread-block cluster wait for each other";
  let description = [{
    Every thread of every program of the cluster arrives (`barrier.cluster
    .arrive.release`, after `fence.mbarrier_init.release.cluster`) and
    waits for the others (`.wait.acquire`): the barriers each program
    initialized, and what it wrote, are then visible to the cluster's other
    programs. At the top of a kernel whose programs fill each other's rings
    (tile.tma_load's `multicast`, tile.arrive's `ranks`), so that no program
    arrives on a peer's barrier before the peer initialized it, and at its
    end, so that no program exits while a peer may still arrive on its
    barriers. Threads that have exited do not count. It stays out of
    `tile.warp_specialize`'s partitions: every thread of the program runs
    it. The launch must be clustered (the kernel's config's `cluster`).

    ```mlir
    tile.cluster_barrier
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def Tile_TurnStartOp : Tile_Op<"turn_start"> {
  let summary = "Gives the first turn of `tile.turn_begin` to warpgroup 0";
  let description = [{
    With `tile.turn_begin` / `tile.turn_end`, the warpgroups of the program
    (or partition) take turns in order, 0, 1, ..., 0, 1, ...: the last
    warpgroup arrives on warpgroup 0's turn barrier, standing for the turn
    before the first. Once, before the first `tile.turn_begin`.

    ```mlir
    tile.turn_start
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def Tile_TurnBeginOp : Tile_Op<"turn_begin"> {
  let summary = "Waits for the warpgroup's turn";
  let description = [{
    Each warpgroup waits until the one before it (the last before 0) has
    ended its turn (`tile.turn_end`): a named barrier per warpgroup of its
    128 threads and the previous warpgroup's 128 (`bar.sync`).
    tile-pingpong puts one before each group of `tile.wgmma` issues, so
    that the warpgroups' products reach the tensor cores in turn while the
    others run their softmax. Every warpgroup must run the same number of
    turns.

    ```mlir
    tile.turn_begin
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def Tile_TurnEndOp : Tile_Op<"turn_end"> {
  let summary = "Ends the warpgroup's turn: the next one may begin";
  let description = [{
    Each warpgroup arrives on the next warpgroup's turn barrier
    (`bar.arrive`, the last on warpgroup 0's) without waiting.

    ```mlir
    tile.turn_end
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def Tile_LastArrivalOp : Tile_Op<"last_arrival"> {
  let summary = "Whether this program's arrival completes `count`";
  let description = [{
    A counter shared by the programs of a launch: the programs that work on
    one output tile (split-K's K ranges, stream-K's parts of a tile) each
    arrive once on `counters[index]`, after their global stores (released
    at GPU scope), adding `weight` (default 1: one program) to it. The
    result, the same in every thread of the program, is true in the
    program whose arrival brought the counter to `count` (with weight 1:
    the `count`-th program; stream-K adds each part's K steps, of a tile's
    `count`); that program then sees every earlier arrival's stores, and
    puts the counter back to 0. No program waits for another: the last one
    does what needs all of them (adds the partial sums in K order,
    deterministically). The counters must be zero before the launch (a
    `tile.zeroed` buffer: docs/bundle-format.md); each launch leaves them
    zero again. The stores it releases are the threads' own generic-proxy
    stores; stores issued through the async proxy (a TMA store) would have
    to be waited for and fenced first.

    ```mlir
    %last = tile.last_arrival %counters[%tile] of 4 : memref<64xi32>
    %done = tile.last_arrival %counters[%tile] of 64 adding %steps : memref<68xi32>
    ```
  }];
  let arguments = (ins Arg<MemRefRankOf<[I32], [1]>, "", [MemRead, MemWrite]>:$counters,
                       Index:$index, I64Attr:$count,
                       Optional<Index>:$weight);
  let results = (outs I1:$last);
  let assemblyFormat = [{
    $counters `[` $index `]` `of` $count (`adding` $weight^)? attr-dict `:` type($counters)
  }];
  let hasVerifier = 1;
}

def Tile_ClusterSumOp : Tile_Op<"cluster_sum", [
    MemoryEffects<[MemRead, MemWrite]>, AllTypesMatch<["input", "result"]>]> {
  let summary = "The sum of a register tile over the programs of a cluster";
  let description = [{
    The `size` programs of the launch's thread-block clusters (ranks 0 ..
    size - 1; split-K's K ranges of one output tile) each hold `input`; the
    result, in the program of rank 0, is their sum in rank order (the same
    sums on every run: no atomics). Each program of a higher rank writes
    its tile into rank 0's shared memory (distributed shared memory,
    `st.shared::cluster`), between two cluster barriers: the first so that
    every program of the cluster is running, the second releasing the
    writes to rank 0. Elsewhere the result is unspecified. Every thread of
    every program of the cluster must reach it (threads that have exited
    do not count), and the launch must be clustered by `size` (the
    kernel's config: `cluster = [1, 1, size]`).

    ```mlir
    %sum = tile.cluster_sum %acc of 2 : !tile.tile<64x128xf32, layout = #mma>
    ```
  }];
  let arguments = (ins Tile_TileType:$input, I64Attr:$size);
  let results = (outs Tile_TileType:$result);
  let assemblyFormat = "$input `of` $size attr-dict `:` qualified(type($input))";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tensor cores
//===----------------------------------------------------------------------===//

def Tile_WgmmaOp : Tile_Op<"wgmma", [MemoryEffects<[MemRead]>, AllTypesMatch<["acc", "result"]>]> {
  let summary = "Start a warpgroup matrix product (sm_90a)";
  let description = [{
    `result = acc + lhs * rhs` with `wgmma.mma_async`: operands are tiles in
    shared memory with `#tile.shared<swizzle = ...>` layouts, or `lhs` in
    registers in `#tile.dot_operand<0, the accumulator's layout>` (an
    attention kernel's probabilities; with `lhs_k_runs = W`, A's columns
    in tile.dot's `lhs_k_runs` order, in k_width W: a dequantized weight
    in the transposed product), the accumulator has a
    `#tile.mma<wgmma>` layout. Each warpgroup of the
    accumulator issues its instructions (instr N wide, K / 16 deep) and
    commits them as one group. The result may be used only as the `acc`
    of another tile.wgmma or by a `tile.wgmma_wait`, whose result then is
    the finished product; the operands' shared memory must stay unchanged
    until then. With `uniform_warp` (the kernel's config's, set by
    tile-mma) the warp's place comes from the warp index broadcast from
    lane 0 at the start of its scope (tile-to-simt), which ptxas knows to
    be the same in every lane.

    ```mlir
    %t = tile.wgmma %a, %b, %acc : !tile.tile<128x64xbf16, ...>, !tile.tile<64x256xbf16, ...> -> !tile.tile<128x256xf32, layout = #mma>
    ```
  }];
  let arguments = (ins Tile_TileType:$lhs, Tile_TileType:$rhs,
                       Tile_TileType:$acc, OptionalAttr<I64Attr>:$lhs_k_runs,
                       UnitAttr:$uniform_warp);
  let results = (outs Tile_TileType:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $acc (`lhs_k_runs` `=` $lhs_k_runs^)? (`uniform_warp` $uniform_warp^)? attr-dict `:` qualified(type($lhs)) `,` qualified(type($rhs))
    `->` qualified(type($result))
  }];
  let builders = [
    OpBuilder<(ins "Type":$result, "Value":$lhs, "Value":$rhs, "Value":$acc), [{
      build($_builder, $_state, result, lhs, rhs, acc, IntegerAttr(),
            UnitAttr());
    }]>
  ];
  let hasVerifier = 1;
}

def Tile_WgmmaWaitOp : Tile_Op<"wgmma_wait", [AllTypesMatch<["input", "result"]>]> {
  let summary = "Wait until at most `pending` wgmma groups are in flight";
  let description = [{
    `wgmma.wait_group pending`: returns once all but the `pending` most
    recent tile.wgmma groups of this warpgroup are complete. With
    `pending = 0` the result is the finished accumulator; with more, it is
    still in flight and may only feed the next tile.wgmma (the K loop's
    carried accumulator), while the groups before it, and the shared memory
    they read, are done.

    ```mlir
    %d = tile.wgmma_wait %t {pending = 1} : !tile.tile<128x256xf32, layout = #mma>
    ```
  }];
  let arguments = (ins Tile_TileType:$input,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$pending);
  let results = (outs Tile_TileType:$result);
  let assemblyFormat = "$input attr-dict `:` qualified(type($input))";
}

def Tile_RegisterFenceOp : Tile_Op<"register_fence", [
    MemoryEffects<[MemRead, MemWrite]>, AllTypesMatch<["input", "result"]>]> {
  let summary = "Pins the computation of a register tile to this point";
  let description = [{
    Returns `input` unchanged, but the backend may not move the code that
    computes `input` after this op, nor the code that reads the result
    before it: an empty volatile inline asm that reads and writes each of
    the thread's registers of the tile (CUTLASS's warpgroup_fence_operand).
    Instruction order is otherwise the backend's to choose; tile-overlap
    uses it to keep a promotion between two wgmma waits. Only on tiles of
    32-bit elements or 16-bit dot operands (their registers hold pairs),
    and never on an accumulator still in flight (the copies it may cause
    make ptxas serialize the wgmmas).

    ```mlir
    %s = tile.register_fence %sum : !tile.tile<128x128xf32, layout = #mma>
    ```
  }];
  let arguments = (ins Tile_TileType:$input);
  let results = (outs Tile_TileType:$result);
  let assemblyFormat = "$input attr-dict `:` qualified(type($input))";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Whether `type` is a tile this op takes: in registers, laid out,
    /// of 32-bit elements or a dot operand of 16-bit ones.
    static bool fences(::mlir::Type type);
  }];
}

//===----------------------------------------------------------------------===//
// Warp specialization
//===----------------------------------------------------------------------===//

def Tile_WarpSpecializeOp : Tile_Op<"warp_specialize", [
    SingleBlockImplicitTerminator<"ReturnOp">, RecursiveMemoryEffects]> {
  let summary = "Partitions of the program's threads running different code";
  let description = [{
    Partition i (region i) runs on `threads[i]` consecutive threads of the
    program, after the threads of the partitions before it, with
    `registers[i]` registers per thread (`setmaxnreg`; 0: unchanged). Inside
    a partition, tile layouts count the partition's own threads from 0, and
    `tile.barrier` synchronizes the partition alone. The partitions share
    what the body defined before this op (buffers, barriers) and
    communicate through shared memory and mbarriers. Thread counts are
    multiples of 128 (warpgroups). A partition that computes on no
    register tile (a TMA producer) runs on its first thread alone; its
    other threads only set their registers. tile-warp-specialize makes it:
    a producer that issues the copies and the consumers that compute.

    ```mlir
    tile.warp_specialize threads [128, 256] registers [40, 232] {
      ... // producer
    }, {
      ... // consumers
    }
    ```

    With `replicas`, partition i runs `replicas[i]` copies of its region
    side by side, each on `threads[i]` threads of its own (layouts count
    each copy's threads from 0, `tile.barrier` synchronizes each copy
    alone, `tile.replica` tells the copy), from one copy of the code:
    k_warpgroups' consumer warpgroups taking turns at a K loop.

    ```mlir
    tile.warp_specialize threads [128, 128] registers [32, 112]
        attributes {replicas = array<i64: 1, 4>} {
      ... // producer
    }, {
      %r = tile.replica
      ... // four consumer warpgroups, one code
    }
    ```
  }];
  let arguments = (ins DenseI64ArrayAttr:$threads, DenseI64ArrayAttr:$registers,
                       OptionalAttr<DenseI64ArrayAttr>:$replicas);
  let regions = (region VariadicRegion<SizedRegion<1>>:$partitions);
  let assemblyFormat = [{
    `threads` $threads `registers` $registers attr-dict-with-keyword $partitions
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The copies partition `i` runs (1 without `replicas`).
    int64_t getReplicaCount(unsigned i) {
      std::optional<ArrayRef<int64_t>> replicas = getReplicas();
      return replicas && i < replicas->size() ? (*replicas)[i] : 1;
    }
  }];
}

def Tile_ReplicaOp : Tile_Op<"replica", [Pure]> {
  let summary = "Which copy of a replicated partition the thread runs";
  let description = [{
    Inside partition i of a `tile.warp_specialize` with `replicas`: the
    copy the thread runs, 0 .. replicas[i] - 1, the same in every thread of
    a copy (0 in a partition of one copy).

    ```mlir
    %r = tile.replica
    ```
  }];
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

#endif // TILE_OPS_TD
