// tile-hoist-broadcast-math: the ops of a map that depend on a broadcast
// input alone move into a map over the broadcast's input.
// - An e8m0 scale's decode (four ops ending in the bits of an integer
//   shifted left by 23: exactly a bf16) is computed once a scale and
//   travels as bf16, widened where the product reads it; so does the OCP
//   spec's decode (2^-127 for byte 0 by a max, NaN for 255 by a select:
//   bits whose low half is zero), but not bits that a select may take
//   from a constant with low bits set. The bf16 is the bits' high half.
// - A decode that ends in a bf16 widened to f32 (tl.quantized_matmul's
//   e8m0: bf16 bits made in i16) travels as that bf16.
// - A scale that is only widened (one op) stays where it is.
// - A result that is not exactly a bf16 travels as f32.
// - An input read both alone and with others stays where it is.
// RUN: tile-opt %s --tile-hoist-broadcast-math | FileCheck %s

// CHECK-LABEL: func @e8m0
// CHECK: %[[S:.+]] = tile.load %{{.+}} -> !tile.tile<64xi8>
// CHECK: %[[DEC:.+]] = tile.map(%[[S]]) : (!tile.tile<64xi8>) -> !tile.tile<64xbf16> {
// CHECK:   arith.extui
// CHECK:   arith.andi
// CHECK:   arith.addi
// CHECK:   %[[SB:.+]] = arith.shli
// CHECK-NOT: arith.bitcast %{{.+}} : i32 to f32
// CHECK:   %[[HI:.+]] = arith.shrui %[[SB]], %c16_i32 : i32
// CHECK:   %[[H16:.+]] = arith.trunci %[[HI]] : i32 to i16
// CHECK:   %[[H:.+]] = arith.bitcast %[[H16]] : i16 to bf16
// CHECK:   tile.yield %[[H]] : bf16
// CHECK: %[[B:.+]] = tile.broadcast %[[DEC]] [1] : !tile.tile<64xbf16> -> !tile.tile<64x32xbf16>
// CHECK: tile.map(%{{.+}}, %[[B]]) : (!tile.tile<64x32xi8>, !tile.tile<64x32xbf16>) -> !tile.tile<64x32xbf16> {
// CHECK: ^bb0(%{{.+}}: i8, %[[E:.+]]: bf16):
// CHECK:   %[[W:.+]] = arith.extf %[[E]] : bf16 to f32
// CHECK-NOT: arith.shli %{{.+}}, %c23
// CHECK:   arith.mulf %{{.+}}, %[[W]] : f32
func.func @e8m0(%Q: memref<64x16xi8>, %E: memref<64xi8>, %Y: memref<64x32xbf16>) {
  tile.kernel @k grid [1] threads 128 (%Q, %E, %Y) : memref<64x16xi8>, memref<64xi8>, memref<64x32xbf16> {
  ^bb0(%q: memref<64x16xi8>, %e: memref<64xi8>, %y: memref<64x32xbf16>):
    %c0 = arith.constant 0 : index
    %tq = tile.load %q[%c0, %c0] : memref<64x16xi8> -> !tile.tile<64x16xi8>
    %u = tile.unpack %tq interleaved : !tile.tile<64x16xi8> -> !tile.tile<64x32xi8>
    %ts = tile.load %e[%c0] : memref<64xi8> -> !tile.tile<64xi8>
    %bs = tile.broadcast %ts [1] : !tile.tile<64xi8> -> !tile.tile<64x32xi8>
    %w = tile.map (%u, %bs) : (!tile.tile<64x32xi8>, !tile.tile<64x32xi8>) -> !tile.tile<64x32xbf16> {
    ^bb0(%c: i8, %r: i8):
      %c15 = arith.constant 15 : i32
      %c120 = arith.constant 120 : i32
      %c23 = arith.constant 23 : i32
      %e32 = arith.extui %r : i8 to i32
      %el = arith.andi %e32, %c15 : i32
      %eb = arith.addi %el, %c120 : i32
      %sb = arith.shli %eb, %c23 : i32
      %s = arith.bitcast %sb : i32 to f32
      %v = arith.uitofp %c : i8 to f32
      %p = arith.mulf %v, %s : f32
      %h = arith.truncf %p : f32 to bf16
      tile.yield %h : bf16
    }
    tile.store %w, %y[%c0, %c0] : !tile.tile<64x32xbf16>, memref<64x32xbf16>
  }
  return
}

// CHECK-LABEL: func @e8m0_spec
// CHECK: %[[S:.+]] = tile.load %{{.+}} -> !tile.tile<64xi8>
// CHECK: %[[DEC:.+]] = tile.map(%[[S]]) : (!tile.tile<64xi8>) -> !tile.tile<64xbf16> {
// CHECK:   arith.shli
// CHECK:   arith.maxui
// CHECK:   %[[SN:.+]] = arith.select
// CHECK:   %[[HI:.+]] = arith.shrui %[[SN]], %c16_i32 : i32
// CHECK:   arith.trunci %[[HI]] : i32 to i16
// CHECK: tile.broadcast %[[DEC]] [1] : !tile.tile<64xbf16> -> !tile.tile<64x32xbf16>
// CHECK: ^bb0(%{{.+}}: i8, %[[E:.+]]: bf16):
// CHECK:   arith.extf %[[E]] : bf16 to f32
func.func @e8m0_spec(%Q: memref<64x16xi8>, %E: memref<64xi8>, %Y: memref<64x32xbf16>) {
  tile.kernel @k grid [1] threads 128 (%Q, %E, %Y) : memref<64x16xi8>, memref<64xi8>, memref<64x32xbf16> {
  ^bb0(%q: memref<64x16xi8>, %e: memref<64xi8>, %y: memref<64x32xbf16>):
    %c0 = arith.constant 0 : index
    %tq = tile.load %q[%c0, %c0] : memref<64x16xi8> -> !tile.tile<64x16xi8>
    %u = tile.unpack %tq interleaved : !tile.tile<64x16xi8> -> !tile.tile<64x32xi8>
    %ts = tile.load %e[%c0] : memref<64xi8> -> !tile.tile<64xi8>
    %bs = tile.broadcast %ts [1] : !tile.tile<64xi8> -> !tile.tile<64x32xi8>
    %w = tile.map (%u, %bs) : (!tile.tile<64x32xi8>, !tile.tile<64x32xi8>) -> !tile.tile<64x32xbf16> {
    ^bb0(%c: i8, %r: i8):
      %c23 = arith.constant 23 : i32
      %c255 = arith.constant 255 : i32
      %tiny = arith.constant 4194304 : i32
      %nan = arith.constant 2143289344 : i32
      %e32 = arith.extui %r : i8 to i32
      %sb = arith.shli %e32, %c23 : i32
      %sz = arith.maxui %sb, %tiny : i32
      %is255 = arith.cmpi eq, %e32, %c255 : i32
      %sn = arith.select %is255, %nan, %sz : i32
      %s = arith.bitcast %sn : i32 to f32
      %v = arith.uitofp %c : i8 to f32
      %p = arith.mulf %v, %s : f32
      %h = arith.truncf %p : f32 to bf16
      tile.yield %h : bf16
    }
    tile.store %w, %y[%c0, %c0] : !tile.tile<64x32xbf16>, memref<64x32xbf16>
  }
  return
}

// 2^-127 plus one: a constant whose low half is not zero.
// CHECK-LABEL: func @low_bits_set
// CHECK: %[[DEC:.+]] = tile.map(%{{.+}}) : (!tile.tile<64xi8>) -> !tile.tile<64xf32> {
// CHECK-NOT: arith.trunci
// CHECK: tile.broadcast %[[DEC]] [1] : !tile.tile<64xf32> -> !tile.tile<64x32xf32>
func.func @low_bits_set(%Q: memref<64x16xi8>, %E: memref<64xi8>, %Y: memref<64x32xbf16>) {
  tile.kernel @k grid [1] threads 128 (%Q, %E, %Y) : memref<64x16xi8>, memref<64xi8>, memref<64x32xbf16> {
  ^bb0(%q: memref<64x16xi8>, %e: memref<64xi8>, %y: memref<64x32xbf16>):
    %c0 = arith.constant 0 : index
    %tq = tile.load %q[%c0, %c0] : memref<64x16xi8> -> !tile.tile<64x16xi8>
    %u = tile.unpack %tq interleaved : !tile.tile<64x16xi8> -> !tile.tile<64x32xi8>
    %ts = tile.load %e[%c0] : memref<64xi8> -> !tile.tile<64xi8>
    %bs = tile.broadcast %ts [1] : !tile.tile<64xi8> -> !tile.tile<64x32xi8>
    %w = tile.map (%u, %bs) : (!tile.tile<64x32xi8>, !tile.tile<64x32xi8>) -> !tile.tile<64x32xbf16> {
    ^bb0(%c: i8, %r: i8):
      %c23 = arith.constant 23 : i32
      %c255 = arith.constant 255 : i32
      %tiny = arith.constant 4194305 : i32
      %nan = arith.constant 2143289344 : i32
      %e32 = arith.extui %r : i8 to i32
      %sb = arith.shli %e32, %c23 : i32
      %sz = arith.maxui %sb, %tiny : i32
      %is255 = arith.cmpi eq, %e32, %c255 : i32
      %sn = arith.select %is255, %nan, %sz : i32
      %s = arith.bitcast %sn : i32 to f32
      %v = arith.uitofp %c : i8 to f32
      %p = arith.mulf %v, %s : f32
      %h = arith.truncf %p : f32 to bf16
      tile.yield %h : bf16
    }
    tile.store %w, %y[%c0, %c0] : !tile.tile<64x32xbf16>, memref<64x32xbf16>
  }
  return
}

// CHECK-LABEL: func @bf16_widened
// CHECK: %[[DEC:.+]] = tile.map(%{{.+}}) : (!tile.tile<64xi8>) -> !tile.tile<64xbf16> {
// CHECK:   arith.maxui %{{.+}} : i16
// CHECK:   %[[SN:.+]] = arith.addf %{{.+}} : bf16
// CHECK-NOT: arith.extf
// CHECK:   tile.yield %[[SN]] : bf16
// CHECK: tile.broadcast %[[DEC]] [1] : !tile.tile<64xbf16> -> !tile.tile<64x32xbf16>
// CHECK: ^bb0(%{{.+}}: i8, %[[E:.+]]: bf16):
// CHECK:   %[[W:.+]] = arith.extf %[[E]] : bf16 to f32
// CHECK:   arith.mulf %{{.+}}, %[[W]] : f32
func.func @bf16_widened(%Q: memref<64x16xi8>, %E: memref<64xi8>, %Y: memref<64x32xbf16>) {
  tile.kernel @k grid [1] threads 128 (%Q, %E, %Y) : memref<64x16xi8>, memref<64xi8>, memref<64x32xbf16> {
  ^bb0(%q: memref<64x16xi8>, %e: memref<64xi8>, %y: memref<64x32xbf16>):
    %c0 = arith.constant 0 : index
    %tq = tile.load %q[%c0, %c0] : memref<64x16xi8> -> !tile.tile<64x16xi8>
    %u = tile.unpack %tq interleaved : !tile.tile<64x16xi8> -> !tile.tile<64x32xi8>
    %ts = tile.load %e[%c0] : memref<64xi8> -> !tile.tile<64xi8>
    %bs = tile.broadcast %ts [1] : !tile.tile<64xi8> -> !tile.tile<64x32xi8>
    %w = tile.map (%u, %bs) : (!tile.tile<64x32xi8>, !tile.tile<64x32xi8>) -> !tile.tile<64x32xbf16> {
    ^bb0(%c: i8, %r: i8):
      %c7 = arith.constant 7 : i16
      %tiny = arith.constant 64 : i16
      %e16 = arith.extui %r : i8 to i16
      %sb = arith.shli %e16, %c7 : i16
      %sz = arith.maxui %sb, %tiny : i16
      %sh = arith.bitcast %sz : i16 to bf16
      %nanish = arith.subf %sh, %sh : bf16
      %sn = arith.addf %sh, %nanish : bf16
      %s = arith.extf %sn : bf16 to f32
      %v = arith.uitofp %c : i8 to f32
      %p = arith.mulf %v, %s : f32
      %h = arith.truncf %p : f32 to bf16
      tile.yield %h : bf16
    }
    tile.store %w, %y[%c0, %c0] : !tile.tile<64x32xbf16>, memref<64x32xbf16>
  }
  return
}

// CHECK-LABEL: func @widened
// CHECK: %[[B:.+]] = tile.broadcast %{{.+}} [1] : !tile.tile<64xbf16> -> !tile.tile<64x32xbf16>
// CHECK: tile.map(%{{.+}}, %[[B]])
// CHECK:   arith.extf
func.func @widened(%Q: memref<64x16xi8>, %S: memref<64xbf16>, %Y: memref<64x32xbf16>) {
  tile.kernel @k grid [1] threads 128 (%Q, %S, %Y) : memref<64x16xi8>, memref<64xbf16>, memref<64x32xbf16> {
  ^bb0(%q: memref<64x16xi8>, %s: memref<64xbf16>, %y: memref<64x32xbf16>):
    %c0 = arith.constant 0 : index
    %tq = tile.load %q[%c0, %c0] : memref<64x16xi8> -> !tile.tile<64x16xi8>
    %u = tile.unpack %tq signed interleaved : !tile.tile<64x16xi8> -> !tile.tile<64x32xi8>
    %ts = tile.load %s[%c0] : memref<64xbf16> -> !tile.tile<64xbf16>
    %bs = tile.broadcast %ts [1] : !tile.tile<64xbf16> -> !tile.tile<64x32xbf16>
    %w = tile.map (%u, %bs) : (!tile.tile<64x32xi8>, !tile.tile<64x32xbf16>) -> !tile.tile<64x32xbf16> {
    ^bb0(%c: i8, %g: bf16):
      %v = arith.sitofp %c : i8 to f32
      %gf = arith.extf %g : bf16 to f32
      %p = arith.mulf %v, %gf : f32
      %h = arith.truncf %p : f32 to bf16
      tile.yield %h : bf16
    }
    tile.store %w, %y[%c0, %c0] : !tile.tile<64x32xbf16>, memref<64x32xbf16>
  }
  return
}

// CHECK-LABEL: func @f32_result
// CHECK: %[[DEC:.+]] = tile.map(%{{.+}}) : (!tile.tile<64xbf16>) -> !tile.tile<64xf32> {
// CHECK-NOT: arith.truncf
// CHECK: tile.broadcast %[[DEC]] [1] : !tile.tile<64xf32> -> !tile.tile<64x32xf32>
func.func @f32_result(%Q: memref<64x16xi8>, %S: memref<64xbf16>, %Y: memref<64x32xf32>) {
  tile.kernel @k grid [1] threads 128 (%Q, %S, %Y) : memref<64x16xi8>, memref<64xbf16>, memref<64x32xf32> {
  ^bb0(%q: memref<64x16xi8>, %s: memref<64xbf16>, %y: memref<64x32xf32>):
    %c0 = arith.constant 0 : index
    %tq = tile.load %q[%c0, %c0] : memref<64x16xi8> -> !tile.tile<64x16xi8>
    %u = tile.unpack %tq signed interleaved : !tile.tile<64x16xi8> -> !tile.tile<64x32xi8>
    %ts = tile.load %s[%c0] : memref<64xbf16> -> !tile.tile<64xbf16>
    %bs = tile.broadcast %ts [1] : !tile.tile<64xbf16> -> !tile.tile<64x32xbf16>
    %w = tile.map (%u, %bs) : (!tile.tile<64x32xi8>, !tile.tile<64x32xbf16>) -> !tile.tile<64x32xf32> {
    ^bb0(%c: i8, %g: bf16):
      %third = arith.constant 0.333333343 : f32
      %v = arith.sitofp %c : i8 to f32
      %gf = arith.extf %g : bf16 to f32
      %gs = arith.mulf %gf, %third : f32
      %p = arith.mulf %v, %gs : f32
      tile.yield %p : f32
    }
    tile.store %w, %y[%c0, %c0] : !tile.tile<64x32xf32>, memref<64x32xf32>
  }
  return
}

// CHECK-LABEL: func @read_elsewhere
// CHECK: %[[B:.+]] = tile.broadcast %{{.+}} [1] : !tile.tile<64xbf16> -> !tile.tile<64x32xbf16>
// CHECK: tile.map(%{{.+}}, %[[B]])
// CHECK:   arith.mulf
// CHECK:   arith.addf
func.func @read_elsewhere(%Q: memref<64x16xi8>, %S: memref<64xbf16>, %Y: memref<64x32xf32>) {
  tile.kernel @k grid [1] threads 128 (%Q, %S, %Y) : memref<64x16xi8>, memref<64xbf16>, memref<64x32xf32> {
  ^bb0(%q: memref<64x16xi8>, %s: memref<64xbf16>, %y: memref<64x32xf32>):
    %c0 = arith.constant 0 : index
    %tq = tile.load %q[%c0, %c0] : memref<64x16xi8> -> !tile.tile<64x16xi8>
    %u = tile.unpack %tq signed interleaved : !tile.tile<64x16xi8> -> !tile.tile<64x32xi8>
    %ts = tile.load %s[%c0] : memref<64xbf16> -> !tile.tile<64xbf16>
    %bs = tile.broadcast %ts [1] : !tile.tile<64xbf16> -> !tile.tile<64x32xbf16>
    %w = tile.map (%u, %bs) : (!tile.tile<64x32xi8>, !tile.tile<64x32xbf16>) -> !tile.tile<64x32xf32> {
    ^bb0(%c: i8, %g: bf16):
      %v = arith.sitofp %c : i8 to f32
      %gf = arith.extf %g : bf16 to f32
      %gs = arith.mulf %gf, %gf : f32
      %vg = arith.truncf %v : f32 to bf16
      %x = arith.addf %vg, %g : bf16
      %xf = arith.extf %x : bf16 to f32
      %p = arith.mulf %xf, %gs : f32
      tile.yield %p : f32
    }
    tile.store %w, %y[%c0, %c0] : !tile.tile<64x32xf32>, memref<64x32xf32>
  }
  return
}

// A broadcast outside a loop and its map inside: the decode goes where the
// broadcast is, out of the loop.
// CHECK-LABEL: func @out_of_loop
// CHECK: tile.map(%{{.+}}) : (!tile.tile<64xi8>) -> !tile.tile<64xbf16>
// CHECK: tile.broadcast %{{.+}} [1] : !tile.tile<64xbf16> -> !tile.tile<64x32xbf16>
// CHECK: scf.for
// CHECK-NOT: arith.shli
// CHECK: tile.map
// CHECK: scf.yield
func.func @out_of_loop(%Q: memref<64x64xi8>, %E: memref<64xi8>, %Y: memref<64x32xbf16>) {
  tile.kernel @k grid [1] threads 128 (%Q, %E, %Y) : memref<64x64xi8>, memref<64xi8>, memref<64x32xbf16> {
  ^bb0(%q: memref<64x64xi8>, %e: memref<64xi8>, %y: memref<64x32xbf16>):
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %ts = tile.load %e[%c0] : memref<64xi8> -> !tile.tile<64xi8>
    %bs = tile.broadcast %ts [1] : !tile.tile<64xi8> -> !tile.tile<64x32xi8>
    %zero = arith.constant 0.0 : bf16
    %z = tile.splat %zero : bf16 -> !tile.tile<64x32xbf16>
    %acc = scf.for %k = %c0 to %c64 step %c16 iter_args(%a = %z) -> (!tile.tile<64x32xbf16>) {
      %tq = tile.load %q[%c0, %k] : memref<64x64xi8> -> !tile.tile<64x16xi8>
      %u = tile.unpack %tq interleaved : !tile.tile<64x16xi8> -> !tile.tile<64x32xi8>
      %w = tile.map (%u, %bs, %a) : (!tile.tile<64x32xi8>, !tile.tile<64x32xi8>, !tile.tile<64x32xbf16>) -> !tile.tile<64x32xbf16> {
      ^bb0(%c: i8, %r: i8, %p: bf16):
        %c23 = arith.constant 23 : i32
        %e32 = arith.extui %r : i8 to i32
        %sb = arith.shli %e32, %c23 : i32
        %s = arith.bitcast %sb : i32 to f32
        %v = arith.uitofp %c : i8 to f32
        %m = arith.mulf %v, %s : f32
        %h = arith.truncf %m : f32 to bf16
        %sum = arith.addf %h, %p : bf16
        tile.yield %sum : bf16
      }
      scf.yield %w : !tile.tile<64x32xbf16>
    }
    tile.store %acc, %y[%c0, %c0] : !tile.tile<64x32xbf16>, memref<64x32xbf16>
  }
  return
}

// Left as they are: a decode ending in an index (not a tile element), and
// one reading a constant that is not arith's (a map body holds arith only).
// CHECK-LABEL: func @index_root
// CHECK-NOT: tile.map(%{{[0-9a-z_]+}}) : (!tile.tile<64xi8>)
// CHECK: arith.index_castui
func.func @index_root(%Q: memref<64x32xi32>, %E: memref<64xi8>, %Y: memref<64x32xi32>) {
  tile.kernel @k grid [1] threads 128 (%Q, %E, %Y) : memref<64x32xi32>, memref<64xi8>, memref<64x32xi32> {
  ^bb0(%q: memref<64x32xi32>, %e: memref<64xi8>, %y: memref<64x32xi32>):
    %c0 = arith.constant 0 : index
    %tq = tile.load %q[%c0, %c0] : memref<64x32xi32> -> !tile.tile<64x32xi32>
    %ts = tile.load %e[%c0] : memref<64xi8> -> !tile.tile<64xi8>
    %bs = tile.broadcast %ts [1] : !tile.tile<64xi8> -> !tile.tile<64x32xi8>
    %w = tile.map (%tq, %bs) : (!tile.tile<64x32xi32>, !tile.tile<64x32xi8>) -> !tile.tile<64x32xi32> {
    ^bb0(%c: i32, %r: i8):
      %c4 = arith.constant 4 : index
      %i = arith.index_castui %r : i8 to index
      %j = arith.muli %i, %c4 : index
      %ci = arith.index_castui %c : i32 to index
      %t = arith.addi %ci, %j : index
      %s = arith.index_castui %t : index to i32
      tile.yield %s : i32
    }
    tile.store %w, %y[%c0, %c0] : !tile.tile<64x32xi32>, memref<64x32xi32>
  }
  return
}

// CHECK-LABEL: func @poison_operand
// CHECK-NOT: tile.map(%{{[0-9a-z_]+}}) : (!tile.tile<64xf32>)
func.func @poison_operand(%Q: memref<64x32xf32>, %E: memref<64xf32>, %Y: memref<64x32xf32>) {
  tile.kernel @k grid [1] threads 128 (%Q, %E, %Y) : memref<64x32xf32>, memref<64xf32>, memref<64x32xf32> {
  ^bb0(%q: memref<64x32xf32>, %e: memref<64xf32>, %y: memref<64x32xf32>):
    %c0 = arith.constant 0 : index
    %poison = ub.poison : f32
    %tq = tile.load %q[%c0, %c0] : memref<64x32xf32> -> !tile.tile<64x32xf32>
    %ts = tile.load %e[%c0] : memref<64xf32> -> !tile.tile<64xf32>
    %bs = tile.broadcast %ts [1] : !tile.tile<64xf32> -> !tile.tile<64x32xf32>
    %w = tile.map (%tq, %bs) : (!tile.tile<64x32xf32>, !tile.tile<64x32xf32>) -> !tile.tile<64x32xf32> {
    ^bb0(%c: f32, %r: f32):
      %a = arith.addf %r, %poison : f32
      %b = arith.mulf %a, %r : f32
      %s = arith.addf %c, %b : f32
      tile.yield %s : f32
    }
    tile.store %w, %y[%c0, %c0] : !tile.tile<64x32xf32>, memref<64x32xf32>
  }
  return
}
