//===- bundle-selftest.cpp - Kernel bundle library self-test -*- C++ -*-===//
//
// Round-trips a bundle through serialize/parse and feeds the reader corrupt
// files, checking that each is rejected with the message that names the
// fault. Needs no GPU and no CUDA, so it runs wherever the library builds.
// Prints one line per case and "N passed, M failed"; exits 1 on a failure.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/Bundle.h"

#include <cstdio>
#include <functional>
#include <string>

using namespace tile::bundle;

static int passed = 0, failed = 0;

static void report(const std::string &name, bool ok, const std::string &why) {
  std::printf("%s: %s%s%s\n", ok ? "PASS" : "FAIL", name.c_str(),
              why.empty() ? "" : " -- ", why.c_str());
  ++(ok ? passed : failed);
}

/// A bundle with every kind of line: two modules, strided buffers of several
/// dtypes, launches of both stages, two checks.
static Bundle makeBundle() {
  Bundle b;
  b.target = "sm_90a";
  b.function = "softmax";
  b.sourceHash = "3f1c00aa99e9";
  b.options = "tile-size=32,128 threads=256";
  b.computeClass = "simt-f32";
  b.flops = 33554432;

  auto buffer = [](const char *name, Role role, DType t,
                   std::vector<int64_t> shape, std::vector<int64_t> strides) {
    Buffer buf;
    buf.name = name;
    buf.role = role;
    buf.dtype = t;
    buf.shape = std::move(shape);
    buf.strides = std::move(strides);
    return buf;
  };
  b.buffers.push_back(buffer("x", Role::In, DType::F32, {64, 128}, {136, 1}));
  b.buffers.push_back(buffer("y", Role::Out, DType::BF16, {64, 128}, {128, 1}));
  b.buffers.push_back(
      buffer("y.ref", Role::Ref, DType::F32, {64, 128}, {128, 1}));
  b.buffers.push_back(buffer("t0", Role::Scratch, DType::I8, {4096}, {1}));

  Module m;
  m.name = "k";
  m.ptx = "// ptx text\n.version 8.0\n";
  for (int i = 0; i < 300; ++i)
    m.cubin += static_cast<char>(i * 7); // binary, with NULs and newlines
  b.modules.push_back(m);
  m.name = "k.ref";
  m.ptx = "";
  m.cubin = std::string("\x7f"
                        "ELF\n\0\0end\n",
                        11);
  b.modules.push_back(m);

  Launch l;
  l.module = "k";
  l.entry = "softmax_kernel";
  l.grid[0] = 64;
  l.block[0] = 256;
  l.dynamicSharedBytes = 65536;
  l.args = {"x", "t0", "y"};
  b.launches.push_back(l);
  l.stage = Stage::Reference;
  l.module = "k.ref";
  l.entry = "softmax_ref";
  l.grid[0] = 8192;
  l.grid[2] = 3;
  l.block[0] = 1;
  l.dynamicSharedBytes = 0;
  l.args = {"x", "y.ref"};
  b.launches.push_back(l);

  Check c;
  c.output = "y";
  c.reference = "y.ref";
  c.tolerance = 1e-2;
  b.checks.push_back(c);
  return b;
}

static bool sameBundle(const Bundle &a, const Bundle &b, std::string &why) {
  auto differ = [&](const std::string &what) {
    why = what + " differs";
    return false;
  };
  if (a.version != b.version || a.target != b.target ||
      a.function != b.function || a.sourceHash != b.sourceHash ||
      a.options != b.options || a.computeClass != b.computeClass ||
      a.flops != b.flops)
    return differ("a header field");
  if (a.buffers.size() != b.buffers.size())
    return differ("buffer count");
  for (size_t i = 0; i < a.buffers.size(); ++i) {
    const Buffer &x = a.buffers[i], &y = b.buffers[i];
    if (x.name != y.name || x.role != y.role || x.dtype != y.dtype ||
        x.shape != y.shape || x.strides != y.strides)
      return differ("buffer " + x.name);
  }
  if (a.modules.size() != b.modules.size())
    return differ("module count");
  for (size_t i = 0; i < a.modules.size(); ++i)
    if (a.modules[i].name != b.modules[i].name ||
        a.modules[i].ptx != b.modules[i].ptx ||
        a.modules[i].cubin != b.modules[i].cubin)
      return differ("module " + a.modules[i].name);
  if (a.launches.size() != b.launches.size())
    return differ("launch count");
  for (size_t i = 0; i < a.launches.size(); ++i) {
    const Launch &x = a.launches[i], &y = b.launches[i];
    bool same =
        x.stage == y.stage && x.module == y.module && x.entry == y.entry &&
        x.dynamicSharedBytes == y.dynamicSharedBytes && x.args == y.args;
    for (int d = 0; d < 3; ++d)
      same &= x.grid[d] == y.grid[d] && x.block[d] == y.block[d];
    if (!same)
      return differ("launch " + std::to_string(i + 1));
  }
  if (a.checks.size() != b.checks.size())
    return differ("check count");
  for (size_t i = 0; i < a.checks.size(); ++i)
    if (a.checks[i].output != b.checks[i].output ||
        a.checks[i].reference != b.checks[i].reference ||
        a.checks[i].tolerance != b.checks[i].tolerance)
      return differ("check " + std::to_string(i + 1));
  return true;
}

/// Replaces the first occurrence of `from` in the header.
static std::string edit(std::string s, const std::string &from,
                        const std::string &to) {
  size_t at = s.find(from);
  if (at != std::string::npos && at < s.find("\nend\n"))
    s.replace(at, from.size(), to);
  return s;
}

/// Expects `bytes` to be rejected with a message containing `expected`.
static void expectReject(const std::string &name, const std::string &bytes,
                         const std::string &expected) {
  Bundle b;
  std::string error;
  if (parse(bytes, b, error)) {
    report(name, false, "accepted; expected \"" + expected + "\"");
    return;
  }
  bool ok = error.find(expected) != std::string::npos;
  report(name, ok,
         ok ? error : "got \"" + error + "\", expected \"" + expected + "\"");
}

int main() {
  const Bundle original = makeBundle();
  std::string error;
  bool valid = validate(original, error);
  report("validate the test bundle", valid, error);
  const std::string bytes = serialize(original);

  // Round trip: parse gives the same bundle, and writing it again gives the
  // same bytes.
  {
    Bundle parsed;
    std::string why;
    bool ok = parse(bytes, parsed, error) && sameBundle(original, parsed, why);
    if (ok && serialize(parsed) != bytes) {
      ok = false;
      why = "re-serialized bytes differ";
    }
    report("round trip", ok, ok ? "" : error + why);
  }

  // Numbers and sizes the runner relies on.
  {
    // FNV-1a 64 reference values from the FNV authors' test suite.
    bool ok = fnv1a64Hex("") == "cbf29ce484222325" &&
              fnv1a64Hex("a") == "af63dc4c8601ec8c" &&
              fnv1a64Hex("foobar") == "85944171f73967e8";
    report("fnv1a64 test vectors", ok, "");
    // x: (1 + 63*136 + 127*1) * 4 bytes; y: 64*128*2; minimum = x + y.
    const Buffer &x = original.buffers[0], &y = original.buffers[1];
    ok = x.numElements() == 8192 &&
         x.sizeInBytes() == (1 + 63 * 136 + 127) * 4 &&
         y.sizeInBytes() == 64 * 128 * 2 &&
         original.minimumBytes() == double(x.sizeInBytes() + y.sizeInBytes());
    report("sizeInBytes and minimumBytes", ok, "");
  }

  // Corrupt files, each rejected with the message that names the fault.
  expectReject("bad magic", "ELF" + bytes.substr(3),
               "bundle line 1: not a tile bundle");
  expectReject("wrong version", edit(bytes, "TILEBUNDLE 1", "TILEBUNDLE 2"),
               "bundle line 1: unsupported bundle version '2'");
  expectReject("empty file", "", "bundle: empty file");
  expectReject("truncated file", bytes.substr(0, bytes.size() - 234),
               "bundle: file ends 234 bytes early (truncated)");
  expectReject("truncated header", bytes.substr(0, bytes.find("\nend\n")),
               "header has no 'end' line");
  expectReject("extra bytes", bytes + "seventeen bytes!!",
               "bundle: 17 bytes after the last section");
  {
    std::string flipped = bytes;
    flipped[bytes.size() - 5] ^= 0x01; // inside the last cubin (11 bytes)
    expectReject("flipped cubin byte", flipped,
                 "bundle: cubin of module 'k.ref' has FNV-1a ");
    flipped = bytes;
    flipped[bytes.find("\nend\n") + 5 + original.modules[0].ptx.size() + 5] ^=
        0x40;
    expectReject("flipped cubin byte (first module)", flipped,
                 "(corrupt file)");
  }
  expectReject("unknown buffer in launch args",
               edit(bytes, "args x t0 y", "args x t1 y"),
               "bundle line 14: launch argument 't1' is not a declared buffer");
  expectReject("unknown dtype",
               edit(bytes, "buffer y out bf16", "buffer y out f8"),
               "bundle line 9: unknown dtype 'f8'");
  expectReject("unknown module in launch",
               edit(bytes, "launch main k ", "launch main q "),
               "bundle line 14: launch names unknown module 'q'");
  expectReject("unknown keyword", edit(bytes, "class ", "klass "),
               "bundle line 6: unknown keyword 'klass'");
  expectReject("malformed number", edit(bytes, "grid 64 ", "grid 6x4 "),
               "bundle line 14: malformed grid size '6x4'");
  expectReject("duplicate buffer", edit(bytes, "buffer t0 ", "buffer x "),
               "bundle line 11: duplicate buffer 'x'");
  expectReject("zero dimension", edit(bytes, "i8 4096 1", "i8 0 1"),
               "bundle line 11: buffer 't0' dimension 0 is 0");
  expectReject("check of a non-out buffer", edit(bytes, "check y ", "check x "),
               "bundle line 16: check output 'x' has role in");
  expectReject("double space", edit(bytes, "target sm_90a", "target  sm_90a"),
               "bundle line 2: empty field");
  expectReject("missing header line", edit(bytes, "flops 33554432\n", ""),
               "header ends without a 'flops' line");

  // The writer's side: validate() names the item without a line number.
  {
    Bundle b = original;
    b.launches[1].args.push_back("nope");
    bool ok = !validate(b, error) &&
              error == "bundle: launch 2 (reference k.ref softmax_ref): "
                       "launch argument 'nope' is not a declared buffer";
    report("validate names the item", ok, error);
  }

  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
