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
}  // namespace

std::optional<SatAnswer> readCachedAnswer(const std::string& dir, const std::string& key) {
  std::ifstream in(fileFor(dir, key));
  if (!in) return std::nullopt;
  try {
    nlohmann::json j = nlohmann::json::parse(in);
    if (j.at("keySize").get<size_t>() != key.size()) return std::nullopt;
    SatAnswer a;
    a.kind = j.at("sat").get<bool>() ? SatAnswer::Kind::Sat : SatAnswer::Kind::Unsat;
    for (const auto& v : j.at("values")) a.values.push_back(v.is_null() ? std::nullopt : std::optional<int64_t>(v.get<int64_t>()));
    for (const auto& [name, value] : j.at("symbols").items()) a.symbols[name] = value.get<int64_t>();
    return a;
  } catch (const std::exception&) {
    return std::nullopt;  // a stale or foreign file: ask Z3 again
  }
}

void writeCachedAnswer(const std::string& dir, const std::string& key, const SatAnswer& a) {
  if (a.kind == SatAnswer::Kind::Unknown) return;
  nlohmann::json values = nlohmann::json::array();
  for (const auto& v : a.values) values.push_back(v ? nlohmann::json(*v) : nlohmann::json(nullptr));
  nlohmann::json j = {{"keySize", key.size()}, {"sat", a.kind == SatAnswer::Kind::Sat}, {"values", values},
                      {"symbols", a.symbols}};
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
