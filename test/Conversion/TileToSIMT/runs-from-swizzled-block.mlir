// An A operand's runs (k_width 8: 16 bytes a row a thread) read from a
// part of a swizzled slot that starts inside its second column block:
// columns 96 .. 127 of [16, 256] bf16 slots swizzled by 128 (blocks of 64
// columns) are 32 .. 63 of block 1, 64 bytes into its rows. The view
// starts at the slot (8192 bytes) plus block 1 (16 rows x 128 bytes) plus
// those 64 bytes; each row's offset from there is swizzled as the block's
// bytes are (the 16-byte unit xor the row mod 8), so the 64 bytes are
// added before the xor and taken off after it.
// RUN: tile-opt %s --pass-pipeline='builtin.module(convert-tile-kernel-to-gpu,convert-tile-to-simt)' | FileCheck %s

// CHECK: %c2112 = arith.constant 2112 : index
// CHECK: %[[ROW:.+]] = arith.muli %{{.+}}, %c128 : index
// CHECK: %[[LINE:.+]] = arith.addi %{{.+}}, %[[ROW]] : index
// CHECK: %[[AT:.+]] = arith.addi %[[LINE]], %{{.+}} : index
// CHECK: %[[IN:.+]] = arith.addi %[[AT]], %c64{{(_[0-9]+)?}} : index
// CHECK: %[[HIGH:.+]] = arith.shrui %[[IN]], %c7 : index
// CHECK: %[[BITS:.+]] = arith.andi %[[HIGH]], %c7{{(_[0-9]+)?}} : index
// CHECK: %[[SHIFT:.+]] = arith.shli %[[BITS]], %c4{{(_[0-9]+)?}} : index
// CHECK: %[[SWZ:.+]] = arith.xori %[[IN]], %[[SHIFT]] : index
// CHECK: %[[OUT:.+]] = arith.subi %[[SWZ]], %c64{{(_[0-9]+)?}} : index
// CHECK: %[[I:.+]] = arith.divui %[[OUT]], %c2{{(_[0-9]+)?}} : index
// CHECK: vector.load %{{.+}}[%[[I]]] {alignment = 16 : i64} : memref<1024xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>

func.func @runs_from_swizzled_block(%y: memref<4xf32>) {
  tile.kernel @k grid [1] threads 32 (%y) : memref<4xf32> {
  ^bb0(%arg: memref<4xf32>):
    %c1 = arith.constant 1 : index
    %x = tile.shared : memref<2x16x256xbf16, #gpu.address_space<workgroup>>
    %v = tile.view %x[%c1] column 96 : memref<2x16x256xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x32xbf16, layout = #tile.shared<swizzle = 128, padding = 32>, memory_space = #gpu.address_space<workgroup>>
    %r = tile.convert_layout %v : !tile.tile<16x32xbf16, layout = #tile.shared<swizzle = 128, padding = 32>, memory_space = #gpu.address_space<workgroup>> -> !tile.tile<16x32xbf16, layout = #tile.dot_operand<0, #tile.mma<mma_sync, warps = [1, 1], instr = [16, 8, 16]>, k_width = 8>>
  }
  return
}
