//===- TileAttrs.td - Tile dialect attributes --------------*- tablegen -*-===//
//
// The kernel configuration attribute: the schedule decisions that one pass
// (or a user) makes and that tiling, promotion, pipelining and MMA mapping
// only read.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_ATTRS_TD
#define TILE_ATTRS_TD

include "tile/Dialect/Tile/IR/TileDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

class Tile_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Tile_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Tile_ConfigAttr : Tile_Attr<"Config", "config"> {
  let summary = "Schedule of one kernel: block tile sizes and threads";
  let description = [{
    `block` gives the tile each program computes: `[M, N]` for elementwise
    ops, `[rows, columns]` for a row reduction (columns is the chunk one loop
    step reads), `[M, N, K]` for a matmul. `threads` is the number of threads
    in a program (a multiple of 32, at most 1024).

    ```mlir
    %c = tile.matmul %a, %b {tile.config = #tile.config<block = [64, 64, 16], threads = 256>}
        : (tensor<128x64xf32>, tensor<64x128xf32>) -> tensor<128x128xf32>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$block,
                        "int64_t":$threads);
  let assemblyFormat = "`<` `block` `=` `[` $block `]` `,` `threads` `=` $threads `>`";
  let genVerifyDecl = 1;
}

#endif // TILE_ATTRS_TD
