// A weight dequantized in a K loop (the tile IR tile-tile builds from
// tile-fuse's weight prologue): tile-assign-layouts gives the packed bytes
// 16-byte runs and the unpacked values twice that (each thread splits its
// own bytes), the map follows them, tile-promote stores the map's [N, K]
// result into shared memory as it is and makes its transpose a
// `transposed` view (ldmatrix without .trans), and the SIMT lowering
// splits each byte into two nibbles in registers (vector.interleave), no
// shared memory. The layouts run (LAYOUTS) and the lowering (CHECK).
// RUN: tile-opt %s --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote | FileCheck %s --check-prefix=LAYOUTS
// RUN: tile-opt %s --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --convert-tile-kernel-to-gpu --convert-tile-to-simt | FileCheck %s

// LAYOUTS: tile.unpack %{{.+}} signed : !tile.tile<64x64xi8, layout = #tile.blocked<threads = 128, run = 16>> -> !tile.tile<64x128xi8, layout = #tile.blocked<threads = 128, run = 32>>
// LAYOUTS: tile.map(%{{.+}}, %{{.+}}) : (!tile.tile<64x128xi8, layout = #tile.blocked<threads = 128, run = 32>>, !tile.tile<64x128xf32, layout = #tile.blocked<threads = 128, run = 32>>) -> !tile.tile<64x128xbf16, layout = #tile.blocked<threads = 128, run = 32>>
// LAYOUTS: %[[S:.+]] = tile.convert_layout %{{.+}} : !tile.tile<64x128xbf16, layout = #tile.blocked<threads = 128, run = 32>> -> !tile.tile<64x128xbf16, layout = #tile.shared<padding = 8>, memory_space = #gpu.address_space<workgroup>>
// LAYOUTS: tile.transpose %[[S]] : {{.+}} -> !tile.tile<128x64xbf16, layout = #tile.shared<padding = 8, transposed = true>, memory_space = #gpu.address_space<workgroup>>

// CHECK: %[[LOW:.+]] = arith.shli %[[BYTES:.+]], %{{.+}} : vector<32xi8>
// CHECK: %[[LO:.+]] = arith.shrsi %[[LOW]], %{{.+}} : vector<32xi8>
// CHECK: %[[HIGH:.+]] = arith.shli %[[BYTES]], %{{.+}} : vector<32xi8>
// CHECK: %[[HI:.+]] = arith.shrsi %[[HIGH]], %{{.+}} : vector<32xi8>
// CHECK: vector.interleave %[[LO]], %[[HI]] : vector<32xi8> -> vector<64xi8>
func.func @w4(%X: memref<16x512xbf16>, %W: memref<256x256xi8>, %S: memref<4x256xf32>, %Y: memref<16x256xf32>) {
  tile.kernel @w4 grid [4] threads 128 (%X, %W, %S, %Y) : memref<16x512xbf16>, memref<256x256xi8>, memref<4x256xf32>, memref<16x256xf32> {
  ^bb0(%x: memref<16x512xbf16>, %w: memref<256x256xi8>, %s: memref<4x256xf32>, %y: memref<16x256xf32>):
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    %pn = tile.program_id 0
    %n0 = arith.muli %pn, %c64 : index
    %z = tile.splat %zero : f32 -> !tile.tile<16x64xf32>
    %acc = scf.for %k = %c0 to %c512 step %c128 iter_args(%a = %z) -> (!tile.tile<16x64xf32>) {
      %tx = tile.load %x[%c0, %k] : memref<16x512xbf16> -> !tile.tile<16x128xbf16>
      %kh = arith.divui %k, %c2 : index
      %tp = tile.load %w[%n0, %kh] : memref<256x256xi8> -> !tile.tile<64x64xi8>
      %tq = tile.unpack %tp signed : !tile.tile<64x64xi8> -> !tile.tile<64x128xi8>
      %g = arith.divui %k, %c128 : index
      %row = memref.subview %s[%g, 0] [1, 256] [1, 1] : memref<4x256xf32> to memref<256xf32, strided<[1], offset: ?>>
      %ts = tile.load %row[%n0] : memref<256xf32, strided<[1], offset: ?>> -> !tile.tile<64xf32>
      %tsb = tile.broadcast %ts [1] : !tile.tile<64xf32> -> !tile.tile<64x128xf32>
      %tw = tile.map (%tq, %tsb) : (!tile.tile<64x128xi8>, !tile.tile<64x128xf32>) -> !tile.tile<64x128xbf16> {
      ^bb0(%qi: i8, %si: f32):
        %f = arith.sitofp %qi : i8 to f32
        %v = arith.mulf %f, %si : f32
        %h = arith.truncf %v : f32 to bf16
        tile.yield %h : bf16
      }
      %tb = tile.transpose %tw : !tile.tile<64x128xbf16> -> !tile.tile<128x64xbf16>
      %a2 = tile.dot %tx, %tb, %a : !tile.tile<16x128xbf16>, !tile.tile<128x64xbf16> -> !tile.tile<16x64xf32>
      scf.yield %a2 : !tile.tile<16x64xf32>
    }
    tile.store %acc, %y[%c0, %n0] : !tile.tile<16x64xf32>, memref<16x256xf32>
  }
  return
}
