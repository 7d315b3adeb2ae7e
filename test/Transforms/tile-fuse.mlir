// RUN: tile-opt %s -split-input-file --tile-fuse | FileCheck %s

// A matmul and its epilogue (bias broadcast, map, cast) become one group;
// the broadcast's operand becomes a group input.
// CHECK-LABEL: func @matmul_epilogue
// CHECK: %[[F:.+]] = tile.fused(%arg0, %arg1, %arg2)
// CHECK:   tile.matmul
// CHECK:   tile.broadcast
// CHECK:   tile.map
// CHECK:   tile.cast
// CHECK:   tile.yield
// CHECK: return %[[F]]
func.func @matmul_epilogue(%a: tensor<64x32xbf16>, %b: tensor<32x16xbf16>, %v: tensor<16xf32>) -> tensor<64x16xbf16> {
  %c = tile.matmul %a, %b : (tensor<64x32xbf16>, tensor<32x16xbf16>) -> tensor<64x16xf32>
  %vb = tile.broadcast %v [0] : tensor<16xf32> -> tensor<64x16xf32>
  %s = tile.map (%c, %vb) : (tensor<64x16xf32>, tensor<64x16xf32>) -> tensor<64x16xf32> {
  ^bb0(%p: f32, %q: f32):
    %r = arith.addf %p, %q : f32
    tile.yield %r : f32
  }
  %o = tile.cast %s : tensor<64x16xf32> -> tensor<64x16xbf16>
  return %o : tensor<64x16xbf16>
}

// -----

// The matmul's result is used twice (by the map and as a result): it must
// be materialized, so nothing fuses into the matmul.
// CHECK-LABEL: func @two_consumers
// CHECK: %[[C:.+]] = tile.matmul
// CHECK-NOT: tile.fused
// CHECK: tile.map
func.func @two_consumers(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>) -> (tensor<64x16xf32>, tensor<64x16xf32>) {
  %c = tile.matmul %a, %b : (tensor<64x32xf32>, tensor<32x16xf32>) -> tensor<64x16xf32>
  %s = tile.map (%c) : (tensor<64x16xf32>) -> tensor<64x16xf32> {
  ^bb0(%p: f32):
    %r = arith.mulf %p, %p : f32
    tile.yield %r : f32
  }
  return %c, %s : tensor<64x16xf32>, tensor<64x16xf32>
}

// -----

// Softmax: two row reductions, the broadcasts of their results and the
// maps between them form one row group with a single input.
// CHECK-LABEL: func @softmax
// CHECK: tile.fused(%arg0) : (tensor<32x100xf32>) -> tensor<32x100xf32>
// CHECK-COUNT-2: tile.reduce
// CHECK-NOT: tile.fused
// CHECK: return
func.func @softmax(%x: tensor<32x100xf32>) -> tensor<32x100xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %m = tile.reduce %x, %ninf dim = 1 : tensor<32x100xf32>, f32 -> tensor<32xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }
  %mb = tile.broadcast %m [1] : tensor<32xf32> -> tensor<32x100xf32>
  %e = tile.map (%x, %mb) : (tensor<32x100xf32>, tensor<32x100xf32>) -> tensor<32x100xf32> {
  ^bb0(%v: f32, %mv: f32):
    %d = arith.subf %v, %mv : f32
    %ex = math.exp %d : f32
    tile.yield %ex : f32
  }
  %s = tile.reduce %e, %zero dim = 1 : tensor<32x100xf32>, f32 -> tensor<32xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  %sb = tile.broadcast %s [1] : tensor<32xf32> -> tensor<32x100xf32>
  %y = tile.map (%e, %sb) : (tensor<32x100xf32>, tensor<32x100xf32>) -> tensor<32x100xf32> {
  ^bb0(%v: f32, %t: f32):
    %q = arith.divf %v, %t : f32
    tile.yield %q : f32
  }
  return %y : tensor<32x100xf32>
}

// -----

// A row's vector broadcast down the columns too (GCN's D^-1/2 A D^-1/2,
// d = the row sums): a row's program holds its own row's value only, not
// every column's, so the row group is not formed (before, tile-tile
// rejected the group it was given); the reduction runs on its own and the
// trailing broadcasts and map fuse as an elementwise group.
// CHECK-LABEL: func @row_vector_down_columns
// CHECK: %[[D:.+]] = tile.reduce
// CHECK: %[[R:.+]] = tile.map(%[[D]])
// CHECK: tile.fused(%[[R]], %{{.+}})
// CHECK: tile.broadcast %{{.+}} [1]
// CHECK: tile.broadcast %{{.+}} [0]
func.func @row_vector_down_columns(%a: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %d = tile.reduce %a, %zero dim = 1 : tensor<256x256xf32>, f32 -> tensor<256xf32> {
  ^bb0(%x: f32, %y: f32):
    %r = arith.addf %x, %y : f32
    tile.yield %r : f32
  }
  %rs = tile.map (%d) : (tensor<256xf32>) -> tensor<256xf32> {
  ^bb0(%s: f32):
    %r = math.rsqrt %s : f32
    tile.yield %r : f32
  }
  %ri = tile.broadcast %rs [1] : tensor<256xf32> -> tensor<256x256xf32>
  %rj = tile.broadcast %rs [0] : tensor<256xf32> -> tensor<256x256xf32>
  %y = tile.map (%a, %ri, %rj) : (tensor<256x256xf32>, tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32> {
  ^bb0(%v: f32, %p: f32, %q: f32):
    %t = arith.mulf %v, %p : f32
    %u = arith.mulf %t, %q : f32
    tile.yield %u : f32
  }
  return %y : tensor<256x256xf32>
}

// -----

// The row max is also a result of the function: an intermediate used
// outside the group must be materialized, so the row group is not formed
// (the trailing elementwise chain still fuses on its own).
// CHECK-LABEL: func @statistic_escapes
// CHECK: %[[M:.+]] = tile.reduce
// CHECK: return {{.*}}%[[M]]
func.func @statistic_escapes(%x: tensor<32x100xf32>) -> (tensor<32x100xf32>, tensor<32xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %m = tile.reduce %x, %ninf dim = 1 : tensor<32x100xf32>, f32 -> tensor<32xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }
  %mb = tile.broadcast %m [1] : tensor<32xf32> -> tensor<32x100xf32>
  %e = tile.map (%x, %mb) : (tensor<32x100xf32>, tensor<32x100xf32>) -> tensor<32x100xf32> {
  ^bb0(%v: f32, %mv: f32):
    %d = arith.subf %v, %mv : f32
    tile.yield %d : f32
  }
  return %e, %m : tensor<32x100xf32>, tensor<32xf32>
}

// -----

// Any elementwise body fuses: a chain of three maps becomes one group.
// CHECK-LABEL: func @chain
// CHECK: tile.fused
// CHECK-COUNT-3: tile.map
func.func @chain(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %a = tile.map (%x) : (tensor<64x64xf32>) -> tensor<64x64xf32> {
  ^bb0(%v: f32):
    %r = math.sin %v : f32
    tile.yield %r : f32
  }
  %b = tile.map (%a) : (tensor<64x64xf32>) -> tensor<64x64xf32> {
  ^bb0(%v: f32):
    %r = math.cos %v : f32
    tile.yield %r : f32
  }
  %c = tile.map (%b, %x) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32> {
  ^bb0(%v: f32, %w: f32):
    %r = arith.addf %v, %w : f32
    tile.yield %r : f32
  }
  return %c : tensor<64x64xf32>
}

// -----

// Two elementwise producers feed one consumer: the first chain claims the
// consumer; the second producer stays a kernel of its own and its result is
// an input of the group (each op belongs to one group).
// CHECK-LABEL: func @two_producers
// CHECK: %[[B:.+]] = tile.map(%arg1)
// CHECK: tile.fused(%arg0, %[[B]])
// CHECK-COUNT-2: tile.map
// CHECK-NOT: tile.fused
func.func @two_producers(%x: tensor<64x64xf32>, %y: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %c2 = arith.constant 2.0 : f32
  %c3 = arith.constant 3.0 : f32
  %a = tile.map (%x) : (tensor<64x64xf32>) -> tensor<64x64xf32> {
  ^bb0(%v: f32):
    %r = arith.mulf %v, %c2 : f32
    tile.yield %r : f32
  }
  %b = tile.map (%y) : (tensor<64x64xf32>) -> tensor<64x64xf32> {
  ^bb0(%v: f32):
    %r = arith.mulf %v, %c3 : f32
    tile.yield %r : f32
  }
  %c = tile.map (%a, %b) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32> {
  ^bb0(%v: f32, %w: f32):
    %r = arith.addf %v, %w : f32
    tile.yield %r : f32
  }
  return %c : tensor<64x64xf32>
}

// -----

// A broadcast feeding the first op of an elementwise group is read inside
// the group's kernel, as a later op's is: x + bias ([M, N] + [N]) and
// s * x ([M, 1] * [M, N]) are one group each, with the vectors as inputs.
// CHECK-LABEL: func @broadcast_roots
// CHECK: tile.fused(%arg1, %arg0)
// CHECK-NEXT: ^bb0(%[[B:[^:]+]]: tensor<16xf32>, %[[X:[^:]+]]: tensor<64x16xf32>):
// CHECK-NEXT: %[[BB:.+]] = tile.broadcast %[[B]] [0]
// CHECK-NEXT: tile.map(%[[X]], %[[BB]])
// CHECK: tile.fused(%arg2, %arg0)
// CHECK-NEXT: ^bb0(%[[S:[^:]+]]: tensor<64xf32>, %[[X2:[^:]+]]: tensor<64x16xf32>):
// CHECK-NEXT: %[[SB:.+]] = tile.broadcast %[[S]] [1]
// CHECK-NEXT: tile.map(%[[SB]], %[[X2]])
// CHECK-NOT: tile.broadcast
func.func @broadcast_roots(%x: tensor<64x16xf32>, %b: tensor<16xf32>, %s: tensor<64xf32>) -> (tensor<64x16xf32>, tensor<64x16xf32>) {
  %bb = tile.broadcast %b [0] : tensor<16xf32> -> tensor<64x16xf32>
  %y = tile.map (%x, %bb) : (tensor<64x16xf32>, tensor<64x16xf32>) -> tensor<64x16xf32> {
  ^bb0(%p: f32, %q: f32):
    %r = arith.addf %p, %q : f32
    tile.yield %r : f32
  }
  %sb = tile.broadcast %s [1] : tensor<64xf32> -> tensor<64x16xf32>
  %z = tile.map (%sb, %x) : (tensor<64x16xf32>, tensor<64x16xf32>) -> tensor<64x16xf32> {
  ^bb0(%p: f32, %q: f32):
    %r = arith.mulf %p, %q : f32
    tile.yield %r : f32
  }
  return %y, %z : tensor<64x16xf32>, tensor<64x16xf32>
}

// -----

// A broadcast with a second user is materialized once and read by both
// (fusing it would compute it twice): the map stays alone, unfused.
// CHECK-LABEL: func @shared_broadcast
// CHECK: tile.broadcast
// CHECK-NOT: tile.fused
func.func @shared_broadcast(%x: tensor<64x16xf32>, %b: tensor<16xf32>) -> (tensor<64x16xf32>, tensor<64x16xf32>) {
  %bb = tile.broadcast %b [0] : tensor<16xf32> -> tensor<64x16xf32>
  %y = tile.map (%x, %bb) : (tensor<64x16xf32>, tensor<64x16xf32>) -> tensor<64x16xf32> {
  ^bb0(%p: f32, %q: f32):
    %r = arith.addf %p, %q : f32
    tile.yield %r : f32
  }
  return %y, %bb : tensor<64x16xf32>, tensor<64x16xf32>
}

// -----

// x W^T with W stored [N, K] (torch's Linear weight): the transpose joins
// the matmul's group, so that the kernel reads W as stored; a matmul with
// no epilogue makes a group of two.
// CHECK-LABEL: func @linear
// CHECK: tile.fused(%arg1, %arg0)
// CHECK-NEXT: ^bb0(%[[W:.+]]: tensor<48x32xbf16>, %[[X:.+]]: tensor<64x32xbf16>):
// CHECK-NEXT: %[[WT:.+]] = tile.transpose %[[W]]
// CHECK-NEXT: tile.matmul %[[X]], %[[WT]]
// CHECK-NOT: tile.transpose
func.func @linear(%x: tensor<64x32xbf16>, %w: tensor<48x32xbf16>) -> tensor<64x48xf32> {
  %wt = tile.transpose %w : tensor<48x32xbf16> -> tensor<32x48xbf16>
  %c = tile.matmul %x, %wt : (tensor<64x32xbf16>, tensor<32x48xbf16>) -> tensor<64x48xf32>
  return %c : tensor<64x48xf32>
}

// -----

// A transpose read by something else too is materialized by its own
// kernel, and the matmul reads the result.
// CHECK-LABEL: func @shared_transpose
// CHECK: %[[WT:.+]] = tile.transpose
// CHECK-NOT: tile.fused
// CHECK: tile.matmul %arg0, %[[WT]]
func.func @shared_transpose(%x: tensor<64x32xbf16>, %w: tensor<48x32xbf16>) -> (tensor<64x48xf32>, tensor<32x48xbf16>) {
  %wt = tile.transpose %w : tensor<48x32xbf16> -> tensor<32x48xbf16>
  %c = tile.matmul %x, %wt : (tensor<64x32xbf16>, tensor<32x48xbf16>) -> tensor<64x48xf32>
  return %c, %wt : tensor<64x48xf32>, tensor<32x48xbf16>
}

// -----

// A block-scaled matmul's B and scales given as transposes (torch's W and
// M-major scale_a) join its group: the kernel reads them as stored. A
// block-scaled matmul alone, with nothing to fuse, stays as it is.
// CHECK-LABEL: func @block_scales_transposed
// CHECK: tile.fused(%arg1, %arg2, %arg3, %arg0)
// CHECK-NEXT: ^bb0(%[[W:.+]]: tensor<512x256xf8E4M3FN>, %[[SAT:.+]]: tensor<2x256xf32>, %[[SW:.+]]: tensor<4x2xf32>, %[[A:.+]]: tensor<256x256xf8E4M3FN>):
// CHECK-NEXT: %[[B:.+]] = tile.transpose %[[W]]
// CHECK-NEXT: %[[SA:.+]] = tile.transpose %[[SAT]]
// CHECK-NEXT: %[[SB:.+]] = tile.transpose %[[SW]]
// CHECK-NEXT: tile.matmul %[[A]], %[[B]] scales(%[[SA]], %[[SB]]) block [1, 128, 128]
// CHECK-LABEL: func @block_scales_alone
// CHECK-NOT: tile.fused
func.func @block_scales_transposed(%a: tensor<256x256xf8E4M3FN>, %w: tensor<512x256xf8E4M3FN>, %sat: tensor<2x256xf32>, %sw: tensor<4x2xf32>) -> tensor<256x512xf32> {
  %wt = tile.transpose %w : tensor<512x256xf8E4M3FN> -> tensor<256x512xf8E4M3FN>
  %sa = tile.transpose %sat : tensor<2x256xf32> -> tensor<256x2xf32>
  %sb = tile.transpose %sw : tensor<4x2xf32> -> tensor<2x4xf32>
  %c = tile.matmul %a, %wt scales(%sa, %sb) block [1, 128, 128] : (tensor<256x256xf8E4M3FN>, tensor<256x512xf8E4M3FN>, tensor<256x2xf32>, tensor<2x4xf32>) -> tensor<256x512xf32>
  return %c : tensor<256x512xf32>
}

func.func @block_scales_alone(%a: tensor<256x256xbf16>, %b: tensor<256x512xbf16>, %sa: tensor<256x2xf32>, %sb: tensor<2x512xf32>) -> tensor<256x512xf32> {
  %c = tile.matmul %a, %b scales(%sa, %sb) block [1, 128, 1] : (tensor<256x256xbf16>, tensor<256x512xbf16>, tensor<256x2xf32>, tensor<2x512xf32>) -> tensor<256x512xf32>
  return %c : tensor<256x512xf32>
}

// -----

// A weight dequantized in the K loop (WeightPrologue.h): the unpack of the
// packed int4 bytes, the transpose and repeat of GPTQ's [K/g, N] scales,
// the dequantizing map and W's transpose join the matmul's group; the
// packed bytes, the scales and x are its inputs (the [N, K] weight and its
// scales never reach memory).
// CHECK-LABEL: func @dequantized_weight
// CHECK: %[[F:.+]] = tile.fused(%arg1, %arg2, %arg0)
// CHECK:   tile.unpack
// CHECK:   tile.transpose
// CHECK:   tile.repeat
// CHECK:   tile.map
// CHECK:   tile.transpose
// CHECK:   tile.matmul
// CHECK:   tile.cast
// CHECK: return %[[F]]
func.func @dequantized_weight(%x: tensor<16x512xbf16>, %qw: tensor<256x256xi8>, %s: tensor<4x256xf32>) -> tensor<16x256xbf16> {
  %q = tile.unpack %qw signed : tensor<256x256xi8> -> tensor<256x512xi8>
  %st = tile.transpose %s : tensor<4x256xf32> -> tensor<256x4xf32>
  %sr = tile.repeat %st dim = 1 times = 128 : tensor<256x4xf32> -> tensor<256x512xf32>
  %w = tile.map (%q, %sr) : (tensor<256x512xi8>, tensor<256x512xf32>) -> tensor<256x512xbf16> {
  ^bb0(%qi: i8, %si: f32):
    %f = arith.sitofp %qi : i8 to f32
    %v = arith.mulf %f, %si : f32
    %h = arith.truncf %v : f32 to bf16
    tile.yield %h : bf16
  }
  %wt = tile.transpose %w : tensor<256x512xbf16> -> tensor<512x256xbf16>
  %y = tile.matmul %x, %wt : (tensor<16x512xbf16>, tensor<512x256xbf16>) -> tensor<16x256xf32>
  %o = tile.cast %y : tensor<16x256xf32> -> tensor<16x256xbf16>
  return %o : tensor<16x256xbf16>
}

// -----

// The dequantized weight is used twice (also returned): it is
// materialized, and the matmul reads it from memory (its transpose as
// stored).
// CHECK-LABEL: func @dequantized_weight_returned
// CHECK: %[[W:.+]] = tile.map
// CHECK: tile.fused(%[[W]], %arg0)
// CHECK-NOT: tile.map
// CHECK:   tile.transpose
// CHECK:   tile.matmul
// CHECK: return
func.func @dequantized_weight_returned(%x: tensor<16x64xbf16>, %q: tensor<32x64xi8>) -> (tensor<16x32xf32>, tensor<32x64xbf16>) {
  %w = tile.map (%q) : (tensor<32x64xi8>) -> tensor<32x64xbf16> {
  ^bb0(%qi: i8):
    %f = arith.sitofp %qi : i8 to bf16
    tile.yield %f : bf16
  }
  %wt = tile.transpose %w : tensor<32x64xbf16> -> tensor<64x32xbf16>
  %y = tile.matmul %x, %wt : (tensor<16x64xbf16>, tensor<64x32xbf16>) -> tensor<16x32xf32>
  return %y, %w : tensor<16x32xf32>, tensor<32x64xbf16>
}
