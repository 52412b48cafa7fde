#include "cli/differential.h"

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "analyzer/frontend.h"
#include "cli/report/fingerprint.h"
#include "cli/source_root.h"

namespace ptov {

namespace fs = std::filesystem;

bool parseFilterMode(const std::string& name, FilterMode& mode) {
  static const std::map<std::string, FilterMode> kModes{{"added", FilterMode::Added},
                                                        {"diff_context", FilterMode::DiffContext},
                                                        {"file", FilterMode::File},
                                                        {"nofilter", FilterMode::NoFilter}};
  auto it = kModes.find(name);
  if (it == kModes.end()) return false;
  mode = it->second;
  return true;
}

namespace {

// `dst` gets `src`'s directories as directories, its symbolic links as the same links (a
// relative one then points inside `dst`) and its files as links to them, so a file rebuilt in
// `dst` is seen by whatever includes it there. `.git` is left out.
void mirror(const fs::path& src, const fs::path& dst, std::error_code& ec) {
  fs::create_directories(dst, ec);
  auto it = fs::recursive_directory_iterator(src, fs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const fs::path& p = it->path();
    if (p.filename() == ".git") {
      it.disable_recursion_pending();
      continue;
    }
    fs::path target = dst / p.lexically_relative(src);
    std::error_code local;
    if (it->is_symlink(local))
      fs::create_symlink(fs::read_symlink(p, local), target, local);
    else if (it->is_directory(local))
      fs::create_directory(target, local);
    else
      fs::create_symlink(p, target, local);
  }
}

// A path from the diff, relative and without "..": it may be written inside the mirror.
bool safeRelative(const std::string& p) {
  fs::path path(p);
  if (p.empty() || path.is_absolute()) return false;
  for (const auto& part : path)
    if (part == "..") return false;
  return true;
}

// Makes every directory on the way to `tree/rel` a real directory of the mirror: a linked one
// is mirrored in its place, so nothing is then removed or written through a link into the
// user's tree.
void realParents(const fs::path& tree, const std::string& rel, std::error_code& ec) {
  std::error_code absent;  // asking about a path that is not there is no failure
  std::string inside = fs::canonical(tree, ec).string() + "/";
  fs::path at = tree;
  for (const auto& part : fs::path(rel).parent_path()) {
    at /= part;
    auto type = fs::symlink_status(at, absent).type();
    if (type == fs::file_type::symlink) {
      fs::path target = fs::canonical(at, ec);
      if (!ec && target.string().rfind(inside, 0) == 0) continue;  // a link within the mirror
      if (!ec) fs::remove(at, ec);
      if (!ec) mirror(target, at, ec);
    } else if (type == fs::file_type::not_found) {
      fs::create_directory(at, ec);
    }
    if (ec) return;
  }
}

// Removes the mirror's link at `tree/rel` (never what it points to).
void removeInMirror(const fs::path& tree, const std::string& rel, std::error_code& ec) {
  realParents(tree, rel, ec);
  std::error_code absent;
  if (!ec && fs::symlink_status(tree / rel, absent).type() == fs::file_type::symlink) fs::remove(tree / rel, ec);
}

// Writes `text` at `tree/rel`, where the mirror had a link to the new version.
bool writeInMirror(const fs::path& tree, const std::string& rel, const std::string& text, std::string& error) {
  std::error_code ec;
  removeInMirror(tree, rel, ec);
  std::ofstream out(tree / rel);
  if (ec || !(out << text)) {
    error = "cannot write the old version of '" + rel + "' in " + tree.string();
    return false;
  }
  return true;
}

// The mirror of `root` with every changed file as it was before the change. The configuration
// files stay as they are now: both sides are checked with the same configuration.
bool buildBaseTree(const ChangedLines& change, const fs::path& root, const fs::path& tree, std::string& error) {
  std::error_code ec;
  mirror(root, tree, ec);
  if (ec) {
    error = "cannot mirror " + root.string() + " in " + tree.string() + ": " + ec.message();
    return false;
  }
  for (const auto& f : change.files) {
    if (f.binary) continue;
    for (const std::string* p : {&f.oldPath, &f.newPath})
      if (!p->empty() && !safeRelative(*p)) {
        error = "the diff names '" + *p + "', a path outside the source root";
        return false;
      }
    if (fs::path(f.newPath).filename() == ".ptoverify.yaml") continue;
    std::string newText;
    if (!f.newPath.empty()) {
      std::string why;
      std::optional<std::string> text = readRegularFile((root / f.newPath).string(), why);
      if (!text) {
        error = "'" + f.newPath + "', changed by the diff, is not in " + root.string() + " (" + why + ")";
        return false;
      }
      newText = std::move(*text);
      removeInMirror(tree, f.newPath, ec);  // an added file is not there before the change
      if (ec) {
        error = "cannot rebuild '" + f.newPath + "' in " + tree.string() + ": " + ec.message();
        return false;
      }
    }
    if (f.oldPath.empty()) continue;
    std::string oldText, why;
    if (!oldVersion(f, newText, oldText, why)) {
      error = "'" + f.newPath + "' on disk is not the diff's new version (" + why + ")";
      return false;
    }
    if (!writeInMirror(tree, f.oldPath, oldText, error)) return false;
  }
  return true;
}

// The request, with every path under `root` moved into `tree`.
CheckRequest baseRequest(const CheckRequest& req, const std::string& root, const std::string& tree) {
  auto map = [&](const std::string& p) {
    bool inside = false;
    std::string rel = pathUnderRoot(p, root, &inside);
    if (inside) return tree + "/" + rel;
    return rel == root ? tree : p;  // outside, rel is the absolute path
  };
  CheckRequest base = req;
  base.paths.clear();
  std::error_code ec;
  for (const auto& p : req.paths) {
    std::string mapped = map(p);
    if (fs::exists(mapped, ec)) base.paths.push_back(mapped);  // an added file has no BASE
  }
  static const char* kPathFlags[] = {"-I", "-isystem", "-iquote", "-idirafter", "-include"};
  for (size_t i = 0; i < base.compilerArgs.size(); ++i) {
    std::string& a = base.compilerArgs[i];
    for (const char* flag : kPathFlags) {
      std::string f = flag;
      if (a == f && i + 1 < base.compilerArgs.size()) {
        base.compilerArgs[i + 1] = map(base.compilerArgs[i + 1]);
        ++i;
        break;
      }
      if (a.rfind(f, 0) == 0 && a.size() > f.size()) {
        a = f + map(a.substr(f.size()));
        break;
      }
    }
  }
  if (!base.configPath.empty()) base.configPath = fs::absolute(base.configPath, ec).string();
  base.mirrorOf = root;
  base.mirrorAt = tree;
  base.progress = false;
  base.inputFiles.reset();
  return base;
}

void replaceAll(std::string& s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
}

// (input relative to the root, fingerprint) -> how many findings BASE has.
std::map<std::pair<std::string, std::string>, int> baseFingerprints(CheckResult& base, const std::string& tree,
                                                                    const std::string& root) {
  std::map<std::pair<std::string, std::string>, int> out;
  for (auto& file : base.files) {
    for (auto& f : file.findings) {  // paths in messages name the mirror: the fact is the same
      replaceAll(f.message, tree + "/", root + "/");
      for (auto& n : f.notes) replaceAll(n.message, tree + "/", root + "/");
    }
    assignFingerprints(file);
    std::string key = pathUnderRoot(file.path, tree);
    for (const auto& f : file.findings) ++out[{key, f.fingerprint}];
  }
  return out;
}

// Every place a finding names: itself, its notes, its witness path.
std::vector<SourceLoc> placesOf(const Finding& f) {
  std::vector<SourceLoc> out{f.loc};
  for (const auto& n : f.notes) out.push_back(n.loc);
  if (f.witness)
    for (const auto& s : f.witness->path) out.push_back(s.loc);
  return out;
}

// The file's path in the repository, by what it is (links resolved), as the diff names it.
std::string repositoryPath(const std::string& file, const std::string& canonicalRoot, bool& inside) {
  std::error_code ec;
  fs::path real = fs::weakly_canonical(file, ec);
  return pathUnderRoot(ec ? file : real.string(), canonicalRoot, &inside);
}

bool passesFilter(const Finding& f, const ChangedLines& change, const std::string& canonicalRoot, FilterMode mode) {
  if (mode == FilterMode::NoFilter) return true;
  std::map<std::string, std::pair<int, int>> spans;  // file -> first and last line the finding names
  for (const auto& loc : placesOf(f)) {
    if (loc.file.empty() || loc.line <= 0) continue;
    bool inside = false;
    std::string rel = repositoryPath(loc.file, canonicalRoot, inside);
    if (!inside) continue;
    if (mode == FilterMode::File && change.changesFile(rel)) return true;
    if (mode == FilterMode::DiffContext && change.inHunk(rel, loc.line)) return true;
    auto [it, added] = spans.try_emplace(rel, loc.line, loc.line);
    it->second.first = std::min(it->second.first, loc.line);
    it->second.second = std::max(it->second.second, loc.line);
  }
  if (mode != FilterMode::Added) return false;
  for (const auto& [rel, span] : spans)
    if (change.touches(rel, span.first, span.second)) return true;
  return false;
}

bool hasFindings(const CheckResult& r) {
  for (const auto& f : r.files)
    if (!f.findings.empty()) return true;
  return false;
}
}  // namespace

bool keepNewFindings(const Differential& diff, const CheckRequest& req, CheckResult& head, size_t& leftOut,
                     std::string& error) {
  leftOut = 0;
  if (!hasFindings(head)) return true;  // nothing that could be new
  const std::string& root = diff.change->root;
  std::string scratch = (fs::temp_directory_path() / "ptoverify-base-XXXXXX").string();
  if (!mkdtemp(scratch.data())) {
    error = "cannot make a temporary directory for the BASE check";
    return false;
  }
  std::string tree = scratch + "/tree";
  std::map<std::pair<std::string, std::string>, int> atBase;
  bool built = buildBaseTree(*diff.change, root, tree, error);
  if (built) {
    CheckResult base = runCheck(baseRequest(req, root, tree));
    atBase = baseFingerprints(base, tree, root);
  }
  std::error_code ec;
  fs::remove_all(scratch, ec);  // links are removed, never followed
  if (!built) return false;
  const std::string why = "present before the change (" + diff.baseName + ")";
  std::string canonicalRoot = fs::weakly_canonical(root, ec).string();
  if (ec) canonicalRoot = root;
  for (auto& file : head.files) {
    std::string key = pathUnderRoot(file.path, root);
    std::vector<Finding> kept;
    for (auto& f : file.findings) {
      auto it = atBase.find({key, f.fingerprint});
      if (it != atBase.end() && it->second > 0) {
        --it->second;
        file.hidden.push_back({std::move(f), false, why, false, true});
      } else if (passesFilter(f, *diff.change, canonicalRoot, diff.mode)) {
        kept.push_back(std::move(f));
      } else {
        ++leftOut;
      }
    }
    file.findings = std::move(kept);
  }
  return true;
}

}  // namespace ptov
