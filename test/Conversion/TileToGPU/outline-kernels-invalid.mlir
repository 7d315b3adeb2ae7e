// RUN: tile-opt %s --pass-pipeline='builtin.module(tile-outline-kernels)' -verify-diagnostics

// A launch with launch bounds but no module and function names: nothing to
// find its outlined function by.
module attributes {gpu.container_module} {
  func.func @anonymous() {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{has nvvm.* launch attributes but no module and function names to find its outlined function by}}
    gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%a = %c1, %b = %c1, %c = %c1) {
      gpu.terminator
    } {nvvm.minctasm = 2 : i32}
    return
  }
}
