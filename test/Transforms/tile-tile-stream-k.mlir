// RUN: tile-opt %s -split-input-file -verify-diagnostics --tile-fuse --tile-tile | FileCheck %s

// Stream-K (config stream_k): 640 x 768 in 128 x 256 tiles is 15 tiles of
// 8 K steps (of 64) on 4 SMs: 3 rounds of whole tiles, then the last 3
// tiles' 24 steps, 6 a program (ranges start at floor(p 24 / 4)), each
// tail tile cut in 2 parts. One persistent kernel of 4 programs; a part's
// f32 partial goes to slot 2 p or 2 p + 1 of the workspace (8 tiles of
// 128 x 256), its arrival adds its steps to the tile's counter (one per
// tail tile, zeroed), and the last of a tile's parts adds the tile's 2
// partials (the second where the tile has it: a select, so that an
// infinite partial of a slot read twice makes no NaN) 16 rows at a time
// and runs the
// epilogue. A whole tile (a round's, or a part that is one) runs it at once.
// CHECK-LABEL: func @stream_k
// CHECK: %[[WS:.+]] = memref.alloc() : memref<1024x256xf32>
// CHECK: %[[COUNT:.+]] = memref.alloc() {tile.zeroed} : memref<3xi32>
// CHECK: tile.kernel @stream_k_0 grid [4] threads 256(%{{.+}}, %{{.+}}, %[[WS]], %[[COUNT]], {{.+}} attributes {tile.config = #tile.config<{{.+}}stream_k = true>}
// CHECK: %[[PID:.+]] = tile.program_id 0
// CHECK: %[[SCALED:.+]] = arith.muli %[[PID]], %c24{{.*}} : index
// CHECK: %[[START:.+]] = arith.divui %[[SCALED]], %c4{{.*}} : index
// CHECK: scf.for %[[ITEM:.+]] = %c0{{.*}} to %{{.+}} step %c1
// CHECK: %[[IN_ROUNDS:.+]] = arith.cmpi ult, %[[ITEM]], %c3{{.*}} : index
// CHECK: %[[ACC:.+]] = scf.for %{{.+}} = %c0{{.*}} to %{{.+}} step %c64
// CHECK: tile.dot
// CHECK: %[[WHOLE:.+]] = arith.cmpi eq, %[[STEPS:.+]], %c8{{.*}} : index
// CHECK: scf.if %[[WHOLE]] {
// CHECK: tile.cast %[[ACC]]
// CHECK: tile.store %{{.+}} : !tile.tile<128x256xbf16>, memref<640x768xbf16>
// CHECK: } else {
// CHECK: tile.store %[[ACC]], %{{.+}} : !tile.tile<128x256xf32>, memref<1024x256xf32>
// CHECK: %[[LAST:.+]] = tile.last_arrival %{{.+}}[%{{.+}}] of 8 adding %[[STEPS]] : memref<3xi32>
// CHECK: scf.if %[[LAST]] {
// CHECK: scf.for %{{.+}} = %c0{{.*}} to %c128{{.*}} step %c16
// CHECK-COUNT-2: tile.load %{{.+}} : memref<1024x256xf32> -> !tile.tile<16x256xf32>
// CHECK: %[[ADDED:.+]] = arith.addf
// CHECK: %[[KEPT:.+]] = arith.cmpf one
// CHECK: arith.select %[[KEPT]], %[[ADDED]]
// CHECK: tile.cast
// CHECK: tile.store %{{.+}} : !tile.tile<16x256xbf16>, memref<640x768xbf16>
// CHECK-NOT: tile.kernel
// CHECK: memref.dealloc %[[WS]]
// CHECK: memref.dealloc %[[COUNT]]
module attributes {tile.target = #tile.target<"sm_90a", sms = 4>} {
  func.func @stream_k(%a: tensor<640x512xbf16>, %b: tensor<512x768xbf16>) -> tensor<640x768xbf16> {
    %c = tile.matmul %a, %b {tile.config = #tile.config<block = [128, 256, 64], threads = 256, mma = wgmma, instr = [64, 256, 16], warps = [8, 1], stages = 4, persistent = true, group_rows = 8, warp_specialize = true, stream_k = true>} : (tensor<640x512xbf16>, tensor<512x768xbf16>) -> tensor<640x768xf32>
    %o = tile.cast %c : tensor<640x768xf32> -> tensor<640x768xbf16>
    return %o : tensor<640x768xbf16>
  }
}

// -----

// Tiles that are a multiple of the SMs (15 on 5): whole rounds only, no
// workspace and no counters.
// CHECK-LABEL: func @whole_rounds
// CHECK-NOT: memref.alloc
// CHECK: tile.kernel @whole_rounds_0 grid [5]
// CHECK: scf.for %{{.+}} = %c0{{.*}} to %c3{{.*}} step %c1
// CHECK: scf.for %{{.+}} = %c0{{.*}} to %c512{{.*}} step %c64
// CHECK-NOT: tile.last_arrival
module attributes {tile.target = #tile.target<"sm_90a", sms = 5>} {
  func.func @whole_rounds(%a: tensor<640x512xbf16>, %b: tensor<512x768xbf16>) -> tensor<640x768xf32> {
    %c = tile.matmul %a, %b {tile.config = #tile.config<block = [128, 256, 64], threads = 256, mma = wgmma, instr = [64, 256, 16], warps = [8, 1], stages = 4, persistent = true, group_rows = 8, warp_specialize = true, stream_k = true>} : (tensor<640x512xbf16>, tensor<512x768xbf16>) -> tensor<640x768xf32>
    return %c : tensor<640x768xf32>
  }
}

// -----

// Fewer K steps past the whole rounds than programs: a program would have
// no part, and a tile's sum would read a slot no one wrote.
module attributes {tile.target = #tile.target<"sm_90a", sms = 200>} {
  func.func @too_few_steps(%a: tensor<640x512xbf16>, %b: tensor<512x768xbf16>) -> tensor<640x768xf32> {
    // expected-error @+1 {{has a stream_k config, but the 15 tiles past the whole rounds have 120 K steps of 64, fewer than the 200 programs}}
    %c = tile.matmul %a, %b {tile.config = #tile.config<block = [128, 256, 64], threads = 256, mma = wgmma, instr = [64, 256, 16], warps = [8, 1], stages = 4, persistent = true, group_rows = 8, warp_specialize = true, stream_k = true>} : (tensor<640x512xbf16>, tensor<512x768xbf16>) -> tensor<640x768xf32>
    return %c : tensor<640x768xf32>
  }
}
