//===- TileTypes.td - Tile dialect types -------------------*- tablegen -*-===//
//
// !tile.tile is a register tile: a statically shaped block of elements that
// the threads of one program hold together.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TYPES_TD
#define TILE_TYPES_TD

include "tile/Dialect/Tile/IR/TileDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class Tile_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Tile_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Tile_TileType : Tile_Type<"Tile", "tile", [ShapedTypeInterface]> {
  let summary = "A statically shaped register tile";
  let description = [{
    A tile of rank 1 or 2 with static, positive dimensions and an integer or
    float element type. The optional `layout` says which thread holds which
    element; the optional `memory_space` says where the tile lives when it is
    not in registers. Passes that assign layouts and promote tiles fill them
    in; a tile without them is in registers with the lowering's default
    layout (docs/layouts.md).

    ```mlir
    !tile.tile<128x64xbf16>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "Type":$elementType,
                        OptionalParameter<"Attribute">:$layout,
                        OptionalParameter<"Attribute">:$memorySpace);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let builders = [
    TypeBuilderWithInferredContext<(ins "ArrayRef<int64_t>":$shape,
                                        "Type":$elementType), [{
      return $_get(elementType.getContext(), shape, elementType, Attribute(),
                   Attribute());
    }]>
  ];
  let extraClassDeclaration = [{
    using ShapedType::Trait<TileType>::getRank;
    using ShapedType::Trait<TileType>::getNumElements;
    using ShapedType::Trait<TileType>::getDimSize;
    bool hasRank() const { return true; }
    TileType cloneWith(std::optional<ArrayRef<int64_t>> shape,
                       Type elementType) const {
      return TileType::get(getContext(), shape ? *shape : getShape(),
                           elementType, getLayout(), getMemorySpace());
    }
  }];
}

#endif // TILE_TYPES_TD
