// RUN: tile-opt %s -split-input-file --tile-fuse --tile-tile="shared-memory-per-sm=233472" | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-fuse --tile-tile="shared-memory-per-sm=102400" | FileCheck %s --check-prefix=SMALL
// RUN: tile-opt %s -split-input-file --tile-fuse --tile-tile | FileCheck %s --check-prefix=SMALL

// Wide rows (walked in chunks, see tile-tile-fused.mlir) whose inputs fit
// in half of an SM's shared memory less 3 KB (two programs per SM; here
// 228 KB, sm_90's) are staged: the row, shifted to run boundaries like the
// chunks (k = col + shift), goes to a tile.shared buffer of whole runs
// (40001 + 7 columns, 40008), copied by tile.copy_async chunk by chunk
// over the same two loops as the passes (edge chunks of 4096, interior
// chunks of 8192), then one wait; every pass then loads its chunks from the
// buffer at [0, k] (in_bounds in the interior), not from global memory,
// and no pass loads ahead. The storing pass still stores through the
// result's one-row view at col = k - shift.
// With 100 KB per SM (sm_86/89) or none given, nothing is staged.
// CHECK-LABEL: func @staged_softmax
// CHECK: tile.kernel @staged_softmax_0 grid [8] threads 512
// CHECK-SAME: min_programs_per_sm = 2
// CHECK: %[[VIEW:.+]] = memref.subview %{{.+}}[%{{.+}}, 0] [1, 40001] [1, 1]
// CHECK: %[[OUT:.+]] = memref.subview %{{.+}}[%{{.+}}, 0] [1, 40001] [1, 1]
// CHECK: %[[SHIFT:.+]] = arith.remui
// CHECK: %[[BUF:.+]] = tile.shared : memref<1x40008xbf16, #gpu.address_space<workgroup>>
// CHECK: scf.for
// CHECK:   %[[K:.+]] = arith.select
// CHECK:   %[[COL:.+]] = arith.subi %[[K]], %[[SHIFT]]
// CHECK:   tile.copy_async %[[VIEW]][%{{.+}}, %[[COL]]], %[[BUF]][%{{.+}}, %[[K]]] shape [1, 4096]
// CHECK: scf.for %[[KI:.+]] = %c4096 to %[[TAIL:.+]] step %c8192 {
// CHECK:   %[[COLI:.+]] = arith.subi %[[KI]], %[[SHIFT]]
// CHECK:   tile.copy_async %[[VIEW]][%{{.+}}, %[[COLI]]], %[[BUF]][%{{.+}}, %[[KI]]] shape [1, 8192]
// CHECK: tile.wait_async 0
// CHECK-NOT: tile.load %[[VIEW]]
// The max pass: edges, then the interior, loaded in its iteration, both
// at the chunk's k.
// CHECK: scf.for
// CHECK:   %[[KE:.+]] = arith.select
// CHECK:   tile.load %[[BUF]][%{{.+}}, %[[KE]]] : memref<1x40008xbf16, #gpu.address_space<workgroup>> -> !tile.tile<1x4096xbf16>
// CHECK:   tile.mask
// CHECK: scf.for %[[KM:.+]] = %c4096 to %[[TAIL]] step %c8192 iter_args
// CHECK-NEXT: tile.load %[[BUF]][%{{.+}}, %[[KM]]] {in_bounds} : memref<1x40008xbf16, #gpu.address_space<workgroup>> -> !tile.tile<1x8192xbf16>
// CHECK-NOT: tile.load %[[VIEW]]
// The storing pass: its edge loop (the first loop without results since
// the copies), then its interior loop.
// CHECK: scf.for %{{.+}} = %c0{{.*}} to %{{.+}} step %c1{{.*}} {
// CHECK:   %[[KSE:.+]] = arith.select
// CHECK:   tile.load %[[BUF]][%{{.+}}, %[[KSE]]] : memref<1x40008xbf16, #gpu.address_space<workgroup>> -> !tile.tile<1x4096xbf16>
// CHECK:   %[[COLSE:.+]] = arith.subi %[[KSE]], %[[SHIFT]]
// CHECK:   tile.store %{{.+}}, %[[OUT]][%{{.+}}, %[[COLSE]]] : !tile.tile<1x4096xbf16>
// CHECK: scf.for %[[KS:.+]] = %c4096 to %[[TAIL]] step %c8192 {
// CHECK-NEXT: tile.load %[[BUF]][%{{.+}}, %[[KS]]] {in_bounds}
// CHECK: %[[COLS:.+]] = arith.subi %[[KS]], %[[SHIFT]]
// CHECK: tile.store %{{.+}}, %[[OUT]][%{{.+}}, %[[COLS]]] {in_bounds}
// SMALL-LABEL: func @staged_softmax
// SMALL-NOT: tile.shared
// SMALL-NOT: tile.copy_async
// SMALL: return
func.func @staged_softmax(%x: tensor<8x40001xbf16>) -> tensor<8x40001xbf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %xf = tile.cast %x : tensor<8x40001xbf16> -> tensor<8x40001xf32>
  %max = tile.reduce %xf, %ninf dim = 1 : tensor<8x40001xf32>, f32 -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }
  %maxb = tile.broadcast %max [1] : tensor<8xf32> -> tensor<8x40001xf32>
  %e = tile.map (%xf, %maxb) : (tensor<8x40001xf32>, tensor<8x40001xf32>) -> tensor<8x40001xf32> {
  ^bb0(%v: f32, %mv: f32):
    %d = arith.subf %v, %mv : f32
    %ex = math.exp %d : f32
    tile.yield %ex : f32
  }
  %sum = tile.reduce %e, %zero dim = 1 : tensor<8x40001xf32>, f32 -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  %sumb = tile.broadcast %sum [1] : tensor<8xf32> -> tensor<8x40001xf32>
  %y = tile.map (%e, %sumb) : (tensor<8x40001xf32>, tensor<8x40001xf32>) -> tensor<8x40001xbf16> {
  ^bb0(%v: f32, %s: f32):
    %q = arith.divf %v, %s : f32
    %h = arith.truncf %q : f32 to bf16
    tile.yield %h : bf16
  }
  return %y : tensor<8x40001xbf16>
}

// -----

// Rows of whole runs (32768 bf16, 64 KB) need no shift: the copies read the
// operand itself at [row, k].
// CHECK-LABEL: func @staged_whole_runs
// CHECK: tile.kernel @staged_whole_runs_0 grid [4] threads 512
// CHECK: %[[BUF:.+]] = tile.shared : memref<1x32768xbf16, #gpu.address_space<workgroup>>
// CHECK: tile.copy_async %arg2[%{{.+}}, %[[K:.+]]], %[[BUF]][%{{.+}}, %[[K]]] shape [1, 4096]
// CHECK: tile.copy_async %arg2[%{{.+}}, %[[KI:.+]]], %[[BUF]][%{{.+}}, %[[KI]]] shape [1, 8192]
// CHECK: tile.wait_async 0
// CHECK-NOT: tile.load %arg2
// CHECK: return
// SMALL-LABEL: func @staged_whole_runs
// SMALL-NOT: tile.shared
// SMALL: return

func.func @staged_whole_runs(%x: tensor<4x32768xbf16>) -> tensor<4x32768xbf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %xf = tile.cast %x : tensor<4x32768xbf16> -> tensor<4x32768xf32>
  %max = tile.reduce %xf, %ninf dim = 1 : tensor<4x32768xf32>, f32 -> tensor<4xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }
  %maxb = tile.broadcast %max [1] : tensor<4xf32> -> tensor<4x32768xf32>
  %e = tile.map (%xf, %maxb) : (tensor<4x32768xf32>, tensor<4x32768xf32>) -> tensor<4x32768xf32> {
  ^bb0(%v: f32, %mv: f32):
    %d = arith.subf %v, %mv : f32
    %ex = math.exp %d : f32
    tile.yield %ex : f32
  }
  %sum = tile.reduce %e, %zero dim = 1 : tensor<4x32768xf32>, f32 -> tensor<4xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  %sumb = tile.broadcast %sum [1] : tensor<4xf32> -> tensor<4x32768xf32>
  %y = tile.map (%e, %sumb) : (tensor<4x32768xf32>, tensor<4x32768xf32>) -> tensor<4x32768xbf16> {
  ^bb0(%v: f32, %s: f32):
    %q = arith.divf %v, %s : f32
    %h = arith.truncf %q : f32 to bf16
    tile.yield %h : bf16
  }
  return %y : tensor<4x32768xbf16>
}

// -----

// Two row inputs of 40008 bf16 each (the residual added before the
// softmax) need 160 KB, more than a program's half of 228 KB: not staged.
// CHECK-LABEL: func @two_inputs_too_wide
// CHECK-NOT: tile.shared
// CHECK: tile.load
// CHECK: return

func.func @two_inputs_too_wide(%x: tensor<4x40001xbf16>, %w: tensor<4x40001xbf16>) -> tensor<4x40001xbf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %x0 = tile.map (%x, %w) : (tensor<4x40001xbf16>, tensor<4x40001xbf16>) -> tensor<4x40001xbf16> {
  ^bb0(%p: bf16, %q: bf16):
    %s = arith.addf %p, %q : bf16
    tile.yield %s : bf16
  }
  %xf = tile.cast %x0 : tensor<4x40001xbf16> -> tensor<4x40001xf32>
  %max = tile.reduce %xf, %ninf dim = 1 : tensor<4x40001xf32>, f32 -> tensor<4xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }
  %maxb = tile.broadcast %max [1] : tensor<4xf32> -> tensor<4x40001xf32>
  %e = tile.map (%xf, %maxb) : (tensor<4x40001xf32>, tensor<4x40001xf32>) -> tensor<4x40001xf32> {
  ^bb0(%v: f32, %mv: f32):
    %d = arith.subf %v, %mv : f32
    %ex = math.exp %d : f32
    tile.yield %ex : f32
  }
  %sum = tile.reduce %e, %zero dim = 1 : tensor<4x40001xf32>, f32 -> tensor<4xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  %sumb = tile.broadcast %sum [1] : tensor<4xf32> -> tensor<4x40001xf32>
  %y = tile.map (%e, %sumb) : (tensor<4x40001xf32>, tensor<4x40001xf32>) -> tensor<4x40001xbf16> {
  ^bb0(%v: f32, %s: f32):
    %q = arith.divf %v, %s : f32
    %h = arith.truncf %q : f32 to bf16
    tile.yield %h : bf16
  }
  return %y : tensor<4x40001xbf16>
}

// -----

// Two row inputs of different types that fit together (64 threads from a
// tile.config make 9001 columns wide): one buffer each, bf16 and f32, both
// copied in each chunk at the same k.
// CHECK-LABEL: func @staged_mixed
// CHECK: tile.kernel @staged_mixed_0 grid [4] threads 64
// CHECK: %[[XB:.+]] = tile.shared : memref<1x9008xbf16, #gpu.address_space<workgroup>>
// CHECK: %[[RB:.+]] = tile.shared : memref<1x9008xf32, #gpu.address_space<workgroup>>
// CHECK: tile.copy_async %{{.+}}[%{{.+}}, %[[C:.+]]], %[[XB]][%{{.+}}, %[[K:.+]]] shape [1, 512]
// CHECK-NEXT: tile.copy_async %{{.+}}[%{{.+}}, %[[C]]], %[[RB]][%{{.+}}, %[[K]]] shape [1, 512]
// CHECK: tile.wait_async 0
// CHECK: tile.load %[[XB]]
// CHECK: tile.load %[[RB]]
// SMALL-LABEL: func @staged_mixed
// SMALL-NOT: tile.shared
// SMALL: return
func.func @staged_mixed(%x: tensor<4x9001xbf16>, %r: tensor<4x9001xf32>) -> tensor<4x9001xbf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %xf = tile.map (%x, %r) : (tensor<4x9001xbf16>, tensor<4x9001xf32>) -> tensor<4x9001xf32> {
  ^bb0(%v: bf16, %w: f32):
    %vf = arith.extf %v : bf16 to f32
    %s = arith.addf %vf, %w : f32
    tile.yield %s : f32
  }
  %max = tile.reduce %xf, %ninf dim = 1 {tile.config = #tile.config<block = [1, 9001], threads = 64>} : tensor<4x9001xf32>, f32 -> tensor<4xf32> {
  ^bb0(%a: f32, %b: f32):
    %m = arith.maximumf %a, %b : f32
    tile.yield %m : f32
  }
  %maxb = tile.broadcast %max [1] : tensor<4xf32> -> tensor<4x9001xf32>
  %y = tile.map (%xf, %maxb) : (tensor<4x9001xf32>, tensor<4x9001xf32>) -> tensor<4x9001xbf16> {
  ^bb0(%v: f32, %s: f32):
    %q = arith.subf %v, %s : f32
    %h = arith.truncf %q : f32 to bf16
    tile.yield %h : bf16
  }
  return %y : tensor<4x9001xbf16>
}

// -----

// An i1 row input (a mask) is never staged: its elements take a byte each
// and move one by one.
// CHECK-LABEL: func @mask_not_staged
// CHECK-NOT: tile.shared
// CHECK: return
func.func @mask_not_staged(%x: tensor<8x40000xbf16>, %m: tensor<8x40000xi1>) -> tensor<8x40000xbf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %xf = tile.map (%x, %m) : (tensor<8x40000xbf16>, tensor<8x40000xi1>) -> tensor<8x40000xf32> {
  ^bb0(%v: bf16, %b: i1):
    %f = arith.extf %v : bf16 to f32
    %n = arith.constant 0xFF800000 : f32
    %s = arith.select %b, %f, %n : f32
    tile.yield %s : f32
  }
  %max = tile.reduce %xf, %ninf dim = 1 : tensor<8x40000xf32>, f32 -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }
  %maxb = tile.broadcast %max [1] : tensor<8xf32> -> tensor<8x40000xf32>
  %y = tile.map (%xf, %maxb) : (tensor<8x40000xf32>, tensor<8x40000xf32>) -> tensor<8x40000xbf16> {
  ^bb0(%v: f32, %s: f32):
    %q = arith.subf %v, %s : f32
    %h = arith.truncf %q : f32 to bf16
    tile.yield %h : bf16
  }
  return %y : tensor<8x40000xbf16>
}

// -----

// At 50257 columns (+ up to 7 of shift), edge chunks of a run per thread
// (4096) would cover the head and two tail chunks, 12288 columns for 1105
// to 1112 of the row; a quarter run per thread (1024 columns) covers the
// head and one tail chunk, as few chunks, so edge chunks are 1024 wide
// and the interior starts at 1024. The buffer keeps whole 8-element runs
// (50264).
// CHECK-LABEL: func @staged_quarter_edges
// CHECK: %[[BUF:.+]] = tile.shared : memref<1x50264xbf16, #gpu.address_space<workgroup>>
// CHECK: scf.for
// CHECK:   tile.copy_async {{.+}} shape [1, 1024]
// CHECK: scf.for %{{.+}} = %c1024 to %[[TAIL:.+]] step %c8192 {
// CHECK:   tile.copy_async {{.+}} shape [1, 8192]
// CHECK: tile.wait_async 0
// CHECK: tile.load %[[BUF]]{{.+}} -> !tile.tile<1x1024xbf16>
// CHECK: scf.for %{{.+}} = %c1024 to %[[TAIL]] step %c8192
// CHECK: tile.load %[[BUF]]{{.+}} {in_bounds} {{.+}} -> !tile.tile<1x8192xbf16>
// SMALL-LABEL: func @staged_quarter_edges
// SMALL-NOT: tile.shared
// SMALL: return
func.func @staged_quarter_edges(%x: tensor<2x50257xbf16>) -> tensor<2x50257xbf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %xf = tile.cast %x : tensor<2x50257xbf16> -> tensor<2x50257xf32>
  %max = tile.reduce %xf, %ninf dim = 1 : tensor<2x50257xf32>, f32 -> tensor<2xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }
  %maxb = tile.broadcast %max [1] : tensor<2xf32> -> tensor<2x50257xf32>
  %d = tile.map (%xf, %maxb) : (tensor<2x50257xf32>, tensor<2x50257xf32>) -> tensor<2x50257xbf16> {
  ^bb0(%v: f32, %mv: f32):
    %s = arith.subf %v, %mv : f32
    %h = arith.truncf %s : f32 to bf16
    tile.yield %h : bf16
  }
  return %d : tensor<2x50257xbf16>
}

// -----

// A reduction of the input itself, with no op before it (crashed: nothing
// in its slice named the input, so no pass loaded it). Both loops load it:
// the edges bounds-checked, then masked; the interior in_bounds.
// CHECK-LABEL: func @reduce_of_input
// CHECK: scf.for {{.+}} -> (!tile.tile<1x2048xf32>)
// CHECK:   %[[E:.+]] = tile.load %{{.+}} -> !tile.tile<1x2048xf32>
// CHECK:   tile.mask %[[E]]
// CHECK: scf.for {{.+}} -> (!tile.tile<1x4096xf32>
// CHECK:   tile.load %{{.+}} {in_bounds} {{.+}} -> !tile.tile<1x4096xf32>
// SMALL-LABEL: func @reduce_of_input
// SMALL: tile.mask
func.func @reduce_of_input(%x: tensor<8x40001xf32>) -> tensor<8x40001xf32> {
  %zero = arith.constant 0.0 : f32
  %s = tile.reduce %x, %zero dim = 1 : tensor<8x40001xf32>, f32 -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  %sb = tile.broadcast %s [1] : tensor<8xf32> -> tensor<8x40001xf32>
  %y = tile.map (%x, %sb) : (tensor<8x40001xf32>, tensor<8x40001xf32>) -> tensor<8x40001xf32> {
  ^bb0(%v: f32, %t: f32):
    %q = arith.divf %v, %t : f32
    tile.yield %q : f32
  }
  return %y : tensor<8x40001xf32>
}

// -----

// Edge chunk widths where the shift decides: at 35839 columns a quarter
// run per thread needs 4 edge chunks for shifts 2 to 7 against 3 with a
// whole run, so whole runs (4096); at 35832 (whole runs, no shift) both
// need 3, so quarter runs (1024), with a buffer of the row as it is.
// CHECK-LABEL: func @edges_by_shift
// CHECK: tile.shared : memref<1x35848xbf16, #gpu.address_space<workgroup>>
// CHECK: tile.copy_async {{.+}} shape [1, 4096]
// CHECK-LABEL: func @edges_unshifted
// CHECK: tile.shared : memref<1x35832xbf16, #gpu.address_space<workgroup>>
// CHECK: tile.copy_async {{.+}} shape [1, 1024]
// CHECK: scf.for %{{.+}} = %c1024 to %{{.+}} step %c8192
func.func @edges_by_shift(%x: tensor<4x35839xbf16>) -> tensor<4x35839xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %xf = tile.cast %x : tensor<4x35839xbf16> -> tensor<4x35839xf32>
  %m = tile.reduce %xf, %ninf dim = 1 : tensor<4x35839xf32>, f32 -> tensor<4xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }
  %mb = tile.broadcast %m [1] : tensor<4xf32> -> tensor<4x35839xf32>
  %y = tile.map (%xf, %mb) : (tensor<4x35839xf32>, tensor<4x35839xf32>) -> tensor<4x35839xf32> {
  ^bb0(%v: f32, %t: f32):
    %d = arith.subf %v, %t : f32
    tile.yield %d : f32
  }
  return %y : tensor<4x35839xf32>
}
func.func @edges_unshifted(%x: tensor<4x35832xbf16>) -> tensor<4x35832xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %xf = tile.cast %x : tensor<4x35832xbf16> -> tensor<4x35832xf32>
  %m = tile.reduce %xf, %ninf dim = 1 : tensor<4x35832xf32>, f32 -> tensor<4xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }
  %mb = tile.broadcast %m [1] : tensor<4xf32> -> tensor<4x35832xf32>
  %y = tile.map (%xf, %mb) : (tensor<4x35832xf32>, tensor<4x35832xf32>) -> tensor<4x35832xf32> {
  ^bb0(%v: f32, %t: f32):
    %d = arith.subf %v, %t : f32
    tile.yield %d : f32
  }
  return %y : tensor<4x35832xf32>
}

// -----

// A reduction with a 16-bit accumulator goes through shared memory a chunk
// at a time in convert-tile-to-simt, more than a staged program's 2 KB of
// scratch: no staging and no two programs per SM.
// CHECK-LABEL: func @half_sum
// CHECK: tile.kernel @half_sum_0 grid [8] threads 512
// CHECK-NOT: min_programs_per_sm
// CHECK-NOT: tile.shared
// CHECK: return
func.func @half_sum(%x: tensor<8x40001xf16>) -> tensor<8x40001xf16> {
  %zero = arith.constant 0.0 : f16
  %s = tile.reduce %x, %zero dim = 1 : tensor<8x40001xf16>, f16 -> tensor<8xf16> {
  ^bb0(%a: f16, %b: f16):
    %r = arith.addf %a, %b : f16
    tile.yield %r : f16
  }
  %sb = tile.broadcast %s [1] : tensor<8xf16> -> tensor<8x40001xf16>
  %y = tile.map (%x, %sb) : (tensor<8x40001xf16>, tensor<8x40001xf16>) -> tensor<8x40001xf16> {
  ^bb0(%v: f16, %t: f16):
    %d = arith.subf %v, %t : f16
    tile.yield %d : f16
  }
  return %y : tensor<8x40001xf16>
}
