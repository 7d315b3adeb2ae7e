// tile-to-nvvm's fold-e2m1-restore reaches tile-packed-dequant: MXFP4's
// K step tests the thread's scale words against the guard (bit 3 of each
// byte, 0x0808080808080808, for this clamped decode) and has both sides
// (64 packed multiplies on the folded side, 128 on the unfolded one); off,
// only the 128. The map is bench/compile-quant.sh's mxfp4-bits-runs.
// RUN: tile-compile %s --fuse --chip=sm_90a --emit=ptx --pipeline-options=fold-e2m1-restore=true | FileCheck %s --check-prefix=FOLD
// RUN: tile-compile %s --fuse --chip=sm_90a --emit=ptx | FileCheck %s --check-prefix=OFF
// FOLD: and.b64 [[HIT:%rd[0-9]+]], {{%rd[0-9]+}}, 578721382704613384;
// FOLD-NEXT: setp.ne.b64 [[MISS:%p[0-9]+]], [[HIT]], 0;
// FOLD: @[[MISS]] bra
// FOLD-COUNT-192: mul.rn.bf16x2
// FOLD-NOT: mul.rn.bf16x2
// FOLD: // module
// OFF-NOT: 578721382704613384
// OFF-COUNT-128: mul.rn.bf16x2
// OFF-NOT: mul.rn.bf16x2
// OFF: // module
func.func @mxfp4_bits_runs(%x: tensor<16x1024xbf16>, %qw: tensor<256x512xi8>, %s: tensor<256x32xi8>) -> tensor<16x256xbf16> {
  %q = tile.unpack %qw bits = [0, 1, 2, 9, 16, 17, 18, 25, 10, 11, 12, 19, 26, 27, 28, 3, 4, 5, 6, 13, 20, 21, 22, 29, 14, 7, 8, 15, 30, 23, 24, 31] : tensor<256x512xi8> -> tensor<256x1024xi8>
  
  %sr = tile.repeat %s dim = 1 times = 32 : tensor<256x32xi8> -> tensor<256x1024xi8>
  %w = tile.map (%q, %sr) : (tensor<256x1024xi8>, tensor<256x1024xi8>) -> tensor<256x1024xbf16> {
  ^bb0(%qi: i8, %si: i8):
    %c7 = arith.constant 7 : i32
    %c8 = arith.constant 8 : i32
    %c15 = arith.constant 15 : i32
    %c22 = arith.constant 22 : i32
    %c23 = arith.constant 23 : i32
    %c28 = arith.constant 28 : i32
    %c120 = arith.constant 120 : i32
    %two126 = arith.constant 0x7E800000 : f32
    %u32 = arith.extui %qi : i8 to i32
    %low = arith.andi %u32, %c7 : i32
    %mag = arith.shli %low, %c22 : i32
    %sign = arith.andi %u32, %c8 : i32
    %sbit = arith.shli %sign, %c28 : i32
    %bits = arith.ori %mag, %sbit : i32
    %raw = arith.bitcast %bits : i32 to f32
    %w = arith.mulf %raw, %two126 : f32
    %e32 = arith.extui %si : i8 to i32
    %el = arith.andi %e32, %c15 : i32
    %e = arith.addi %el, %c120 : i32
    %sbits = arith.shli %e, %c23 : i32
    %scale = arith.bitcast %sbits : i32 to f32
    %v = arith.mulf %w, %scale : f32
    %h = arith.truncf %v : f32 to bf16
    tile.yield %h : bf16
  }
  %wt = tile.transpose %w : tensor<256x1024xbf16> -> tensor<1024x256xbf16>
  %c = tile.matmul %x, %wt k_runs = 8 : (tensor<16x1024xbf16>, tensor<1024x256xbf16>) -> tensor<16x256xf32>
  %y = tile.cast %c : tensor<16x256xf32> -> tensor<16x256xbf16>
  return %y : tensor<16x256xbf16>
}
