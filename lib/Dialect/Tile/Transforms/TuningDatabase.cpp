//===- TuningDatabase.cpp - Configs a tuner measured ------------*- C++ -*-===//

#include "TuningDatabase.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace mlir::tile;

std::string tile::tuningKey(StringRef op, StringRef chip, int64_t sms,
                            int64_t m, int64_t n, int64_t k, StringRef lhs,
                            StringRef rhs, StringRef result) {
  return (op + " " + chip + " sms=" + Twine(sms) + " " + Twine(m) + "x" +
          Twine(n) + "x" + Twine(k) + " " + lhs + "," + rhs + "->" + result)
      .str();
}

LogicalResult tile::loadTuningDatabase(StringRef path, Location loc,
                                       TuningDatabase &db) {
  db.path = path.str();
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return emitError(loc) << "cannot read the tuning database " << path
                          << ": " << buffer.getError().message();
  SmallVector<StringRef> lines;
  (*buffer)->getBuffer().split(lines, '\n');
  for (auto [index, text] : llvm::enumerate(lines)) {
    int64_t line = index + 1;
    text = text.trim();
    if (text.empty() || text.starts_with("#"))
      continue;
    auto fail = [&](const Twine &what) {
      return emitError(loc) << path << ":" << line << ": " << what;
    };
    llvm::Expected<llvm::json::Value> value = llvm::json::parse(text);
    if (!value)
      return fail("not JSON: " + llvm::toString(value.takeError()));
    const llvm::json::Object *entry = value->getAsObject();
    if (!entry)
      return fail("expected a JSON object");
    std::optional<int64_t> format = entry->getInteger("tile_tuning");
    if (format != kTuningFormatVersion)
      return fail("expected \"tile_tuning\": " + Twine(kTuningFormatVersion));
    auto string = [&](StringRef key) -> std::optional<StringRef> {
      return entry->getString(key);
    };
    std::optional<StringRef> op = string("op"), chip = string("chip"),
                             lhs = string("lhs"), rhs = string("rhs"),
                             result = string("result"),
                             config = string("config");
    std::optional<int64_t> sms = entry->getInteger("sms"),
                           m = entry->getInteger("m"),
                           n = entry->getInteger("n"),
                           k = entry->getInteger("k"),
                           schedule = entry->getInteger("schedule");
    if (!op || !chip || !lhs || !rhs || !result || !config || !sms || !m ||
        !n || !k || !schedule)
      return fail("an entry needs op, chip, sms, m, n, k, lhs, rhs, result, "
                  "schedule and config");
    db.entries[tuningKey(*op, *chip, *sms, *m, *n, *k, *lhs, *rhs, *result)] =
        TuningEntry{config->str(), line, *schedule};
  }
  return success();
}
