// tile.unpack with `bits` (MXFP4's layout="mma": bit b of value v of each
// 32-bit word at bit bits[4 v + b]) on a thread's own bytes: the SIMT
// lowering takes each value out bit by bit (a shift, an and 1, a shift to
// bit b and an or: the form tile::matchBitFields reads), and
// tile-packed-dequant turns the e2m1 decode of those values into pairs of
// bf16: values 2 q and 2 q + 1 sit 16 bits apart, so a pair is the word
// rotated left by 6, 28 (right by 4) or 2 and and-ed with 0x81C081C0
// (exponent and mantissa at bits 6-8, the sign at 15, of each half), the
// last pair the word itself and-ed with 0x81808180 or-ed with the word
// rotated by 24 and-ed with 0x00400040 (its mantissa bit); then times
// 2^126 and the scale, and a shuffle of the halves into lane order.
// RUN: tile-opt %s --convert-tile-kernel-to-gpu --convert-tile-to-simt | FileCheck %s
// RUN: tile-opt %s --convert-tile-kernel-to-gpu --convert-tile-to-simt --canonicalize --tile-packed-dequant --canonicalize | FileCheck %s --check-prefix=PAIRS

// CHECK-LABEL: func @e2m1_bits
// CHECK: %[[W:.+]] = vector.bitcast %{{.+}} : vector<8xi8> to vector<2xi32>
// CHECK: %[[SPREAD:.+]] = vector.shuffle %[[W]], %[[W]] [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1] : vector<2xi32>, vector<2xi32>
// CHECK: %[[D0:.+]] = arith.constant dense<[0, 16, 10, 26, 4, 20, 14, 30, 0, 16, 10, 26, 4, 20, 14, 30]> : vector<16xi32>
// CHECK: %[[B0:.+]] = arith.shrui %[[SPREAD]], %[[D0]] : vector<16xi32>
// CHECK: %[[V0:.+]] = arith.andi %[[B0]], %{{.+}} : vector<16xi32>
// CHECK: %[[D1:.+]] = arith.constant dense<[1, 17, 11, 27, 5, 21, 7, 23, 1, 17, 11, 27, 5, 21, 7, 23]> : vector<16xi32>
// CHECK: arith.shrui %[[SPREAD]], %[[D1]] : vector<16xi32>
// CHECK: %[[D3:.+]] = arith.constant dense<[9, 25, 19, 3, 13, 29, 15, 31, 9, 25, 19, 3, 13, 29, 15, 31]> : vector<16xi32>
// CHECK: arith.shrui %[[SPREAD]], %[[D3]] : vector<16xi32>
// CHECK: %[[ALL:.+]] = arith.ori %{{.+}}, %{{.+}} : vector<16xi32>
// CHECK-NEXT: arith.trunci %[[ALL]] : vector<16xi32> to vector<16xi8>

// PAIRS-LABEL: func @e2m1_bits
// PAIRS-DAG: %[[RESTORE:.+]] = arith.constant dense<8.507050e+37> : vector<16xbf16>
// PAIRS-DAG: %[[KEEP:.+]] = arith.constant dense<-2118090304> : vector<2xi32>
// PAIRS-DAG: %[[MANT:.+]] = arith.constant dense<4194368> : vector<2xi32>
// PAIRS-DAG: %[[REST:.+]] = arith.constant dense<-2122284672> : vector<2xi32>
// PAIRS: %[[W:.+]] = vector.bitcast %{{.+}} : vector<8xi8> to vector<2xi32>
// PAIRS: %[[L0:.+]] = arith.shli %[[W]], %{{.+}} : vector<2xi32>
// PAIRS: %[[R0:.+]] = arith.shrui %[[W]], %{{.+}} : vector<2xi32>
// PAIRS: %[[T0:.+]] = arith.ori %[[L0]], %[[R0]] : vector<2xi32>
// PAIRS: %[[P0:.+]] = arith.andi %[[T0]], %[[KEEP]] : vector<2xi32>
// PAIRS: arith.andi %{{.+}}, %[[KEEP]] : vector<2xi32>
// PAIRS: arith.andi %{{.+}}, %[[KEEP]] : vector<2xi32>
// PAIRS: %[[M3:.+]] = arith.andi %{{.+}}, %[[MANT]] : vector<2xi32>
// PAIRS: %[[S3:.+]] = arith.andi %[[W]], %[[REST]] : vector<2xi32>
// PAIRS: %[[P3:.+]] = arith.ori %[[M3]], %[[S3]] : vector<2xi32>
// PAIRS: %[[PAIRS:.+]] = vector.shuffle %{{.+}}, %[[P3]] [0, 1, 2, 3, 4, 5, 6, 7] : vector<6xi32>, vector<2xi32>
// PAIRS: %[[H:.+]] = vector.bitcast %[[PAIRS]] : vector<8xi32> to vector<16xbf16>
// PAIRS: %[[LANES:.+]] = vector.shuffle %[[H]], %[[H]] [0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15] : vector<16xbf16>, vector<16xbf16>
// PAIRS: %[[DEC:.+]] = arith.mulf %[[LANES]], %[[RESTORE]] : vector<16xbf16>
// PAIRS: arith.mulf %[[DEC]], %{{.+}} : vector<16xbf16>
// PAIRS-NOT: arith.trunci
func.func @e2m1_bits(%W: memref<4x64xi8>, %E: memref<4x128xbf16>, %Y: memref<4x128xbf16>) {
  tile.kernel @e2m1_bits grid [1] threads 32 (%W, %E, %Y) : memref<4x64xi8>, memref<4x128xbf16>, memref<4x128xbf16> {
  ^bb0(%w: memref<4x64xi8>, %e: memref<4x128xbf16>, %y: memref<4x128xbf16>):
    %c0 = arith.constant 0 : index
    %p = tile.load %w[%c0, %c0] : memref<4x64xi8> -> !tile.tile<4x64xi8, layout = #tile.blocked<threads = 32, run = 8>>
    %q = tile.unpack %p bits = [0, 1, 2, 9, 16, 17, 18, 25, 10, 11, 12, 19, 26, 27, 28, 3, 4, 5, 6, 13, 20, 21, 22, 29, 14, 7, 8, 15, 30, 23, 24, 31] : !tile.tile<4x64xi8, layout = #tile.blocked<threads = 32, run = 8>> -> !tile.tile<4x128xi8, layout = #tile.blocked<threads = 32, run = 16>>
    %s = tile.load %e[%c0, %c0] : memref<4x128xbf16> -> !tile.tile<4x128xbf16, layout = #tile.blocked<threads = 32, run = 16>>
    %v = tile.map (%q, %s) : (!tile.tile<4x128xi8, layout = #tile.blocked<threads = 32, run = 16>>, !tile.tile<4x128xbf16, layout = #tile.blocked<threads = 32, run = 16>>) -> !tile.tile<4x128xbf16, layout = #tile.blocked<threads = 32, run = 16>> {
    ^bb0(%c: i8, %sc: bf16):
      %c7 = arith.constant 7 : i32
      %c8 = arith.constant 8 : i32
      %c22 = arith.constant 22 : i32
      %c28 = arith.constant 28 : i32
      %two126 = arith.constant 0x7E800000 : f32
      %u = arith.extui %c : i8 to i32
      %low = arith.andi %u, %c7 : i32
      %mag = arith.shli %low, %c22 : i32
      %sign = arith.andi %u, %c8 : i32
      %sbit = arith.shli %sign, %c28 : i32
      %bits = arith.ori %mag, %sbit : i32
      %raw = arith.bitcast %bits : i32 to f32
      %dec = arith.mulf %raw, %two126 : f32
      %sf = arith.extf %sc : bf16 to f32
      %ws = arith.mulf %dec, %sf : f32
      %h = arith.truncf %ws : f32 to bf16
      tile.yield %h : bf16
    }
    tile.store %v, %y[%c0, %c0] : !tile.tile<4x128xbf16, layout = #tile.blocked<threads = 32, run = 16>>, memref<4x128xbf16>
  }
  return
}

// Where a thread's bytes are not whole words (runs of one byte here) the
// values move through shared memory: each value's four bits read from
// their bytes (the word bit of value column % 8 by a select over the eight
// values), shifted down, and-ed with 1, moved to bit b and or-ed, then
// sign-extended.
// CHECK-LABEL: func @bits_by_bytes
// CHECK: gpu.barrier
// CHECK-COUNT-7: arith.select %{{.+}} : vector<8xi1>, vector<8xindex>
// CHECK: vector.gather %{{.+}} : memref<128xi8, #gpu.address_space<workgroup>>, vector<8xindex>, vector<8xi1>, vector<8xi8> into vector<8xi8>
// CHECK: arith.shrui
// CHECK-COUNT-7: arith.select %{{.+}} : vector<8xi1>, vector<8xindex>
// CHECK: vector.gather
// CHECK-COUNT-7: arith.select %{{.+}} : vector<8xi1>, vector<8xindex>
// CHECK: vector.gather
// CHECK-COUNT-7: arith.select %{{.+}} : vector<8xi1>, vector<8xindex>
// CHECK: vector.gather
// CHECK: gpu.barrier
// CHECK: %[[TOP:.+]] = arith.shli %{{.+}}, %{{.+}} : vector<8xi8>
// CHECK: arith.shrsi %[[TOP]], %{{.+}} : vector<8xi8>
func.func @bits_by_bytes(%W: memref<4x32xi8>, %Y: memref<4x64xi8>) {
  tile.kernel @bits_by_bytes grid [1] threads 32 (%W, %Y) : memref<4x32xi8>, memref<4x64xi8> {
  ^bb0(%w: memref<4x32xi8>, %y: memref<4x64xi8>):
    %c0 = arith.constant 0 : index
    %p = tile.load %w[%c0, %c0] : memref<4x32xi8> -> !tile.tile<4x32xi8, layout = #tile.blocked<threads = 32, run = 1>>
    %q = tile.unpack %p signed bits = [0, 1, 2, 9, 16, 17, 18, 25, 10, 11, 12, 19, 26, 27, 28, 3, 4, 5, 6, 13, 20, 21, 22, 29, 14, 7, 8, 15, 30, 23, 24, 31] : !tile.tile<4x32xi8, layout = #tile.blocked<threads = 32, run = 1>> -> !tile.tile<4x64xi8, layout = #tile.blocked<threads = 32, run = 2>>
    tile.store %q, %y[%c0, %c0] : !tile.tile<4x64xi8, layout = #tile.blocked<threads = 32, run = 2>>, memref<4x64xi8>
  }
  return
}
