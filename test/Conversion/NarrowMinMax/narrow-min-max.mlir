// RUN: tile-opt %s --split-input-file --tile-narrow-min-max | FileCheck %s

// Softmax's max pass over bf16: the running maximum stays bf16 in the loop
// and is widened once after it.
// CHECK-LABEL: func @running_max
// CHECK-DAG: %[[INIT:.+]] = arith.constant dense<0xFF80> : vector<16xbf16>
// CHECK: %[[ACC:.+]] = scf.for {{.+}} iter_args(%[[A:.+]] = %[[INIT]]) -> (vector<16xbf16>)
// CHECK:   %[[X:.+]] = vector.load
// CHECK:   %[[M:.+]] = arith.maximumf %[[A]], %[[X]] : vector<16xbf16>
// CHECK:   scf.yield %[[M]] : vector<16xbf16>
// CHECK: %[[WIDE:.+]] = arith.extf %[[ACC]] : vector<16xbf16> to vector<16xf32>
// CHECK: return %[[WIDE]]
func.func @running_max(%row: memref<8192xbf16, 3>) -> vector<16xf32> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c8192 = arith.constant 8192 : index
  %init = arith.constant dense<0xFF800000> : vector<16xf32>
  %max = scf.for %i = %c0 to %c8192 step %c16 iter_args(%acc = %init) -> (vector<16xf32>) {
    %x = vector.load %row[%i] : memref<8192xbf16, 3>, vector<16xbf16>
    %wide = arith.extf %x : vector<16xbf16> to vector<16xf32>
    %m = arith.maximumf %acc, %wide : vector<16xf32>
    scf.yield %m : vector<16xf32>
  }
  return %max : vector<16xf32>
}

// -----

// A masked edge chunk: the mask's filler (-inf) is exact in f16, so the
// select moves to f16 too; minnumf with the accumulator second (it comes
// first after), scalars.
// CHECK-LABEL: func @masked_min
// CHECK-DAG: %[[INF:.+]] = arith.constant 0x7C00 : f16
// CHECK: scf.for {{.+}} iter_args(%[[A:.+]] = %[[INF]]) -> (f16)
// CHECK:   %[[S:.+]] = arith.select %{{.+}}, %{{.+}}, %[[INF]] : f16
// CHECK:   %[[M:.+]] = arith.minnumf %[[A]], %[[S]] : f16
// CHECK:   scf.yield %[[M]] : f16
// CHECK: arith.extf %{{.+}} : f16 to f32
func.func @masked_min(%row: memref<100xf16>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %inf = arith.constant 0x7F800000 : f32
  %min = scf.for %i = %c0 to %c100 step %c1 iter_args(%acc = %inf) -> (f32) {
    %x = memref.load %row[%i] : memref<100xf16>
    %wide = arith.extf %x : f16 to f32
    %in = arith.cmpi ult, %i, %n : index
    %kept = arith.select %in, %wide, %inf : f32
    %m = arith.minnumf %kept, %acc : f32
    scf.yield %m : f32
  }
  return %min : f32
}

// -----

// What stays f32, each for its reason: a start bf16 does not hold exactly
// (1/3); a filler bf16 does not hold exactly; values that were never
// narrow; an accumulator used for more than the max; a sum.
// (A narrowed loop would end in -> (bf16): then the block has four.)
// CHECK-LABEL: func @kept_wide
// CHECK-NOT: arith.constant {{.*}}bf16
// CHECK-COUNT-5: -> (f32)
func.func @kept_wide(%row: memref<64xbf16>, %other: memref<64xf32>, %n: index)
    -> (f32, f32, f32, f32, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %third = arith.constant 0.333333343 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %a = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %third) -> (f32) {
    %x = memref.load %row[%i] : memref<64xbf16>
    %w = arith.extf %x : bf16 to f32
    %m = arith.maximumf %acc, %w : f32
    scf.yield %m : f32
  }
  %b = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %ninf) -> (f32) {
    %x = memref.load %row[%i] : memref<64xbf16>
    %w = arith.extf %x : bf16 to f32
    %in = arith.cmpi ult, %i, %n : index
    %kept = arith.select %in, %w, %third : f32
    %m = arith.maximumf %acc, %kept : f32
    scf.yield %m : f32
  }
  %c = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %ninf) -> (f32) {
    %x = memref.load %other[%i] : memref<64xf32>
    %m = arith.maximumf %acc, %x : f32
    scf.yield %m : f32
  }
  %d = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %ninf) -> (f32) {
    %x = memref.load %row[%i] : memref<64xbf16>
    %w = arith.extf %x : bf16 to f32
    memref.store %acc, %other[%i] : memref<64xf32>
    %m = arith.maximumf %acc, %w : f32
    scf.yield %m : f32
  }
  %e = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> (f32) {
    %x = memref.load %row[%i] : memref<64xbf16>
    %w = arith.extf %x : bf16 to f32
    %s = arith.addf %acc, %w : f32
    scf.yield %s : f32
  }
  return %a, %b, %c, %d, %e : f32, f32, f32, f32, f32
}

// -----

// The accumulator third among the loop's values: only it changes; the
// others, the loop's `unsigned` and the max's fast-math flags stay.
// CHECK-LABEL: func @third_of_three
// CHECK: %{{.+}}:3 = scf.for unsigned {{.+}} -> (i32, f32, vector<2xbf16>)
// CHECK:   arith.maximumf %{{.+}}, %{{.+}} fastmath<nnan> : vector<2xbf16>
// CHECK:   scf.yield %{{.+}}, %{{.+}}, %{{.+}} : i32, f32, vector<2xbf16>
// CHECK: arith.extf %{{.+}}#2 : vector<2xbf16> to vector<2xf32>
func.func @third_of_three(%row: memref<64xbf16>) -> (i32, f32, vector<2xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %fzero = arith.constant 0.0 : f32
  %init = arith.constant dense<0xFF800000> : vector<2xf32>
  %r:3 = scf.for unsigned %i = %c0 to %c64 step %c2
      iter_args(%n = %zero, %s = %fzero, %acc = %init) -> (i32, f32, vector<2xf32>) {
    %x = vector.load %row[%i] : memref<64xbf16>, vector<2xbf16>
    %w = arith.extf %x : vector<2xbf16> to vector<2xf32>
    %m = arith.maximumf %acc, %w fastmath<nnan> : vector<2xf32>
    %n1 = arith.addi %n, %one : i32
    %e = vector.extract %w[0] : f32 from vector<2xf32>
    %s1 = arith.addf %s, %e : f32
    scf.yield %n1, %s1, %m : i32, f32, vector<2xf32>
  }
  return %r#0, %r#1, %r#2 : i32, f32, vector<2xf32>
}

// -----

// Left alone: the max also used in the loop; bf16 and f16 mixed through a
// select; 65536 as the start of an f16 maximum (f16 tops out at 65504);
// a tensor accumulator; f8 values (no packed f8 max in PTX).
// CHECK-LABEL: func @not_narrowed
// CHECK-COUNT-4: -> (f32)
// CHECK: -> (tensor<4xf32>)
func.func @not_narrowed(%row: memref<64xbf16>, %half: memref<64xf16>,
                        %f8: memref<64xf8E4M3FN>, %out: memref<64xf32>,
                        %t: tensor<4xbf16>, %c: i1)
    -> (f32, f32, f32, f32, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %ninf = arith.constant 0xFF800000 : f32
  %big = arith.constant 65536.0 : f32
  %a = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %ninf) -> (f32) {
    %x = memref.load %row[%i] : memref<64xbf16>
    %w = arith.extf %x : bf16 to f32
    %m = arith.maximumf %acc, %w : f32
    memref.store %m, %out[%i] : memref<64xf32>
    scf.yield %m : f32
  }
  %b = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %ninf) -> (f32) {
    %x = memref.load %row[%i] : memref<64xbf16>
    %y = memref.load %half[%i] : memref<64xf16>
    %wx = arith.extf %x : bf16 to f32
    %wy = arith.extf %y : f16 to f32
    %v = arith.select %c, %wx, %wy : f32
    %m = arith.maximumf %acc, %v : f32
    scf.yield %m : f32
  }
  %d = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %big) -> (f32) {
    %y = memref.load %half[%i] : memref<64xf16>
    %w = arith.extf %y : f16 to f32
    %m = arith.minimumf %acc, %w : f32
    scf.yield %m : f32
  }
  %e = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %ninf) -> (f32) {
    %y = memref.load %f8[%i] : memref<64xf8E4M3FN>
    %w = arith.extf %y : f8E4M3FN to f32
    %m = arith.maximumf %acc, %w : f32
    scf.yield %m : f32
  }
  %tinit = arith.constant dense<0xFF800000> : tensor<4xf32>
  %f = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %tinit) -> (tensor<4xf32>) {
    %w = arith.extf %t : tensor<4xbf16> to tensor<4xf32>
    %m = arith.maximumf %acc, %w : tensor<4xf32>
    scf.yield %m : tensor<4xf32>
  }
  return %a, %b, %d, %e, %f : f32, f32, f32, f32, tensor<4xf32>
}
