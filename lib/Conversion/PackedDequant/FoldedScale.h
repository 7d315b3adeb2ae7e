//===- FoldedScale.h - The e2m1 restore folded into the scale --*- C++ -*-===//
//
// tile-packed-dequant's MXFP4 decode multiplies each bf16 pair twice: by
// 2^126 (the code's bits placed in a bf16 read as its value times
// 2^-126) and by the e8m0 scale s. Where s * 2^126 is finite, one
// multiply by that product is the same value bit for bit (2^126 is a
// power of two, so s * 2^126 is exact, and the code times it is the one
// rounding either way): 64 of the MXFP4 K step's 128 packed multiplies
// on the H200 kernel (bench/RESULTS.md, sessions 50 and 52).
//
// It is finite for the scales weights have (s <= 2: |w| <= 12), not for
// every byte. So the fold is guarded: a byte mask G such that every byte
// e with e & G == 0 folds, and the folded scale's bits are an affine
// function of the byte there (ByteFloatsInPairs then makes them two a
// word). Each decode becomes select(guard, folded, unfolded); after the
// patterns, the selects of a block that share a place become one scf.if
// on the and of their guards (each word's bytes tested with one and),
// each side with its own copy of the lane-local math its values need, so
// that a thread whose scales all fold runs the folded side only. The
// guard is per thread, not a warp vote: both sides compute the same
// values, so threads that differ only cost time, and the branch is safe
// in any control flow. The fold reads the scale's decode as the
// tile-level lowering wrote it (arith.bitcast of byte math): the greedy
// driver visits the e2m1 multiply's truncf before ByteFloatsInPairs
// rewrites that bitcast; in the other order the decode is left unfolded.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_PACKEDDEQUANT_FOLDEDSCALE_H
#define TILE_CONVERSION_PACKEDDEQUANT_FOLDEDSCALE_H

#include "ByteMath.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace tile {
namespace packed_dequant {

/// An f32 scale that is, lane by lane, a function of one byte:
/// bitcast(math(byte)) to bf16 (then extf) or to f32, with lane shuffles,
/// extf and the OCP e8m0 decode's NaN for inf, x + (x - x), between the
/// bitcast and the scale.
struct ScaleOfByte {
  ByteMath math;
  unsigned bitWidth = 0;                       // 16: bf16 bits; 32: f32
  SmallVector<SmallVector<int64_t>> shuffles;  // from the bitcast outward
  bool nanForInf = false;
};

std::optional<ScaleOfByte> matchScaleOfByte(Value scale);

/// How the restore folds into a scale: bytes e with e & guard == 0 fold,
/// and for them the bf16 bits of scale(e) * 2^126 are form(e). guard 0:
/// every byte folds.
struct FoldedScale {
  uint8_t guard = 0;
  ByteAffine form;
};

std::optional<FoldedScale> foldRestore(const ScaleOfByte &scale);

/// The folded scale as a vector of bf16 in the scale's lane order.
Value buildFoldedScale(PatternRewriter &rewriter, Location loc,
                       const ScaleOfByte &scale, const FoldedScale &folded);

/// Whether every lane's byte passes the guard: an i1, true where all do
/// (reduction<or>(words) & mask == 0, with the mask at the byte's place
/// in the word where the byte is one of a word: branchGuardedFolds merges
/// the guards of one word's bytes).
Value buildGuard(PatternRewriter &rewriter, Location loc,
                 const ScaleOfByte &scale, const FoldedScale &folded);

/// The discardable attribute of the selects between a folded and an
/// unfolded decode.
inline constexpr llvm::StringLiteral kGuardedFold = "tile.guarded_fold";

/// Each run of guarded-fold selects in a block into one scf.if (see the
/// file comment).
void branchGuardedFolds(Operation *root);

} // namespace packed_dequant
} // namespace tile
} // namespace mlir

#endif // TILE_CONVERSION_PACKEDDEQUANT_FOLDEDSCALE_H
