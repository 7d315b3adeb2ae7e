// RUN: tile-opt %s --split-input-file --verify-diagnostics --tile-dependent-launches

// griddepcontrol came with sm_90: a pair of sm_80 kernels is an error at
// the launch that would overlap, not a PTX that ptxas rejects.
module attributes {gpu.container_module} {
  func.func @pair(%a: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    // expected-error @below {{cannot overlap the launch before it: its kernel's module targets sm_80, and programmatic dependent launch (griddepcontrol) needs sm_90 or later}}
    gpu.launch_func @k::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    return
  }
  gpu.module @k [#nvvm.target<chip = "sm_80">] {
    gpu.func @a(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
}
