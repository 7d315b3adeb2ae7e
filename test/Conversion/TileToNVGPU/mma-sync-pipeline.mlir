// Which chips tile-to-nvvm sends to convert-tile-matmul-to-mma-sync: sm_80
// to sm_89 and sm_90 with mma=auto, any chip with mma=mma-sync; sm_90a takes
// wgmma, mma=simt and later chips keep the SIMT loop. stages= is passed on.
// RUN: tile-opt %s --tile-to-nvvm="chip=sm_80" | FileCheck %s --check-prefix=MMA
// RUN: tile-opt %s --tile-to-nvvm="chip=sm_89" | FileCheck %s --check-prefix=MMA
// RUN: tile-opt %s --tile-to-nvvm="chip=sm_90" | FileCheck %s --check-prefix=MMA
// RUN: tile-opt %s --tile-to-nvvm="chip=sm_90a mma=mma-sync" | FileCheck %s --check-prefix=MMA
// RUN: tile-opt %s --tile-to-nvvm="chip=sm_80 stages=5" | FileCheck %s --check-prefix=STAGES5
// RUN: tile-opt %s --tile-to-nvvm="chip=sm_90a" | FileCheck %s --check-prefix=NOMMA
// RUN: tile-opt %s --tile-to-nvvm="chip=sm_80 mma=simt" | FileCheck %s --check-prefix=NOMMA
// RUN: tile-opt %s --tile-to-nvvm="chip=sm_100" | FileCheck %s --check-prefix=NOMMA

// 4 programs of 128 threads, 3 stages of 18944 bytes.
// MMA: arith.constant 56832 : i32
// MMA: gpu.launch_func @mm_0::@mm_0 blocks in (%c4, {{.+}}) threads in (%c128, {{.+}}) dynamic_shared_memory_size %c56832_i32{{.*}} args
// MMA: llvm.func @mm_0(
// MMA-SAME: nvvm.maxntid = array<i32: 128, 1, 1>
// MMA: nvvm.cp.async.shared.global %{{.+}}, %{{.+}}, 16, cache = cg, %{{.+}}
// MMA: nvvm.cp.async.commit.group
// MMA: nvvm.cp.async.wait.group 1
// MMA: nvvm.ldmatrix
// MMA: nvvm.mma.sync
// MMA: nvvm.cp.async.wait.group 0

// STAGES5: nvvm.cp.async.wait.group 3

// NOMMA-NOT: nvvm.mma.sync
// NOMMA-NOT: nvvm.cp.async.shared.global
func.func @mm(%arg0: memref<256x512xbf16>, %arg1: memref<512x256xbf16>, %arg2: memref<256x256xbf16>) {
  tile.kernel @mm_0 grid [4, 4] threads 256(%arg0, %arg1, %arg2) : memref<256x512xbf16>, memref<512x256xbf16>, memref<256x256xbf16> {
  ^bb0(%a: memref<256x512xbf16>, %b: memref<512x256xbf16>, %c: memref<256x256xbf16>):
    %pm = tile.program_id 0
    %c64 = arith.constant 64 : index
    %m0 = arith.muli %pm, %c64 : index
    %pn = tile.program_id 1
    %n0 = arith.muli %pn, %c64 : index
    %zero = arith.constant 0.000000e+00 : f32
    %init = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    %c0 = arith.constant 0 : index
    %ck = arith.constant 512 : index
    %c16 = arith.constant 16 : index
    %acc = scf.for %k = %c0 to %ck step %c16 iter_args(%it = %init) -> (!tile.tile<64x64xf32>) {
      %x = tile.load %a[%m0, %k] : memref<256x512xbf16> -> !tile.tile<64x16xbf16>
      %y = tile.load %b[%k, %n0] : memref<512x256xbf16> -> !tile.tile<16x64xbf16>
      %d = tile.dot %x, %y, %it : !tile.tile<64x16xbf16>, !tile.tile<16x64xbf16> -> !tile.tile<64x64xf32>
      scf.yield %d : !tile.tile<64x64xf32>
    }
    %o = tile.cast %acc : !tile.tile<64x64xf32> -> !tile.tile<64x64xbf16>
    tile.store %o, %c[%m0, %n0] : !tile.tile<64x64xbf16>, memref<256x256xbf16>
  }
  return
}
