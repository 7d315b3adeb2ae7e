//===- CompilerAPI.cpp - The compiler behind plain C++ types ----*- C++ -*-===//
//
// See CompilerAPI.h. Every call gets a fresh MLIRContext (contexts are
// cheap next to a compile, and nothing leaks between calls) sharing one
// thread pool; diagnostics are collected, never printed.
//
//===----------------------------------------------------------------------===//

#include "tile/Compiler/CompilerAPI.h"
#include "tile/Compiler/Compiler.h"
#include "tile/InitAllTile.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Location.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ThreadPool.h"

#include <mutex>

using namespace mlir;
namespace tc = ::tile::compiler;

/// Passes and pipelines go into a global registry: once per process.
static const DialectRegistry &registry() {
  static DialectRegistry *registry = [] {
    auto *r = new DialectRegistry();
    mlir::tile::registerAllTileDialects(*r);
    mlir::tile::registerAllTilePasses();
    return r;
  }();
  return *registry;
}

static llvm::ThreadPoolInterface &threadPool() {
  static llvm::DefaultThreadPool pool;
  return pool;
}

static const char *severityName(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return "error";
  case DiagnosticSeverity::Warning:
    return "warning";
  case DiagnosticSeverity::Note:
    return "note";
  case DiagnosticSeverity::Remark:
    return "remark";
  }
  return "error";
}

static tc::Diagnostic convert(Diagnostic &diag) {
  tc::Diagnostic d;
  d.severity = severityName(diag.getSeverity());
  d.message = diag.str();
  if (auto loc = diag.getLocation()->findInstanceOf<FileLineColLoc>()) {
    d.file = loc.getFilename().str();
    d.line = loc.getLine();
    d.column = loc.getColumn();
  }
  for (Diagnostic &note : diag.getNotes()) {
    // printOpOnDiagnostic is off, but passes may still attach IR dumps.
    if (StringRef(note.str()).starts_with("see current operation"))
      continue;
    d.notes.push_back(convert(note));
  }
  return d;
}

std::string tc::Diagnostic::format() const {
  std::string text;
  if (!file.empty())
    text = file + ":" + std::to_string(line) + ":" + std::to_string(column) +
           ": ";
  text += severity + ": " + message;
  for (const Diagnostic &note : notes)
    text += "\n" + note.format();
  return text;
}

static FailureOr<mlir::tile::CompileStage> parseStage(const std::string &name) {
  if (name == "bundle")
    return mlir::tile::CompileStage::Bundle;
  if (name == "ptx")
    return mlir::tile::CompileStage::PTX;
  if (name == "nvvm")
    return mlir::tile::CompileStage::NVVM;
  if (name == "tile")
    return mlir::tile::CompileStage::Tile;
  return failure();
}

tc::Result tc::compile(const std::string &source, const std::string &sourceName,
                       const std::string &function, const Options &options) {
  Result result;
  // An error without a place in the source.
  auto addError = [&](std::string message) {
    Diagnostic d;
    d.severity = "error";
    d.message = std::move(message);
    result.diagnostics.push_back(d);
  };
  FailureOr<mlir::tile::CompileStage> stage = parseStage(options.stopAfter);
  if (failed(stage)) {
    addError("unknown stage '" + options.stopAfter +
             "' (expected bundle, ptx, nvvm or tile)");
    return result;
  }

  if (options.level != "tensor" && options.level != "tile") {
    addError("unknown input level '" + options.level +
             "' (expected tensor or tile)");
    return result;
  }

  MLIRContext context(registry(), MLIRContext::Threading::DISABLED);
  context.setThreadPool(threadPool());
  context.loadAllAvailableDialects();
  context.printOpOnDiagnostic(false);
  context.printStackTraceOnDiagnostic(false);
  ScopedDiagnosticHandler collect(&context, [&](mlir::Diagnostic &diag) {
    result.diagnostics.push_back(convert(diag));
    return success();
  });

  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, sourceName), llvm::SMLoc());

  mlir::tile::CompileOptions compileOptions;
  compileOptions.chip = options.chip;
  compileOptions.features = options.features;
  compileOptions.cudaPath = options.cudaPath;
  compileOptions.tileOptions = options.tileOptions;
  compileOptions.pipelineOptions = options.pipelineOptions;
  compileOptions.configureOptions = options.configureOptions;
  compileOptions.fuse = options.fuse;
  compileOptions.fastMath = options.fastMath;
  compileOptions.stopAfter = *stage;
  compileOptions.level = options.level == "tile"
                             ? mlir::tile::InputLevel::Tile
                             : mlir::tile::InputLevel::Tensor;
  compileOptions.mma = options.mma;
  compileOptions.reproducer = options.reproducer;
  compileOptions.lineInfo = options.lineInfo;
  FailureOr<mlir::tile::CompileResult> compiled = mlir::tile::compileFunction(
      context, sourceMgr, source, function, compileOptions);
  bool sawError = llvm::any_of(result.diagnostics, [](const Diagnostic &d) {
    return d.severity == "error";
  });
  if (failed(compiled) || sawError) {
    if (!sawError)
      addError("compilation failed without a diagnostic");
    return result;
  }
  result.ok = true;
  result.bundle = std::move(compiled->bundle);
  result.stages = std::move(compiled->stages);
  return result;
}

std::string tc::version() {
  return "tile-compiler 0.1 (LLVM " LLVM_VERSION_STRING ")";
}
