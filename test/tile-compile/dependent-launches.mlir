// A split-K product and its reduction, end to end without a GPU: on sm_90a
// the reduction is a dependent launch (docs/bundle-format.md), whose
// kernel waits before anything else; the product's kernel does not signal
// (the reduction starts as its blocks exit); the reference launches run
// one after the other. sm_80 has no
// griddepcontrol: its launches stay plain.
// RUN: tile-compile %s --chip=sm_90a -o %t.tilebundle
// RUN: grep -a "^launch" %t.tilebundle | FileCheck %s --check-prefix=LAUNCH
// RUN: tile-compile %s --chip=sm_90a --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: tile-compile %s --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: grep -a "^launch" %t.sm_80.tilebundle | FileCheck %s --check-prefix=SM80
// RUN: tile-compile %s --chip=sm_80 --emit=ptx | FileCheck %s --check-prefix=SM80-PTX
// LAUNCH: launch main skinny_0_split_k skinny_0_split_k grid {{[0-9 ]+}} block {{[0-9 ]+}} smem
// LAUNCH-NEXT: launch main skinny_0 skinny_0 grid {{[0-9 ]+}} block {{[0-9 ]+}} dependent smem
// LAUNCH-NOT: dependent
// PTX-LABEL: .entry skinny_0_split_k(
// PTX-NOT: griddepcontrol
// Nothing before the wait touches memory (only ld.param and cvta come first).
// PTX-LABEL: .entry skinny_0(
// PTX: {
// PTX-NOT: {{ld\.global|ld\.shared|st\.|atom\.|red\.|cp\.async|mbarrier|prefetch|fence\.|wgmma|bar\.sync|tensormap}}
// PTX: griddepcontrol.wait;
// PTX-LABEL: .entry skinny_ref_0(
// PTX-NOT: griddepcontrol
// SM80-NOT: dependent
// SM80-PTX-NOT: griddepcontrol
func.func @skinny(%a: tensor<128x4096xbf16>, %b: tensor<4096x1024xbf16>) -> tensor<128x1024xbf16> {
  %c = tile.matmul %a, %b : (tensor<128x4096xbf16>, tensor<4096x1024xbf16>) -> tensor<128x1024xf32>
  %o = tile.cast %c : tensor<128x1024xf32> -> tensor<128x1024xbf16>
  return %o : tensor<128x1024xbf16>
}
