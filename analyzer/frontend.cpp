#include "analyzer/frontend.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "analyzer/mlir/parser.h"
#include "analyzer/pto/lifter.h"

namespace ptov {

namespace fs = std::filesystem;

bool LoadedFile::hasErrors() const {
  for (const auto& d : diagnostics)
    if (d.level == InputDiagnostic::Level::Error) return true;
  return false;
}

bool isSupportedExtension(const std::string& path) {
  std::string ext = fs::path(path).extension().string();
  return ext == ".pto" || ext == ".mlir";
}

LoadedFile loadFile(const std::string& path, const FrontendOptions& opts) {
  LoadedFile out;
  out.path = path;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    out.diagnostics.push_back({InputDiagnostic::Level::Error, SourceLoc{path, 1, 1}, "cannot read file"});
    return out;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return loadText(path, ss.str(), opts);
}

namespace {
// `f_mix_aic` and `f_mix_aiv` are the cube and vector halves of one MIX function.
std::string mixBase(const std::string& name) {
  for (const char* suffix : {"_mix_aic", "_mix_aiv"}) {
    std::string s = suffix;
    if (name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0)
      return name.substr(0, name.size() - s.size());
  }
  return "";
}
}  // namespace

void linkMixPeers(std::vector<Kernel>& kernels) {
  for (auto& k : kernels) {
    k.mixPeers.clear();
    std::string base = mixBase(k.name);
    if (base.empty()) continue;
    for (const auto& other : kernels)
      if (&other != &k && mixBase(other.name) == base) k.mixPeers.push_back(&other);
  }
}

LoadedFile loadText(const std::string& path, const std::string& text, const FrontendOptions& opts) {
  LoadedFile out;
  out.path = path;
  if (!isSupportedExtension(path)) {
    out.diagnostics.push_back({InputDiagnostic::Level::Error, SourceLoc{path, 1, 1},
                               "unsupported input kind (expected .pto or .mlir); the C++ front end is not "
                               "part of this build"});
    return out;
  }
  mlir::ParsedFile parsed = mlir::parseText(text, path);
  out.diagnostics = parsed.diagnostics;
  pto::LiftOptions lo;
  lo.defaultArch = opts.defaultArch;
  out.kernels = pto::lift(parsed, lo, out.diagnostics);
  linkMixPeers(out.kernels);
  return out;
}

std::vector<std::string> collectInputs(const std::vector<std::string>& paths,
                                       std::vector<std::string>& problems) {
  std::vector<std::string> out;
  for (const auto& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      std::vector<std::string> found;
      for (auto it = fs::recursive_directory_iterator(p, fs::directory_options::skip_permission_denied, ec);
           it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (ec) break;
        if (it->is_regular_file(ec) && isSupportedExtension(it->path().string()))
          found.push_back(it->path().string());
      }
      std::sort(found.begin(), found.end());
      if (found.empty()) problems.push_back(p + ": error: no .pto or .mlir file in this directory");
      out.insert(out.end(), found.begin(), found.end());
    } else if (fs::exists(p, ec)) {
      out.push_back(p);
    } else {
      problems.push_back(p + ": error: no such file or directory");
    }
  }
  return out;
}

}  // namespace ptov
