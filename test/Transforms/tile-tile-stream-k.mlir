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

// -----

// Parts of a fixed count of steps (stream_k_part = 4): the same 15 tiles
// of 8 steps on 12 SMs are one round, then the last 3 tiles' 24 steps in
// 6 parts of 4, one each for programs 0..5 (tile 12 + p / 2, K from
// (p mod 2) 4 steps). The K loop's extent is a select of two constants
// (a whole tile's 512, a part's 256: tile-overlap's two trip counts); a
// part is whole exactly when its item is a round's, goes to slot 2 p,
// arrives adding 4 steps, and the last of a tile's two parts adds both
// partials (no select: every tail tile has both).
// CHECK-LABEL: func @parts
// CHECK: tile.kernel @parts_0 grid [12]
// CHECK: %[[PID:.+]] = tile.program_id 0
// CHECK: %[[TAKES:.+]] = arith.cmpi ult, %[[PID]], %c6{{.*}} : index
// CHECK: %[[ITEMS:.+]] = arith.select %[[TAKES]], %c2{{.*}}, %c1{{.*}} : index
// CHECK: scf.for %[[ITEM:.+]] = %c0{{.*}} to %[[ITEMS]] step %c1
// CHECK: %[[IN_ROUNDS:.+]] = arith.cmpi ult, %[[ITEM]], %c1{{.*}} : index
// CHECK: arith.divui %[[PID]], %c2{{.*}} : index
// CHECK: arith.remui %[[PID]], %c2{{.*}} : index
// CHECK: %[[EXTENT:.+]] = arith.select %[[IN_ROUNDS]], %c512{{.*}}, %c256{{.*}} : index
// CHECK: %[[ACC:.+]] = scf.for %{{.+}} = %c0{{.*}} to %[[EXTENT]] step %c64
// CHECK: scf.if %[[IN_ROUNDS]] {
// CHECK: } else {
// CHECK: %[[SLOT:.+]] = arith.muli %[[PID]], %c2{{.*}} : index
// CHECK: tile.store %[[ACC]]
// CHECK: tile.last_arrival %{{.+}}[%{{.+}}] of 8 adding %c4{{.*}} : memref<3xi32>
// CHECK: scf.for %{{.+}} = %c0{{.*}} to %c128{{.*}} step %c16
// CHECK-COUNT-2: tile.load %{{.+}} : memref<{{.+}}xf32> -> !tile.tile<16x256xf32>
// CHECK-NOT: arith.cmpf
// CHECK: tile.store %{{.+}} : !tile.tile<16x256xf32>, memref<640x768xf32>
module attributes {tile.target = #tile.target<"sm_90a", sms = 12>} {
  func.func @parts(%a: tensor<640x512xbf16>, %b: tensor<512x768xbf16>) -> tensor<640x768xf32> {
    %c = tile.matmul %a, %b {tile.config = #tile.config<block = [128, 256, 64], threads = 256, mma = wgmma, instr = [64, 256, 16], warps = [8, 1], stages = 4, persistent = true, group_rows = 8, warp_specialize = true, stream_k = true, stream_k_part = 4>} : (tensor<640x512xbf16>, tensor<512x768xbf16>) -> tensor<640x768xf32>
    return %c : tensor<640x768xf32>
  }
}

// -----

// A part that does not divide a tile's steps, and parts more than the
// programs.
module attributes {tile.target = #tile.target<"sm_90a", sms = 12>} {
  func.func @part_not_dividing(%a: tensor<640x512xbf16>, %b: tensor<512x768xbf16>) -> tensor<640x768xf32> {
    // expected-error @+1 {{has stream_k_part = 3, which must be shorter than a tile's 8 K steps of 64, divide them and leave no more parts than the 12 programs (the 3 tiles past the whole rounds have 24 steps)}}
    %c = tile.matmul %a, %b {tile.config = #tile.config<block = [128, 256, 64], threads = 256, mma = wgmma, instr = [64, 256, 16], warps = [8, 1], stages = 4, persistent = true, group_rows = 8, warp_specialize = true, stream_k = true, stream_k_part = 3>} : (tensor<640x512xbf16>, tensor<512x768xbf16>) -> tensor<640x768xf32>
    return %c : tensor<640x768xf32>
  }
}

// -----

module attributes {tile.target = #tile.target<"sm_90a", sms = 12>} {
  func.func @parts_past_programs(%a: tensor<640x512xbf16>, %b: tensor<512x768xbf16>) -> tensor<640x768xf32> {
    // expected-error @+1 {{has stream_k_part = 1, which must be shorter than a tile's 8 K steps of 64, divide them and leave no more parts than the 12 programs (the 3 tiles past the whole rounds have 24 steps)}}
    %c = tile.matmul %a, %b {tile.config = #tile.config<block = [128, 256, 64], threads = 256, mma = wgmma, instr = [64, 256, 16], warps = [8, 1], stages = 4, persistent = true, group_rows = 8, warp_specialize = true, stream_k = true, stream_k_part = 1>} : (tensor<640x512xbf16>, tensor<512x768xbf16>) -> tensor<640x768xf32>
    return %c : tensor<640x768xf32>
  }
}

// -----

// A part as long as a tile: the K loop would take a third trip count.
module attributes {tile.target = #tile.target<"sm_90a", sms = 12>} {
  func.func @part_of_a_tile(%a: tensor<640x512xbf16>, %b: tensor<512x768xbf16>) -> tensor<640x768xf32> {
    // expected-error @+1 {{has stream_k_part = 8, which must be shorter than a tile's 8 K steps of 64, divide them and leave no more parts than the 12 programs (the 3 tiles past the whole rounds have 24 steps)}}
    %c = tile.matmul %a, %b {tile.config = #tile.config<block = [128, 256, 64], threads = 256, mma = wgmma, instr = [64, 256, 16], warps = [8, 1], stages = 4, persistent = true, group_rows = 8, warp_specialize = true, stream_k = true, stream_k_part = 8>} : (tensor<640x512xbf16>, tensor<512x768xbf16>) -> tensor<640x768xf32>
    return %c : tensor<640x768xf32>
  }
}
