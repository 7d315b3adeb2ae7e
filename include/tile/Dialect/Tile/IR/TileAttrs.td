//===- TileAttrs.td - Tile dialect attributes --------------*- tablegen -*-===//
//
// Three families of attributes:
// - the target (`#tile.target`): the chip, parsed once, with the facts the
//   passes need about it (SM count, shared memory, which instructions);
// - the kernel configuration (`#tile.config`): the schedule decisions that
//   tile-configure (or a user) makes and that tiling, promotion,
//   pipelining and MMA mapping only read;
// - layouts, the `layout` of a `!tile.tile`: which thread holds which
//   element in registers (`#tile.blocked`, `#tile.mma`, `#tile.dot_operand`,
//   `#tile.slice`), or how a tile in shared memory is laid out
//   (`#tile.shared`). docs/layouts.md says which op wants which and why.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_ATTRS_TD
#define TILE_ATTRS_TD

include "tile/Dialect/Tile/IR/TileDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/EnumAttr.td"

class Tile_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Tile_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Tile_MmaKind : I32EnumAttr<"MmaKind", "the instructions a tile.dot maps to", [
    I32EnumAttrCase<"simt", 0>,
    I32EnumAttrCase<"mma_sync", 1>,
    I32EnumAttrCase<"wgmma", 2>
  ]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}

//===----------------------------------------------------------------------===//
// Target
//===----------------------------------------------------------------------===//

def Tile_TargetAttr : Tile_Attr<"Target", "target"> {
  let summary = "The GPU a module is compiled for";
  let description = [{
    `chip` is an NVPTX target name (`sm_80`, `sm_90a`, `sm_100a`, ...): the
    SM version, and `a` (arch-specific, where wgmma and setmaxnreg live) or
    `f` (family-specific). `sms` is the number of SMs persistent kernels
    size their grid by; absent, the flagship part of the chip
    (132 for sm_90, an H100 SXM or H200; 108 for sm_80, an A100).
    Passes find it as the module's `tile.target` attribute
    (`TargetAttr::lookup`); `tile-configure{chip=...}` puts it there.

    ```mlir
    module attributes {tile.target = #tile.target<"sm_90a">} { ... }
    module attributes {tile.target = #tile.target<"sm_90a", sms = 114>} { ... }
    ```
  }];
  let parameters = (ins StringRefParameter<"the NVPTX chip">:$chip,
                        DefaultValuedParameter<"int64_t", "0">:$sms);
  let assemblyFormat = "`<` $chip (`,` `sms` `=` $sms^)? `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The SM version: 90 for sm_90a.
    int64_t getSm() const;
    /// sm_90a, sm_100a, ...: the arch-specific features.
    bool isArchSpecific() const { return getChip().ends_with("a"); }
    /// Hopper's warpgroup MMA and setmaxnreg: sm_90a exactly.
    bool hasWgmma() const { return getSm() == 90 && isArchSpecific(); }
    /// The tensor memory accelerator (cp.async.bulk.tensor): sm_90 on.
    bool hasTma() const { return getSm() >= 90; }
    /// cp.async, ldmatrix and bf16 mma.sync: sm_80 on.
    bool hasMmaSync() const { return getSm() >= 80; }
    /// The SMs a persistent grid covers (`sms`, else the flagship part's).
    int64_t getSmCount() const;
    /// Shared memory per SM in bytes (0 for a chip not in the table).
    int64_t getSharedMemoryPerSm() const;
    /// The most dynamic shared memory one program may ask for, in bytes
    /// (0 for a chip not in the table).
    int64_t getMaxSharedMemoryPerProgram() const;
    /// The module's `tile.target` around `op`, or null.
    static TargetAttr lookup(::mlir::Operation *op);
    /// The name of the module attribute.
    static constexpr ::llvm::StringLiteral getAttrName() {
      return ::llvm::StringLiteral("tile.target");
    }
  }];
}

//===----------------------------------------------------------------------===//
// Kernel configuration
//===----------------------------------------------------------------------===//

def Tile_ConfigAttr : Tile_Attr<"Config", "config"> {
  let summary = "Schedule of one kernel, chosen by tile-configure";
  let description = [{
    `block` gives the tile each program computes: `[M, N]` for elementwise
    ops, `[rows, columns]` for a row reduction (columns is the chunk one loop
    step reads), `[M, N, K]` for a matmul. `threads` is the number of threads
    in a program that compute (a multiple of 32, at most 1024); warp
    specialization adds a producer warpgroup to them.

    The rest is for kernels with `tile.dot`s, each with a default that
    means "not used":
    - `mma`: the instructions the dots map to (`simt`, `mma_sync`,
      `wgmma`); `instr`: the instruction shape `[M, N, K]` (wgmma
      m64nNk16, mma.sync m16n8k16); `warps`: warps along M and N holding
      the accumulator (wgmma: 4 per warpgroup along M);
    - `stages`: the depth of the shared-memory ring of the K loop's
      operands (1: not pipelined);
    - `persistent`: programs looping over output tiles, as few as take
      them in as many rounds as one per SM would (`every_sm`: one per SM);
      `group_rows`: block-rows per group of the tile order, so that tiles
      in flight together share B in L2 (1: row-major order);
    - `warp_specialize`: a producer warpgroup issues the copies, the
      `threads` consume;
    - `split_k`: K is cut into this many ranges, one per program along a
      third grid dimension; each writes its f32 partial sum to a workspace
      and a second kernel adds them in order (deterministic) and runs the
      epilogue (tile-tile builds both from a tensor-level matmul);
      `split_k_in_kernel`: instead, the last program of each output tile to
      finish adds them, in the same order, and runs the epilogue in the
      same kernel (tile.last_arrival): no second launch, but one program
      per tile does all of the tile's sums;
    - `cluster`: programs launched as one thread-block cluster. `[C, 1]`
      (C = 2, 4 or 8; wgmma with a ring, no split): the C programs of a
      cluster hold C block-rows of one block-column (group_rows and the
      block-rows multiples of C) and copy each B tile together, each 1/C
      of its rows into all of them (TMA multicast: tile-pipeline); along N
      it is not built; `[1, 1, S]` with `split_k = S` makes the S programs of
      an output tile one cluster, which adds their partials through
      distributed shared memory (tile.cluster_sum): no workspace, no
      second kernel, the sum on the program of the first K range, which
      runs the epilogue (not persistent);
    - `overlap`: a loop with two products (attention) computes its first
      product one iteration ahead (tile-overlap), so that its tensor-core
      work runs while the rest of the previous iteration does (FlashAttention
      3's intra-warpgroup overlap); each load of the loop's ring then has
      its own barriers and gives its slot back after its last product;
    - `prefetch`: with a cp.async ring, the K loop's loads that stay in
      registers (a dequantized weight's scales) are issued one iteration
      ahead and carried (tile-pipeline); with a TMA ring they are issued
      above the ring's wait (nothing carried), or, where warpgroups take
      turns at K, a step of their own ahead (tile-warp-specialize). With
      tile-pipeline's ring-register-loads (off by default) those TMA can
      copy (a scale line: one row of a kernel argument) come through a
      producer warpgroup's ring instead, a box of their own a stage.
    - `l2_fetch`: B > 0 (64, 128 or 256; with `prefetch`): the K loop's
      register loads that `prefetch` moves ahead ask the L2 for B-byte
      lines (PTX `ld.global.L2::B`), so that a load of a few bytes of a
      row whose later steps read the rest of its line brings the line in
      one DRAM request rather than a 32-byte sector at a time (MXFP4's
      scale bytes, 8 of a row a step: tile-configure gives the transposed
      product 128). 0 (the default): no hint.
    - `pingpong`: the consumer warpgroups take turns issuing their
      tensor-core work (tile-pingpong: named barriers around each group of
      `tile.wgmma` issues), so that one warpgroup's softmax runs while the
      other's products do (FlashAttention 3's inter-warpgroup ping-pong).
    - `mirror_rows`: with `persistent`, the tiles go in pairs of block-rows
      i and M - 1 - i of one column, which one program takes one after the
      other (tile-persistent): where a tile's work grows with its block-row
      (causal attention's key loop), every pair is the same work, so the
      programs' static shares of the tiles stay even.
    - `fma_exp2`: N > 0 computes every Nth of each thread's exponentials of
      an attention kernel's scores on the FMA pipe (a polynomial of
      2^frac, tile-approximate-math) instead of the special-function unit,
      whose 16 exponentials a clock per SM pace the softmax at head
      dimension 64; 0 (the default): all on the special-function unit.
    - `transposed`: a weight-only quantized matmul computed as the
      transposed product, y^T = W x^T (wgmma with the dequantized weight
      as its register A, `lhs_k_runs`; docs/quantization.md): `block` is
      still [M, N, K] of y, and `instr` N is the block's M.
    - `k_warpgroups`: G > 1 consumer warpgroups of `threads` each (a
      producer's ring: `warp_specialize`) take the K loop's steps in turn,
      step i to warpgroup i mod G, each accumulating its own partial sum;
      after the loop warpgroups 1 .. G - 1 hand theirs to warpgroup 0
      through shared memory, which adds them and runs the epilogue
      (tile-warp-specialize). For products too small to keep one
      warpgroup's tensor cores busy while it waits on its loads and
      dequantizes (a decode matmul's transposed product).
    - `stream_k`: with `persistent` (wgmma; no split_k, cluster,
      mirror_rows, transposed, k_warpgroups, or overlap without
      `stream_k_part`), the rounds of
      whole tiles that fill every program, then the rest of the tiles' K
      steps dealt evenly over the programs, a
      contiguous range each that may cut a tile along K (CUTLASS's
      data-parallel + stream-K schedule): a tile whose steps several
      programs share is added up from their f32 partials, in K order, by
      the last of them to finish (tile.last_arrival), which runs the
      epilogue. Where the tiles are not a multiple of the programs, the
      last round no longer leaves SMs idle (tile-tile builds the kernel,
      persistent loop and all).
    - `stream_k_part`: with `stream_k`, the steps of each part past the
      whole rounds (0: the steps dealt evenly over every program). A
      part of P steps cuts the tiles past the whole rounds along K at
      multiples of P, one part a program, so that every part's K loop
      has the same trip count (P must be shorter than a tile's steps and
      divide them, and the parts be no more than the programs: tile-tile
      checks); with it, stream_k takes `overlap` (tile-overlap then runs
      bodies that divide both trip counts, or leaves the loop, with a
      remark).
    - `uniform_warp`: (wgmma) the warp index each tile.wgmma's place in the
      warpgroups comes from is broadcast from lane 0 once, at the start of
      the kernel (or of its partition), so that ptxas knows it is the same
      in every lane and keeps the descriptors computed from it in uniform
      registers (CUTLASS's canonical_warp_idx_sync); tile-mma marks the
      kernel's tile.wgmma ops `uniform_warp`. tile-configure gives it to
      kernels of one product (a matmul): a loop of two (attention) runs out
      of uniform registers with it, and its descriptors go back to vector
      registers.
    - `tma_store`: (wgmma, with warp_specialize) the epilogue's store of an
      output tile goes through shared memory to the TMA, a column block of
      128 bytes at a time into one of two staging buffers (tile-tma-store
      makes it a tile.tma_store): the consumer warpgroups write the
      fragments, one thread issues the block's copy and goes on, so the
      threads neither read the block back nor store it themselves and the
      copy drains while the next block (or tile) is computed. Not with
      split_k, stream_k or k_warpgroups (their fix-ups store partials).
      tile-configure's `tma-store` (on) gives it to tensor-level matmuls
      whose ring leaves room for the staging, but transposed products;
      tile-tma-store leaves a store it cannot take (an output the kernel
      also reads, warps along N, rows not of 16-byte multiples) as it is.
    - `every_sm`: with `persistent`, one program on every SM (at most one
      per tile). Without it a persistent kernel (but mirror_rows) has the
      fewest programs that take its tiles in as many rounds as every SM
      would, each the same count: the same makespan, with the SMs left
      over idle (under the power cap the others keep their clocks). For
      kernels bound by what all SMs together read (attention at head
      dimension 64).

    ```mlir
    %c = tile.matmul %a, %b {tile.config = #tile.config<block = [64, 64, 16], threads = 256>}
        : (tensor<128x64xf32>, tensor<64x128xf32>) -> tensor<128x128xf32>
    tile.kernel @mm grid [32, 16] threads 256 (...) attributes {tile.config =
        #tile.config<block = [128, 256, 64], threads = 256, mma = wgmma,
                     instr = [64, 256, 16], warps = [8, 1], stages = 4,
                     persistent = true, group_rows = 8, warp_specialize = true>}
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$block,
                        "int64_t":$threads,
                        DefaultValuedParameter<"MmaKind", "MmaKind::simt">:$mma,
                        OptionalArrayRefParameter<"int64_t">:$instr,
                        OptionalArrayRefParameter<"int64_t">:$warps,
                        DefaultValuedParameter<"int64_t", "1">:$stages,
                        DefaultValuedParameter<"bool", "false">:$persistent,
                        DefaultValuedParameter<"int64_t", "1">:$groupRows,
                        DefaultValuedParameter<"bool", "false">:$warpSpecialize,
                        DefaultValuedParameter<"int64_t", "1">:$splitK,
                        OptionalArrayRefParameter<"int64_t">:$cluster,
                        DefaultValuedParameter<"bool", "false">:$overlap,
                        DefaultValuedParameter<"bool", "false">:$splitKInKernel,
                        DefaultValuedParameter<"bool", "false">:$prefetch,
                        DefaultValuedParameter<"bool", "false">:$pingpong,
                        DefaultValuedParameter<"bool", "false">:$mirrorRows,
                        DefaultValuedParameter<"int64_t", "0">:$fmaExp2,
                        DefaultValuedParameter<"bool", "false">:$transposed,
                        DefaultValuedParameter<"int64_t", "1">:$kWarpgroups,
                        DefaultValuedParameter<"bool", "false">:$streamK,
                        DefaultValuedParameter<"bool", "false">:$everySm,
                        DefaultValuedParameter<"int64_t", "0">:$streamKPart,
                        DefaultValuedParameter<"bool", "false">:$uniformWarp,
                        DefaultValuedParameter<"bool", "false">:$tmaStore,
                        DefaultValuedParameter<"int64_t", "0">:$l2Fetch);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let builders = [
    AttrBuilder<(ins "ArrayRef<int64_t>":$block, "int64_t":$threads), [{
      return $_get($_ctxt, block, threads, MmaKind::simt, ArrayRef<int64_t>(),
                   ArrayRef<int64_t>(), 1, false, 1, false, 1,
                   ArrayRef<int64_t>(), false, false, false, false, false,
                   0, false, 1, false, false, 0, false, false, 0);
    }]>
  ];
  let extraClassDeclaration = [{
    /// The name of the attribute on the op it configures.
    static constexpr ::llvm::StringLiteral getAttrName() {
      return ::llvm::StringLiteral("tile.config");
    }
  }];
}

//===----------------------------------------------------------------------===//
// Layouts of tiles in registers
//===----------------------------------------------------------------------===//

def Tile_BlockedLayoutAttr : Tile_Attr<"BlockedLayout", "blocked"> {
  let summary = "Runs of consecutive elements spread over the threads";
  let description = [{
    The SIMT layout: a tile of E elements over `threads` threads gives
    each thread S = max(1, E / threads) slots; slot k of thread t holds
    element ((k / run) * threads + t) * run + k % run (mod E) of the tile
    in row-major order. With `run` = 16 bytes of the narrowest type the
    kernel moves, a run is one 16-byte access; `run` = 1 is the plain
    strided layout. tile-assign-layouts gives it to every tile that is not
    an MMA operand or accumulator.

    ```mlir
    !tile.tile<8x256xbf16, layout = #tile.blocked<threads = 256, run = 8>>
    ```
  }];
  let parameters = (ins "int64_t":$threads, "int64_t":$run);
  let assemblyFormat = "`<` `threads` `=` $threads `,` `run` `=` $run `>`";
  let genVerifyDecl = 1;
}

def Tile_MmaLayoutAttr : Tile_Attr<"MmaLayout", "mma"> {
  let summary = "The accumulator fragments of mma.sync or wgmma";
  let description = [{
    The layout in which the tensor cores return a product. `warps` =
    [WM, WN] warps hold a tile of [R, C]; `instr` is the instruction
    shape [M, N, K] (mma.sync m16n8k16, wgmma m64nNk16). One warp's
    fragment is 16 rows by n = instr N columns: in each group of 8 columns
    j, lane l holds columns 8j + 2 (l % 4) and the next one at rows l / 4
    and l / 4 + 8, in slots 4j .. 4j + 3 (PTX ISA, "mma.m16n8k16" and
    "wgmma D fragments": the two instructions agree). The tile's 16-row
    strips go to the WM warps in turn (strip s to warp s mod WM) and its
    n-column units to the WN warps in turn; warp w has M index w mod WM,
    so the 4 warps of a warpgroup hold 64 consecutive rows, as wgmma
    needs. What is left repeats: slot ((rm * RN + rn) * n / 8 + j) * 4 + r
    for repetition (rm, rn) of RM x RN.

    ```mlir
    !tile.tile<128x256xf32, layout = #tile.mma<wgmma, warps = [8, 1], instr = [64, 256, 16]>>
    !tile.tile<128x128xf32, layout = #tile.mma<mma_sync, warps = [2, 2], instr = [16, 8, 16]>>
    ```
  }];
  let parameters = (ins EnumParameter<Tile_MmaKind>:$kind,
                        ArrayRefParameter<"int64_t">:$warps,
                        ArrayRefParameter<"int64_t">:$instr);
  let assemblyFormat = [{
    `<` $kind `,` `warps` `=` `[` $warps `]` `,` `instr` `=` `[` $instr `]` `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getNumWarps() const { return getWarps()[0] * getWarps()[1]; }
    /// Columns of one warp's fragment: instr N.
    int64_t getFragmentColumns() const { return getInstr()[1]; }
  }];
}

def Tile_DotOperandLayoutAttr : Tile_Attr<"DotOperandLayout", "dot_operand"> {
  let summary = "A tensor-core operand in registers";
  let description = [{
    Operand `index` (0: A, [M, K]; 1: B, [K, N]) of a dot whose result has
    the `parent` mma layout, as mma.sync m16n8k16 reads it (and ldmatrix
    returns it). A wgmma parent has an A operand only (wgmma reads B from
    shared memory), laid out as mma.sync's per warp, four warps of 16 rows
    per warpgroup: the same map as a #tile.mma<wgmma> tile of that shape,
    so that an accumulator cast to bf16 feeds the next wgmma as it is. A: for each m16k16 block, lane l holds rows l / 4 and
    l / 4 + 8 at columns 2 (l % 4) .. + 1 and 2 (l % 4) + 8 .. + 1, in slots
    a0 (row g), a1 (row g + 8), a2 (k + 8), a3 (both), two elements each;
    the blocks along K, then along the warp's rows, follow. B: for each
    k16n8 block, lane l holds column l / 4 at rows 2 (l % 4) .. + 1 and
    + 8 .. + 9. Rows (A) and columns (B) go to warps as the parent's do;
    the other dimension's warps hold copies.

    `k_width = W` (mma.sync only; default 2, the order above) permutes K
    the same way in A and B, which leaves the product unchanged: in each
    block of 4 W along K, lane l holds the W consecutive values from
    W (l % 4), so a thread's share of a row (A) or column (B) is one run
    that 16-byte loads read (a dequantized weight computed in a thread's
    own registers from 16 packed bytes, and the A it meets). Within the
    run, value e is register e / 2 (e % 2 its half) of the mma.sync of
    index e / 4 in the block: B's b0 holds e = 4 t, 4 t + 1 and b1
    4 t + 2, 4 t + 3; A's a0 / a1 hold e = 4 t, 4 t + 1 of rows g and
    g + 8, a2 / a3 e = 4 t + 2, 4 t + 3. A dot's two operands take the
    same W.

    ```mlir
    !tile.tile<128x32xbf16, layout = #tile.dot_operand<0, #tile.mma<mma_sync, warps = [2, 4], instr = [16, 8, 16]>>>
    !tile.tile<128x64xbf16, layout = #tile.dot_operand<1, #tile.mma<mma_sync, warps = [1, 8], instr = [16, 8, 16]>, k_width = 32>>
    ```
  }];
  let parameters = (ins "unsigned":$index, "MmaLayoutAttr":$parent,
                        DefaultValuedParameter<"unsigned", "2">:$kWidth);
  let builders = [
    AttrBuilder<(ins "unsigned":$index, "MmaLayoutAttr":$parent), [{
      return $_get($_ctxt, index, parent, 2);
    }]>
  ];
  let assemblyFormat =
      "`<` $index `,` qualified($parent) (`,` `k_width` `=` $kWidth^)? `>`";
  let genVerifyDecl = 1;
}

def Tile_SliceLayoutAttr : Tile_Attr<"SliceLayout", "slice"> {
  let summary = "A rank-1 tile laid out along one dimension of a parent";
  let description = [{
    The layout of `parent` with dimension `dim` removed: a row reduction
    (dim = 1) of an accumulator leaves each row's value in the threads
    that held the row, and broadcasting it back needs no communication.
    The threads that held other elements of the removed dimension hold
    copies (a store writes one).

    The parent may also be a #tile.blocked layout, with `extent`: the
    parent tile's size along the removed dimension (a blocked layout's map
    depends on its tile's shape). A dequantized weight's per-row scale,
    broadcast along K into the weight's runs, is loaded so: each thread
    reads the rows its runs are in, straight into registers (and a step
    ahead, tile-pipeline's prefetch), with no exchange.

    ```mlir
    !tile.tile<128xf32, layout = #tile.slice<1, #tile.mma<wgmma, warps = [8, 1], instr = [64, 256, 16]>>>
    !tile.tile<64xbf16, layout = #tile.slice<1, #tile.blocked<threads = 256, run = 32>, extent = 128>>
    ```
  }];
  let parameters = (ins "unsigned":$dim, "Attribute":$parent,
                        DefaultValuedParameter<"int64_t", "0">:$extent);
  let assemblyFormat = "`<` $dim `,` $parent (`,` `extent` `=` $extent^)? `>`";
  let builders = [
    AttrBuilder<(ins "unsigned":$dim, "Attribute":$parent), [{
      return $_get($_ctxt, dim, parent, 0);
    }]>
  ];
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Layout of tiles in shared memory
//===----------------------------------------------------------------------===//

def Tile_SharedLayoutAttr : Tile_Attr<"SharedLayout", "shared"> {
  let summary = "How a tile is laid out in shared memory";
  let description = [{
    With `swizzle` = S (32, 64 or 128 bytes), the layout TMA writes and
    wgmma reads: the tile's columns are cut into blocks of S bytes; block
    b of an R-row tile starts at byte b * R * S, row r of a block at
    r * S, and in each 1024-byte span the 16-byte units of a row are
    permuted (byte address bits [4, 7) xor bits [7, 10), CUTLASS's
    Swizzle<3, 4, 3> for 128). With `padding` = P elements instead, rows
    are row-major and P elements longer than the tile (ldmatrix and
    cp.async then hit every bank once). Neither: plain row-major. Both: a
    tile of rows narrower than S, C + P elements being S bytes (its rows
    are S bytes apart as in any swizzled block): a part of a wider
    swizzled tile's column block, which a tile.view `column` reads (a
    K step's slice of a wgmma operand whose step tile-pipeline copied as
    one box).
    `transposed`: the tile is the transpose of one stored so (a
    tile.transpose of a tile in shared memory, which moves nothing):
    element (r, c) of an [R, C] tile is element (c, r) of the stored
    [C, R] one. wgmma reads such a B operand K-major.
    `row_xor` = X (with `padding` or none; a power of two of 64 bytes or
    more): in each row, the byte at offset b is stored at b xor ((b / X)
    mod 2) * X / 4, CUTLASS's Swizzle<1, log2(X / 4), 2> within a row:
    16-byte units stay whole, and those of every second X bytes trade
    places in pairs. Rows are multiples of 2 X bytes. tile-promote gives it
    to an mma.sync A operand read as runs along K (k_width 32, 64-byte runs
    of a thread's lanes l % 4 = 0 and 2 would share banks in a padded row),
    and to a weight stored for a B read as runs (a transposed view: the
    stored rows are permuted).

    ```mlir
    !tile.tile<128x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
    !tile.tile<32x256xbf16, layout = #tile.shared<padding = 8>, memory_space = #gpu.address_space<workgroup>>
    !tile.tile<64x128xbf16, layout = #tile.shared<swizzle = 128, transposed = true>, memory_space = #gpu.address_space<workgroup>>
    !tile.tile<16x32xbf16, layout = #tile.shared<swizzle = 128, padding = 32>, memory_space = #gpu.address_space<workgroup>>
    !tile.tile<16x128xbf16, layout = #tile.shared<padding = 8, row_xor = 128>, memory_space = #gpu.address_space<workgroup>>
    ```
  }];
  let parameters = (ins DefaultValuedParameter<"int64_t", "0">:$swizzle,
                        DefaultValuedParameter<"int64_t", "0">:$padding,
                        DefaultValuedParameter<"bool", "false">:$transposed,
                        DefaultValuedParameter<"int64_t", "0">:$row_xor);
  let builders = [
    AttrBuilder<(ins "int64_t":$swizzle, "int64_t":$padding), [{
      return $_get($_ctxt, swizzle, padding, false, 0);
    }]>,
    AttrBuilder<(ins "int64_t":$swizzle, "int64_t":$padding,
                     "bool":$transposed), [{
      return $_get($_ctxt, swizzle, padding, transposed, 0);
    }]>
  ];
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif // TILE_ATTRS_TD
