// The sm_80 tensor-core path end to end to PTX (no ptxas needed): 16-byte
// cp.async with a source size (zero fill) in commit groups, wait_group
// stages - 2 in the loop and 0 after it, ldmatrix (.trans for B) and
// m16n8k16 bf16 mma.sync. sm_86 and sm_90 (without the `a` features) take
// it too.
// RUN: tile-compile %s --chip=sm_80 --emit=ptx | FileCheck %s --check-prefixes=CHECK,SM80
// RUN: tile-compile %s --chip=sm_86 --emit=ptx | FileCheck %s
// RUN: tile-compile %s --chip=sm_90 --emit=ptx | FileCheck %s

// CHECK: // module mm_0
// SM80: .target sm_80
// CHECK: .entry mm_0(
// CHECK: cp.async.cg.shared.global [{{.+}}], [{{.+}}], 16, {{.+}};
// CHECK: cp.async.commit_group;
// CHECK: cp.async.wait_group 1;
// CHECK-NEXT: bar.sync 0;
// CHECK: cp.async.commit_group;
// CHECK: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// CHECK: cp.async.wait_group 0;
// CHECK: st.global.b32
// CHECK: // module mm_ref_0
func.func @mm(%a: tensor<1000x1000xbf16>, %b: tensor<1000x1032xbf16>) -> tensor<1000x1032xbf16> {
  %c = tile.matmul %a, %b : (tensor<1000x1000xbf16>, tensor<1000x1032xbf16>) -> tensor<1000x1032xf32>
  %o = tile.cast %c : tensor<1000x1032xf32> -> tensor<1000x1032xbf16>
  return %o : tensor<1000x1032xbf16>
}
