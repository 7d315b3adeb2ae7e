//===- BundleWriter.cpp - From lowered IR to a kernel bundle ---*- C++ -*-===//
//
// See BundleWriter.h.
//
//===----------------------------------------------------------------------===//

#include "tile/Compiler/BundleWriter.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tile;
namespace tb = ::tile::bundle;

/// Operations per element of a scalar region, constants excluded.
static double opsPerElement(Region &region) {
  double count = 0;
  for (Operation &op : region.front().without_terminator())
    if (!isa<arith::ConstantOp>(op))
      count += 1;
  return count;
}

static bool isHalfPrecision(Type type) {
  Type element = getElementTypeOrSelf(type);
  return element.isBF16() || element.isF16();
}

static bool hasFloat8Elements(Type type) {
  return isFloat8(getElementTypeOrSelf(type));
}

/// Records a matmul's operand type for the compute class: f8 operands win
/// (the kernel runs FP8 MMAs even where another matmul is f16), then f16.
static void noteMatmulOperands(Type lhs, Type rhs, SourceSummary &summary) {
  if (hasFloat8Elements(lhs) || hasFloat8Elements(rhs))
    summary.halfKind = "f8";
  else if (summary.halfKind != "f8" && getElementTypeOrSelf(lhs).isF16())
    summary.halfKind = "f16";
}

SourceSummary mlir::tile::summarizeSource(func::FuncOp func) {
  SourceSummary summary;
  summary.name = func.getName().str();
  summary.numInputs = func.getNumArguments();
  summary.numOutputs = func.getNumResults();
  bool half = llvm::any_of(func.getArgumentTypes(), isHalfPrecision) ||
              llvm::any_of(func.getResultTypes(), isHalfPrecision);
  func.walk([&](Operation *op) {
    if (auto matmul = dyn_cast<MatmulOp>(op)) {
      auto lhs = cast<ShapedType>(matmul.getLhs().getType());
      auto result = cast<ShapedType>(matmul.getType());
      noteMatmulOperands(lhs, matmul.getRhs().getType(), summary);
      summary.flops += 2.0 * result.getNumElements() *
                       lhs.getDimSize(lhs.getRank() - 1);
    } else if (auto map = dyn_cast<MapOp>(op)) {
      summary.flops += cast<ShapedType>(map.getType()).getNumElements() *
                       opsPerElement(map.getBody());
    } else if (auto reduce = dyn_cast<ReduceOp>(op)) {
      summary.flops +=
          cast<ShapedType>(reduce.getInput().getType()).getNumElements() *
          opsPerElement(reduce.getCombiner());
    }
    if (op->getNumResults() == 1 && isHalfPrecision(op->getResult(0).getType()))
      half = true;
  });
  // DESIGN.md's tolerances on ||out - ref|| / ||ref||: f32 end to end
  // 1e-5, anything through bf16/f16 1e-2.
  summary.tolerance = half ? 1e-2 : 1e-5;
  return summary;
}

static bool toDType(Type type, tb::DType &dtype) {
  if (type.isF32())
    dtype = tb::DType::F32;
  else if (type.isF16())
    dtype = tb::DType::F16;
  else if (type.isBF16())
    dtype = tb::DType::BF16;
  else if (type.isF64())
    dtype = tb::DType::F64;
  else if (type.isInteger(32))
    dtype = tb::DType::I32;
  else if (type.isInteger(64))
    dtype = tb::DType::I64;
  else if (type.isInteger(8))
    dtype = tb::DType::I8;
  else if (isa<Float8E4M3FNType>(type))
    dtype = tb::DType::F8E4M3FN;
  else if (isa<Float8E5M2Type>(type))
    dtype = tb::DType::F8E5M2;
  else
    return false;
  return true;
}

static LogicalResult addBuffer(Location loc, MemRefType type, StringRef name,
                               tb::Role role, tb::Bundle &bundle) {
  tb::Buffer buffer;
  buffer.name = name.str();
  buffer.role = role;
  if (!toDType(type.getElementType(), buffer.dtype))
    return emitError(loc) << "no bundle dtype for " << type.getElementType();
  auto [strides, offset] = type.getStridesAndOffset();
  buffer.shape.assign(type.getShape().begin(), type.getShape().end());
  buffer.strides.assign(strides.begin(), strides.end());
  if (buffer.shape.empty()) { // rank 0: one element
    buffer.shape = {1};
    buffer.strides = {1};
  }
  bundle.buffers.push_back(std::move(buffer));
  return success();
}

static FailureOr<unsigned> constantOf(Value value, Operation *user) {
  APInt v;
  if (!value)
    return 0u;
  if (!matchPattern(value, m_ConstantInt(&v)))
    return user->emitOpError() << "expected constant launch dimensions";
  return static_cast<unsigned>(v.getZExtValue());
}

/// Reads one host function: its arguments and allocations become buffers
/// named through `argName`/`allocPrefix`, its launches become `stage`.
static LogicalResult readHostFunction(func::FuncOp func, tb::Stage stage,
                                      function_ref<std::string(unsigned)> argName,
                                      function_ref<tb::Role(unsigned)> argRole,
                                      StringRef allocPrefix,
                                      llvm::DenseSet<unsigned> sharedArgs,
                                      tb::Bundle &bundle) {
  llvm::DenseMap<Value, std::string> names;
  for (BlockArgument arg : func.getArguments()) {
    std::string name = argName(arg.getArgNumber());
    names[arg] = name;
    if (sharedArgs.contains(arg.getArgNumber()))
      continue; // declared by the other stage
    if (failed(addBuffer(arg.getLoc(), cast<MemRefType>(arg.getType()), name,
                         argRole(arg.getArgNumber()), bundle)))
      return failure();
  }
  unsigned numAllocs = 0;
  for (Operation &op : func.getBody().front()) {
    if (auto tma = dyn_cast<TmaDescriptorOp>(op)) {
      auto source = names.find(tma.getSource());
      if (source == names.end())
        return tma.emitOpError() << "describes a value that is not a buffer";
      tb::TensorMap map;
      map.name = (allocPrefix + Twine(".tma") + Twine(bundle.tensorMaps.size()))
                     .str();
      map.buffer = source->second;
      map.box.assign(tma.getBox().begin(), tma.getBox().end());
      map.swizzle = tma.getSwizzle();
      names[tma.getResult()] = map.name;
      bundle.tensorMaps.push_back(std::move(map));
      continue;
    }
    // A buffer viewed as rows (an attention kernel's [B, H, S, D] as
    // [B * H * S, D]) is the same device pointer; a tensormap over it takes
    // a box of the view's rank (docs/bundle-format.md).
    if (auto collapse = dyn_cast<memref::CollapseShapeOp>(op)) {
      auto source = names.find(collapse.getSrc());
      if (source == names.end())
        return collapse.emitOpError() << "views a value that is not a buffer";
      names[collapse.getResult()] = source->second;
      continue;
    }
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      std::string name = (allocPrefix + Twine(numAllocs++)).str();
      names[alloc.getResult()] = name;
      // Counters that kernels expect zero (and leave zero) are marked so.
      tb::Role role = alloc->hasAttr(mlir::tile::kZeroedAttrName)
                          ? tb::Role::Zeroed
                          : tb::Role::Scratch;
      if (failed(
              addBuffer(alloc.getLoc(), alloc.getType(), name, role, bundle)))
        return failure();
      continue;
    }
    auto launch = dyn_cast<gpu::LaunchFuncOp>(op);
    if (!launch)
      continue;
    tb::Launch l;
    l.stage = stage;
    l.module = launch.getKernelModuleName().str();
    l.entry = launch.getKernelName().str();
    gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
    gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
    Value dims[6] = {grid.x, grid.y, grid.z, block.x, block.y, block.z};
    for (int i = 0; i < 6; ++i) {
      FailureOr<unsigned> v = constantOf(dims[i], launch);
      if (failed(v))
        return failure();
      (i < 3 ? l.grid[i] : l.block[i - 3]) = *v;
    }
    // Clusters stay 1 1 1 (a plain launch) unless the op names them.
    if (launch.hasClusterSize()) {
      gpu::KernelDim3 cluster = launch.getClusterSizeOperandValues();
      Value clusterDims[3] = {cluster.x, cluster.y, cluster.z};
      for (int i = 0; i < 3; ++i) {
        FailureOr<unsigned> v = constantOf(clusterDims[i], launch);
        if (failed(v))
          return failure();
        l.cluster[i] = *v;
      }
    }
    l.dependent = launch->hasAttr(mlir::tile::kDependentLaunchAttrName);
    FailureOr<unsigned> smem =
        constantOf(launch.getDynamicSharedMemorySize(), launch);
    if (failed(smem))
      return failure();
    l.dynamicSharedBytes = *smem;
    for (Value operand : launch.getKernelOperands()) {
      auto it = names.find(operand);
      if (it == names.end())
        return launch.emitOpError()
               << "passes a value that is not a buffer or tensor map of the "
                  "bundle; only memref arguments, allocations and "
                  "tile.tma_descriptor results can be kernel arguments";
      l.args.push_back(it->second);
    }
    bundle.launches.push_back(std::move(l));
  }
  return success();
}

/// The tolerance of the check on output `out`: `tolerance`, or for an f8
/// output at least its unit roundoff with a margin (2^-4 for e4m3's three
/// mantissa bits, 2^-3 for e5m2's two), since a value that the kernel and
/// the reference compute slightly differently can round to neighbouring
/// codes. Wider outputs computed from f8 inputs keep `tolerance`: the inputs
/// decode exactly, so both sides see the same values.
static double checkTolerance(const tb::Bundle &bundle, const std::string &out,
                             double tolerance) {
  const tb::Buffer *buffer = bundle.findBuffer(out);
  if (!buffer)
    return tolerance; // validate() names the missing buffer
  switch (buffer->dtype) {
  case tb::DType::F8E4M3FN:
    return std::max(tolerance, 6.5e-2);
  case tb::DType::F8E5M2:
    return std::max(tolerance, 1.3e-1);
  default:
    return tolerance;
  }
}

/// The bytes of each gpu.binary's single object, by module name.
static LogicalResult collectObjects(ModuleOp module,
                                    llvm::StringMap<std::string> &objects) {
  for (auto binary : module.getOps<gpu::BinaryOp>()) {
    ArrayAttr list = binary.getObjects();
    if (list.size() != 1)
      return binary.emitOpError() << "expected one object per binary";
    auto object = cast<gpu::ObjectAttr>(list[0]);
    objects[binary.getName()] = object.getObject().getValue().str();
  }
  return success();
}

/// The modules (cubin and PTX of each gpu.binary), the compute class, and
/// the final validation: what every bundle gets once its buffers and
/// launches are in.
static LogicalResult finishBundle(ModuleOp binModule, ModuleOp isaModule,
                                  const SourceSummary &source,
                                  tb::Bundle &bundle) {
  llvm::StringMap<std::string> cubins, ptxs;
  if (failed(collectObjects(binModule, cubins)) ||
      failed(collectObjects(isaModule, ptxs)))
    return failure();
  for (auto &entry : cubins) {
    tb::Module module;
    module.name = entry.getKey().str();
    module.cubin = entry.getValue();
    module.ptx = ptxs.lookup(entry.getKey());
    bundle.modules.push_back(std::move(module));
  }
  // The roofline's compute peak depends on which units the kernels use; the
  // PTX says it plainly.
  bool tensorCores = llvm::any_of(bundle.modules, [](const tb::Module &m) {
    return m.name.find("_ref_") == std::string::npos &&
           (m.ptx.find("wgmma.mma_async") != std::string::npos ||
            m.ptx.find("mma.sync") != std::string::npos);
  });
  if (tensorCores)
    bundle.computeClass = source.halfKind == "f8"    ? "tc-fp8"
                          : source.halfKind == "f16" ? "tc-f16"
                                                     : "tc-bf16";
  // StringMap order is unspecified: sort so that bundles are reproducible.
  llvm::sort(bundle.modules, [](const tb::Module &a, const tb::Module &b) {
    return a.name < b.name;
  });
  std::string error;
  if (!tb::validate(bundle, error))
    return binModule.emitError() << "internal error: invalid bundle: " << error;
  return success();
}

LogicalResult mlir::tile::fillBundle(ModuleOp binModule, ModuleOp isaModule,
                               const SourceSummary &source, StringRef refName,
                               tb::Bundle &bundle) {
  auto mainFunc = binModule.lookupSymbol<func::FuncOp>(source.name);
  auto refFunc = refName.empty()
                     ? func::FuncOp()
                     : binModule.lookupSymbol<func::FuncOp>(refName);
  if (!mainFunc || (!refName.empty() && !refFunc))
    return binModule.emitError() << "internal error: host functions missing";
  bundle.function = source.name;
  bundle.flops = source.flops;

  auto name = [&](unsigned i, bool ref) {
    if (i < source.numInputs)
      return "in" + std::to_string(i);
    return "out" + std::to_string(i - source.numInputs) + (ref ? ".ref" : "");
  };
  auto role = [&](unsigned i, bool ref) {
    if (i < source.numInputs)
      return tb::Role::In;
    return ref ? tb::Role::Ref : tb::Role::Out;
  };
  llvm::DenseSet<unsigned> inputs;
  for (unsigned i = 0; i < source.numInputs; ++i)
    inputs.insert(i);
  if (failed(readHostFunction(
          mainFunc, tb::Stage::Main, [&](unsigned i) { return name(i, false); },
          [&](unsigned i) { return role(i, false); }, "tmp", {}, bundle)) ||
      (refFunc &&
       failed(readHostFunction(
           refFunc, tb::Stage::Reference,
           [&](unsigned i) { return name(i, true); },
           [&](unsigned i) { return role(i, true); }, "ref.tmp", inputs,
           bundle))))
    return failure();

  for (unsigned i = 0; refFunc && i < source.numOutputs; ++i) {
    std::string out = "out" + std::to_string(i);
    bundle.checks.push_back(
        {out, out + ".ref", checkTolerance(bundle, out, source.tolerance)});
  }

  return finishBundle(binModule, isaModule, source, bundle);
}

LogicalResult mlir::tile::fillKernelBundle(ModuleOp binModule,
                                           ModuleOp isaModule,
                                           const SourceSummary &source,
                                           ArrayRef<bool> written,
                                           tb::Bundle &bundle,
                                           StringRef refName,
                                           double tolerance) {
  auto mainFunc = binModule.lookupSymbol<func::FuncOp>(source.name);
  if (!mainFunc || mainFunc.getNumArguments() != written.size())
    return binModule.emitError() << "internal error: host function missing";
  bundle.function = source.name;
  bundle.flops = source.flops;
  // Buffers in argument order, numbered per role.
  SmallVector<std::string> names;
  unsigned numIn = 0, numOut = 0;
  for (bool w : written)
    names.push_back(w ? "out" + std::to_string(numOut++)
                      : "in" + std::to_string(numIn++));
  if (failed(readHostFunction(
          mainFunc, tb::Stage::Main, [&](unsigned i) { return names[i]; },
          [&](unsigned i) { return written[i] ? tb::Role::Out : tb::Role::In; },
          "tmp", {}, bundle)))
    return failure();
  if (!refName.empty()) {
    auto refFunc = binModule.lookupSymbol<func::FuncOp>(refName);
    if (!refFunc || refFunc.getNumArguments() != written.size())
      return binModule.emitError()
             << "internal error: reference host function missing";
    // tile-reference's host function: the inputs, then the outputs.
    llvm::DenseSet<unsigned> inputs;
    for (unsigned i = 0; i < numIn; ++i)
      inputs.insert(i);
    auto refNameOf = [&](unsigned i) {
      return i < numIn ? "in" + std::to_string(i)
                       : "out" + std::to_string(i - numIn) + ".ref";
    };
    if (failed(readHostFunction(
            refFunc, tb::Stage::Reference, refNameOf,
            [&](unsigned i) { return i < numIn ? tb::Role::In : tb::Role::Ref; },
            "ref.tmp", inputs, bundle)))
      return failure();
    for (unsigned i = 0; i < numOut; ++i) {
      std::string out = "out" + std::to_string(i);
      bundle.checks.push_back(
          {out, out + ".ref", checkTolerance(bundle, out, tolerance)});
    }
  }
  return finishBundle(binModule, isaModule, source, bundle);
}

/// Trip count of `loop` when its bounds and step are constants, else 1.
static double tripCount(scf::ForOp loop) {
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!lb || !ub || !step || *step <= 0)
    return 1;
  return *ub > *lb ? static_cast<double>(llvm::divideCeil(*ub - *lb, *step))
                   : 0;
}

SourceSummary mlir::tile::summarizeKernels(func::FuncOp func) {
  SourceSummary summary;
  summary.name = func.getName().str();
  summary.numInputs = func.getNumArguments();
  func.walk([&](KernelOp kernel) {
    double programs = 1;
    for (int64_t size : kernel.getGrid())
      programs *= static_cast<double>(size);
    kernel.walk([&](Operation *op) {
      double work = 0;
      if (auto dot = dyn_cast<DotOp>(op)) {
        auto lhs = cast<TileType>(dot.getLhs().getType());
        auto acc = cast<TileType>(dot.getAcc().getType());
        noteMatmulOperands(
            lhs.getElementType(),
            cast<TileType>(dot.getRhs().getType()).getElementType(), summary);
        work = 2.0 * acc.getNumElements() * lhs.getDimSize(1);
      } else if (auto map = dyn_cast<MapOp>(op)) {
        work = cast<ShapedType>(map.getType()).getNumElements() *
               opsPerElement(map.getBody());
      } else if (auto reduce = dyn_cast<ReduceOp>(op)) {
        work = cast<ShapedType>(reduce.getInput().getType()).getNumElements() *
               opsPerElement(reduce.getCombiner());
      }
      if (work == 0)
        return;
      for (Operation *parent = op->getParentOp(); parent && parent != kernel;
           parent = parent->getParentOp())
        if (auto loop = dyn_cast<scf::ForOp>(parent))
          work *= tripCount(loop);
      summary.flops += work * programs;
    });
  });
  return summary;
}
