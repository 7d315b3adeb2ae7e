// RUN: tile-opt %s --split-input-file --tile-dependent-launches | FileCheck %s

// A product and its reduction: the second launch is dependent; its kernel
// waits first thing (inline PTX with a memory clobber). The first kernel
// does not signal: the reduction starts as its blocks exit.
// CHECK-LABEL: func.func @pair
// CHECK: gpu.launch_func @k::@product
// CHECK-NOT: tile.dependent_launch
// CHECK-SAME: args
// CHECK-NEXT: gpu.launch_func @k::@reduce {{.+}} {tile.dependent_launch}
// CHECK-LABEL: gpu.func @product
// CHECK-NOT: griddepcontrol
// CHECK: arith.constant
// CHECK-NEXT: arith.constant
// CHECK-NEXT: memref.store
// CHECK-LABEL: gpu.func @reduce
// CHECK-NEXT: llvm.inline_asm has_side_effects "griddepcontrol.wait;", "~{memory}"
// CHECK-NEXT: arith.constant
// CHECK-NEXT: memref.load
module attributes {gpu.container_module} {
  func.func @pair(%a: memref<4xf32>, %b: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@product blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @k::@reduce blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>, %b : memref<4xf32>)
    return
  }
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @product(%a: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %x = arith.constant 1.0 : f32
      memref.store %x, %a[%c0] : memref<4xf32>
      gpu.return
    }
    gpu.func @reduce(%a: memref<4xf32>, %b: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %x = memref.load %a[%c0] : memref<4xf32>
      memref.store %x, %b[%c0] : memref<4xf32>
      gpu.return
    }
  }
}

// -----

// Three launches: the second and third wait. One kernel launched twice
// waits once (a no-op where its launch is not dependent).
// CHECK-LABEL: func.func @chain
// CHECK: gpu.launch_func @k::@a
// CHECK-NOT: tile.dependent_launch
// CHECK-SAME: args
// CHECK-NEXT: gpu.launch_func @k::@b {{.+}} {tile.dependent_launch}
// CHECK-NEXT: gpu.launch_func @k::@a {{.+}} {tile.dependent_launch}
// CHECK-LABEL: gpu.func @a
// CHECK-NEXT: llvm.inline_asm has_side_effects "griddepcontrol.wait;"
// CHECK-NEXT: gpu.return
// CHECK-LABEL: gpu.func @b
// CHECK-NEXT: llvm.inline_asm has_side_effects "griddepcontrol.wait;"
// CHECK-NEXT: gpu.return
module attributes {gpu.container_module} {
  func.func @chain(%a: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @k::@b blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @k::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    return
  }
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @a(%a: memref<4xf32>) kernel {
      gpu.return
    }
    gpu.func @b(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
}

// -----

// One launch has nothing to overlap; launches that are not a straight
// sequence of the entry block (one under an scf.if) are left alone.
// CHECK-LABEL: func.func @single
// CHECK-NOT: tile.dependent_launch
// CHECK-LABEL: func.func @branchy
// CHECK-NOT: tile.dependent_launch
// CHECK-NOT: griddepcontrol
module attributes {gpu.container_module} {
  func.func @single(%a: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    return
  }
  func.func @branchy(%a: memref<4xf32>, %p: i1) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    scf.if %p {
      gpu.launch_func @k::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    }
    return
  }
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @a(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
}
