// RUN: tile-opt %s --split-input-file --tile-extern-dynamic-shared | FileCheck %s

// Upstream's dynamic shared memory window (convert-gpu-to-nvvm): an
// internal [0 x i8] in address space 3 becomes an external declaration,
// which the NVPTX backend prints as `.extern .shared .b8 name[]`.
// CHECK-LABEL: gpu.module @window
// CHECK: llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
gpu.module @window {
  llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.func @kernel() -> !llvm.ptr<3> {
    %0 = llvm.mlir.addressof @__dynamic_shmem__0 : !llvm.ptr<3>
    llvm.return %0 : !llvm.ptr<3>
  }
}

// -----

// Static shared buffers (sized, or private like the mbarriers), a
// zero-length global outside shared memory and an initialized one keep
// their linkage.
// CHECK-LABEL: gpu.module @others
// CHECK: llvm.mlir.global internal @sized()
// CHECK: llvm.mlir.global private @__mbarrier()
// CHECK: llvm.mlir.global internal @not_shared()
// CHECK: llvm.mlir.global internal @initialized(dense<>
gpu.module @others {
  llvm.mlir.global internal @sized() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x i8>
  llvm.mlir.global private @__mbarrier() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
  llvm.mlir.global internal @not_shared() {addr_space = 1 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.mlir.global internal @initialized(dense<> : tensor<0xi8>) {addr_space = 3 : i32} : !llvm.array<0 x i8>
}
