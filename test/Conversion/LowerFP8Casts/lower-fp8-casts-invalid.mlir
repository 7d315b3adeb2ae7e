// RUN: tile-opt %s --tile-lower-fp8-casts -verify-diagnostics

// For a chip before sm_89, a located error.
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  func.func @old_chip(%x: f32) -> f8E4M3FN {
    // expected-error @+1 {{converts to or from fp8, which PTX does from sm_89 on, but the target is sm_80}}
    %t = arith.truncf %x : f32 to f8E4M3FN
    return %t : f8E4M3FN
  }
}
