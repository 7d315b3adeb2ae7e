// A weight packed for the tensor cores (docs/quantization.md): tile.unpack
// interleaved (AWQ's nibble order in each 32-bit word) and tile.dot
// k_runs = 32 (B's rows in mma.sync's fragment runs of 32). Each thread's
// 16 packed bytes are its B fragments, as with the plain layout; x keeps
// its own K order: tile-mma gives A k_width 2 and B k_width 32, tile-promote
// lays x's tile out for ldmatrix (padding, no row_xor), and the SIMT
// lowering reads x by ldmatrix and splits the words with each value's
// nibble in AWQ's order (value 2 q + r at nibble q + 4 r: shifts up of
// 28, 12, 24, 8, 20, 4, 16, 0 before the arithmetic shift down by 28).
// RUN: tile-opt %s --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma | FileCheck %s --check-prefix=MMA
// RUN: tile-opt %s --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --convert-tile-kernel-to-gpu --convert-tile-to-simt | FileCheck %s

// MMA-LABEL: func.func @w4_runs
// MMA: tile.load %{{.+}} : memref<16x512xbf16> -> !tile.tile<16x128xbf16, layout = #tile.shared<padding = 8>, memory_space = #gpu.address_space<workgroup>>
// MMA: tile.unpack %{{.+}} signed interleaved : !tile.tile<64x64xi8, layout = #tile.blocked<threads = 128, run = 16>> -> !tile.tile<64x128xi8, layout = #tile.blocked<threads = 128, run = 32>>
// The scales' row is loaded as the slice of the weight's runs (each thread
// its rows' scales, no exchange).
// MMA: %[[S:.+]] = tile.load %{{.+}} : memref<256xf32, strided<[1], offset: ?>> -> !tile.tile<64xf32, layout = #tile.slice<1, #tile.blocked<threads = 128, run = 32>, extent = 128>>
// MMA: tile.broadcast %[[S]] [1] : !tile.tile<64xf32, layout = #tile.slice<1, #tile.blocked<threads = 128, run = 32>, extent = 128>> -> !tile.tile<64x128xf32, layout = #tile.blocked<threads = 128, run = 32>>
// MMA: %[[B:.+]] = tile.transpose {{.+}} -> !tile.tile<128x64xbf16, layout = #tile.dot_operand<1, #tile.mma<mma_sync, warps = [1, 4], instr = [16, 8, 16]>, k_width = 32>>
// MMA: %[[A:.+]] = tile.convert_layout %{{.+}} : !tile.tile<16x128xbf16, layout = #tile.shared<padding = 8>, memory_space = #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.dot_operand<0, #tile.mma<mma_sync, warps = [1, 4], instr = [16, 8, 16]>>>
// MMA: tile.dot %[[A]], %[[B]], %{{.+}} k_runs = 32 : !tile.tile<16x128xbf16, layout = #tile.dot_operand<0, #tile.mma<mma_sync, warps = [1, 4], instr = [16, 8, 16]>>>, !tile.tile<128x64xbf16, layout = #tile.dot_operand<1, {{.+}}, k_width = 32>>

// CHECK-LABEL: func.func @w4_runs
// CHECK: %[[W:.+]] = vector.bitcast %{{.+}} : vector<32xi8> to vector<8xi32>
// CHECK: %[[SPREAD:.+]] = vector.shuffle %[[W]], %[[W]] [0, 0, 0, 0, 0, 0, 0, 0, 1,
// CHECK: %[[UP:.+]] = arith.constant dense<[28, 12, 24, 8, 20, 4, 16, 0, 28, 12,
// CHECK: %[[TOP:.+]] = arith.shli %[[SPREAD]], %[[UP]] : vector<64xi32>
// CHECK: arith.shrsi %[[TOP]], %{{.+}} : vector<64xi32>
// The scale: one gathered value a run, spread over the run's slots.
// CHECK: vector.gather %{{.+}} : memref<256xf32, strided<[1], offset: ?>>, vector<2xindex>, vector<2xi1>, vector<2xf32> into vector<2xf32>
// CHECK-NEXT: vector.shuffle %{{.+}}, %{{.+}} [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1,
// CHECK: nvvm.ldmatrix
// CHECK: nvvm.mma.sync
func.func @w4_runs(%X: memref<16x512xbf16>, %W: memref<256x256xi8>, %S: memref<4x256xf32>, %Y: memref<16x256xf32>) {
  tile.kernel @w4_runs grid [4] threads 128 (%X, %W, %S, %Y) : memref<16x512xbf16>, memref<256x256xi8>, memref<4x256xf32>, memref<16x256xf32> attributes {tile.config = #tile.config<block = [16, 64, 128], threads = 128, mma = mma_sync, instr = [16, 8, 16], warps = [1, 4], stages = 4>} {
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
      %tq = tile.unpack %tp signed interleaved : !tile.tile<64x64xi8> -> !tile.tile<64x128xi8>
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
      %a2 = tile.dot %tx, %tb, %a k_runs = 32 : !tile.tile<16x128xbf16>, !tile.tile<128x64xbf16> -> !tile.tile<16x64xf32>
      scf.yield %a2 : !tile.tile<16x64xf32>
    }
    tile.store %acc, %y[%c0, %n0] : !tile.tile<16x64xf32>, memref<16x256xf32>
  }
  return
}
