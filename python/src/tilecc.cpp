//===- tilecc.cpp - The compiler as a Python extension ---------*- C++ -*-===//
//
// _tilecc: the native half of the `tile` Python package. One function,
//
//   compile(ir_text, function, options) -> (bundle_bytes, stages)
//
// runs the compiler library in-process (tile/Compiler/CompilerAPI.h) on a
// tensor-level MLIR module (or, with options["level"] = "tile", a host
// function of tile.kernel ops) and returns the kernel bundle and the IR of
// every stage (and, under "diagnostics", the warnings and remarks of a
// successful compile). Failures raise
// _tilecc.CompileError(message, diagnostics): `message` is the first error
// as "file:line:col: error: ...", and `diagnostics` every diagnostic as a
// dict (severity, message, file, line, column, notes). The GIL is released
// while compiling.
//
// This file sees no MLIR or LLVM header: it is built with RTTI and
// exceptions, the compiler without.
//
//===----------------------------------------------------------------------===//

#include "tile/Compiler/CompilerAPI.h"

#include <nanobind/nanobind.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/string.h>

#include <stdexcept>

namespace nb = nanobind;
namespace tc = tile::compiler;

namespace {
/// Thrown by compile(); translated to _tilecc.CompileError.
struct CompileFailure : std::runtime_error {
  tc::Result result;
  CompileFailure(std::string message, tc::Result result)
      : std::runtime_error(std::move(message)), result(std::move(result)) {}
};
} // namespace

static nb::dict toDict(const tc::Diagnostic &d) {
  nb::dict dict;
  dict["severity"] = d.severity;
  dict["message"] = d.message;
  dict["file"] = d.file;
  dict["line"] = d.line;
  dict["column"] = d.column;
  nb::list notes;
  for (const tc::Diagnostic &note : d.notes)
    notes.append(toDict(note));
  dict["notes"] = notes;
  return dict;
}

static tc::Options toOptions(const nb::dict &dict) {
  tc::Options options;
  for (auto [key, value] : dict) {
    std::string name = nb::cast<std::string>(key);
    if (name == "chip")
      options.chip = nb::cast<std::string>(value);
    else if (name == "features")
      options.features = nb::cast<std::string>(value);
    else if (name == "cuda_path")
      options.cudaPath = nb::cast<std::string>(value);
    else if (name == "tile_options")
      options.tileOptions = nb::cast<std::string>(value);
    else if (name == "pipeline_options")
      options.pipelineOptions = nb::cast<std::string>(value);
    else if (name == "configure_options")
      options.configureOptions = nb::cast<std::string>(value);
    else if (name == "fuse")
      options.fuse = nb::cast<bool>(value);
    else if (name == "fast_math")
      options.fastMath = nb::cast<bool>(value);
    else if (name == "stop_after")
      options.stopAfter = nb::cast<std::string>(value);
    else if (name == "level")
      options.level = nb::cast<std::string>(value);
    else if (name == "mma")
      options.mma = nb::cast<std::string>(value);
    else if (name == "reproducer")
      options.reproducer = nb::cast<std::string>(value);
    else if (name == "line_info")
      options.lineInfo = nb::cast<bool>(value);
    else
      throw nb::value_error(("unknown compile option '" + name +
                             "' (expected chip, features, cuda_path, "
                             "tile_options, pipeline_options, "
                             "configure_options, fuse, "
                             "fast_math, stop_after, level, mma, "
                             "reproducer, line_info)")
                                .c_str());
  }
  return options;
}

static PyObject *compileErrorType = nullptr;

NB_MODULE(_tilecc, m) {
  m.doc() = "The tile compiler, in-process (see python/tile/compiler.py).";

  compileErrorType = PyErr_NewExceptionWithDoc(
      "_tilecc.CompileError",
      "The compiler rejected the input. args: (message, diagnostics), "
      "message the first error as 'file:line:col: error: text', "
      "diagnostics a list of dicts.",
      PyExc_RuntimeError, nullptr);
  m.attr("CompileError") = nb::handle(compileErrorType);

  nb::register_exception_translator(
      [](const std::exception_ptr &p, void *) {
        try {
          std::rethrow_exception(p);
        } catch (const CompileFailure &e) {
          nb::list diagnostics;
          for (const tc::Diagnostic &d : e.result.diagnostics)
            diagnostics.append(toDict(d));
          nb::tuple args = nb::make_tuple(nb::str(e.what()), diagnostics);
          PyErr_SetObject(compileErrorType, args.ptr());
        }
      });

  m.def(
      "compile",
      [](const std::string &source, const std::string &function,
         const nb::dict &optionsDict, const std::string &sourceName) {
        tc::Options options = toOptions(optionsDict);
        tc::Result result;
        {
          nb::gil_scoped_release release;
          result = tc::compile(source, sourceName, function, options);
        }
        if (!result.ok) {
          std::string message = "compilation failed";
          for (const tc::Diagnostic &d : result.diagnostics)
            if (d.severity == "error") {
              message = d.format();
              break;
            }
          throw CompileFailure(message, std::move(result));
        }
        nb::bytes bundle(result.bundle.data(), result.bundle.size());
        nb::dict stages;
        for (const auto &[name, text] : result.stages)
          stages[name.c_str()] = text;
        // Warnings and remarks of a successful compile (a kernel kept off
        // the tensor cores, and why) as one more "stage".
        std::string notes;
        for (const tc::Diagnostic &d : result.diagnostics)
          notes += d.format() + "\n";
        if (!notes.empty())
          stages["diagnostics"] = notes;
        return nb::make_tuple(bundle, stages);
      },
      nb::arg("ir_text"), nb::arg("function") = "",
      nb::arg("options") = nb::dict(), nb::arg("source_name") = "<tile>",
      "Compile a tensor-level MLIR module: returns (bundle_bytes, stages).");

  m.def("version", &tc::version, "The compiler's version string.");
}
