// tile-fuse outlines a group only where every scalar it reads from outside
// (an operand, or a value a map's body captures) is a constant, which the
// fused op clones: a row group (and an attention group) that reads a
// function's scalar argument stays unfused, for tile-tile to reject (the
// elementwise groups had this check; row and attention groups crashed
// tile-fuse, cloning the argument's missing defining op).
// RUN: tile-opt %s -split-input-file --tile-fuse | FileCheck %s
// RUN: not tile-compile %s --fuse --chip=sm_90a --function=row_group_reads_argument -o /dev/null 2>&1 | FileCheck %s --check-prefix=COMPILE
// RUN: not tile-compile %s --fuse --chip=sm_90a --function=attention_reads_argument -o /dev/null 2>&1 | FileCheck %s --check-prefix=COMPILE-ATTENTION

// CHECK-LABEL: func @row_group_reads_argument
// CHECK-NOT: tile.fused
// CHECK: tile.reduce
// CHECK: tile.map
// COMPILE: error: 'func.func' op expected tensor arguments but argument #0 is 'f32'
// COMPILE-ATTENTION: error: 'func.func' op expected tensor arguments but argument #0 is 'i32'
func.func @row_group_reads_argument(%s: f32, %x: tensor<64x1000xf32>) -> tensor<64x1000xf32> {
  %zero = arith.constant 0.0 : f32
  %sum = tile.reduce %x, %zero dim = 1 : tensor<64x1000xf32>, f32 -> tensor<64xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  %mb = tile.broadcast %sum [1] : tensor<64xf32> -> tensor<64x1000xf32>
  %y = tile.map (%x, %mb) : (tensor<64x1000xf32>, tensor<64x1000xf32>) -> tensor<64x1000xf32> {
  ^bb0(%v: f32, %m: f32):
    %r = arith.subf %v, %m : f32
    %t = arith.mulf %r, %s : f32
    tile.yield %t : f32
  }
  return %y : tensor<64x1000xf32>
}

// -----

// An attention block whose window mask reads a scalar argument: no
// attention group (the groups that read only constants still form).
// CHECK-LABEL: func @attention_reads_argument
// CHECK-NOT: tile.attention
// CHECK: return
func.func @attention_reads_argument(%w: i32, %q: tensor<1024x64xbf16>, %k: tensor<1024x64xbf16>, %v: tensor<1024x64xbf16>) -> tensor<1024x64xbf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.125 : f32

  %kt = tile.transpose %k : tensor<1024x64xbf16> -> tensor<64x1024xbf16>
  %s = tile.matmul %q, %kt : (tensor<1024x64xbf16>, tensor<64x1024xbf16>) -> tensor<1024x1024xf32>
  %rows = tile.iota dim = 0 : tensor<1024x1024xi32>
  %cols = tile.iota dim = 1 : tensor<1024x1024xi32>
  %rows2 = tile.iota dim = 0 : tensor<1024x1024xi32>
  %cols2 = tile.iota dim = 1 : tensor<1024x1024xi32>
  %ss = tile.map (%s, %rows, %cols) : (tensor<1024x1024xf32>, tensor<1024x1024xi32>, tensor<1024x1024xi32>) -> tensor<1024x1024xf32> {
  ^bb0(%a: f32, %i: i32, %j: i32):
    %keep = arith.cmpi sle, %j, %i : i32
    %m = arith.select %keep, %a, %ninf : f32
    tile.yield %m : f32
  }
  %sw = tile.map (%ss, %rows2, %cols2) : (tensor<1024x1024xf32>, tensor<1024x1024xi32>, tensor<1024x1024xi32>) -> tensor<1024x1024xf32> {
  ^bb0(%a: f32, %i: i32, %j: i32):
    %d = arith.subi %i, %j : i32
    %keep = arith.cmpi slt, %d, %w : i32
    %r = arith.mulf %a, %scale : f32
    %m = arith.select %keep, %r, %ninf : f32
    tile.yield %m : f32
  }
  %max = tile.reduce %sw, %ninf dim = 1 : tensor<1024x1024xf32>, f32 -> tensor<1024xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }
  %mb = tile.broadcast %max [1] : tensor<1024xf32> -> tensor<1024x1024xf32>
  %e = tile.map (%sw, %mb) : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  ^bb0(%a: f32, %b: f32):
    %d = arith.subf %a, %b : f32
    %x = math.exp %d : f32
    tile.yield %x : f32
  }
  %sum = tile.reduce %e, %zero dim = 1 : tensor<1024x1024xf32>, f32 -> tensor<1024xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  %sb = tile.broadcast %sum [1] : tensor<1024xf32> -> tensor<1024x1024xf32>
  %p = tile.map (%e, %sb) : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xbf16> {
  ^bb0(%a: f32, %b: f32):
    %d = arith.divf %a, %b : f32
    %x = arith.truncf %d : f32 to bf16
    tile.yield %x : bf16
  }
  %o = tile.matmul %p, %v : (tensor<1024x1024xbf16>, tensor<1024x64xbf16>) -> tensor<1024x64xf32>
  %ob = tile.cast %o : tensor<1024x64xf32> -> tensor<1024x64xbf16>
  return %ob : tensor<1024x64xbf16>
}
