#include "solver/disk_cache.h"

#include "analyzer/hash.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

namespace ptov {

namespace {
namespace fs = std::filesystem;

fs::path fileFor(const std::string& dir, const std::string& key) {
  char name[48];
  std::snprintf(name, sizeof name, "%016llx%016llx.json",
                static_cast<unsigned long long>(fnv1a(key)),
                static_cast<unsigned long long>(fnv1a(key, 0x9e3779b97f4a7c15ull)));
  return fs::path(dir) / std::string(name, 2) / name;
}

// The checksum binds the answer to its key: flipping `sat` or editing a value breaks it.
uint64_t checksum(const std::string& key, const nlohmann::json& answer) {
  return fnv1a(key + "\n" + answer.dump(), 0x51ed270b27b4a3c1ull);
}

nlohmann::json answerJson(const SatAnswer& a) {
  nlohmann::json values = nlohmann::json::array();
  for (const auto& v : a.values) values.push_back(v ? nlohmann::json(*v) : nlohmann::json(nullptr));
  return {{"sat", a.kind == SatAnswer::Kind::Sat}, {"values", values}, {"symbols", a.symbols}};
}
}  // namespace

std::optional<SatAnswer> readCachedAnswer(const std::string& dir, const std::string& key, size_t valueCount,
                                          bool* rejected) {
  fs::path file = fileFor(dir, key);
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return std::nullopt;  // absent (or a FIFO someone put there)
  std::ifstream in(file);
  if (!in) return std::nullopt;
  try {
    nlohmann::json j = nlohmann::json::parse(in);
    const nlohmann::json& answer = j.at("answer");
    bool sat = answer.at("sat").get<bool>();
    if (j.at("key").get<std::string>() != key || j.at("checksum").get<uint64_t>() != checksum(key, answer) ||
        answer.at("values").size() != (sat ? valueCount : 0))
      throw std::runtime_error("not this query's answer");
    SatAnswer a;
    a.kind = sat ? SatAnswer::Kind::Sat : SatAnswer::Kind::Unsat;
    for (const auto& v : answer.at("values"))
      a.values.push_back(v.is_null() ? std::nullopt : std::optional<int64_t>(v.get<int64_t>()));
    for (const auto& [name, value] : answer.at("symbols").items()) a.symbols[name] = value.get<int64_t>();
    return a;
  } catch (const std::exception&) {
    if (rejected) *rejected = true;  // stale, foreign or edited: ask Z3 again
    return std::nullopt;
  }
}

void writeCachedAnswer(const std::string& dir, const std::string& key, const SatAnswer& a) {
  if (a.kind == SatAnswer::Kind::Unknown) return;
  nlohmann::json answer = answerJson(a);
  nlohmann::json j = {{"key", key}, {"answer", answer}, {"checksum", checksum(key, answer)}};
  std::error_code ec;
  fs::path file = fileFor(dir, key);
  fs::create_directories(file.parent_path(), ec);
  fs::path tmp = file;
  tmp += ".tmp" + std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()));
  {
    std::ofstream out(tmp);
    if (!out) return;  // an unwritable cache only costs time
    out << j.dump();
  }
  fs::rename(tmp, file, ec);
}

}  // namespace ptov
