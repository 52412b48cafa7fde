#include "analyzer/frontend.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <string_view>
#include <tuple>

#include "analyzer/model/cpp_facts.h"
#include "analyzer/mlir/parser.h"
#include "analyzer/pto/lifter.h"

namespace ptov {

namespace fs = std::filesystem;

bool LoadedFile::hasErrors() const {
  for (const auto& d : diagnostics)
    if (d.level == InputDiagnostic::Level::Error) return true;
  return false;
}

namespace {
CppLoader& cppLoader() {
  static CppLoader loader = nullptr;
  return loader;
}
}  // namespace

void registerCppLoader(CppLoader loader) { cppLoader() = loader; }
bool hasCppFrontend() { return cppLoader() != nullptr; }

std::string executableDir() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? "" : exe.parent_path().string();
}

namespace {
// What fs::path::extension() gives, without splitting the whole path into components (a
// fs::path per question was a tenth of a 150-file run's set-up).
std::string_view extensionOf(std::string_view path) {
  size_t slash = path.find_last_of('/');
  std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  size_t dot = name.rfind('.');
  if (dot == std::string_view::npos || dot == 0 || name == "..") return {};
  return name.substr(dot);
}
}  // namespace

bool isCppInput(const std::string& path) {
  std::string_view ext = extensionOf(path);
  for (const char* e : {".cpp", ".cc", ".cxx", ".h", ".hpp", ".hxx", ".inc"})
    if (ext == e) return true;
  return false;
}

bool isCppHeaderPath(const std::string& path) {
  std::string_view ext = extensionOf(path);
  return ext == ".h" || ext == ".hpp" || ext == ".hxx" || ext == ".inc";
}

bool isSupportedExtension(const std::string& path) {
  std::string_view ext = extensionOf(path);
  return ext == ".pto" || ext == ".mlir" || isCppInput(path);
}

std::optional<std::string> readRegularFile(const std::string& path, std::string& error) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer (it would block the whole run).
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    std::error_code ec;
    error = fs::exists(path, ec) && !fs::is_regular_file(path, ec) ? "not a regular file" : "cannot read file";
    return std::nullopt;
  }
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    error = "not a regular file";
    return std::nullopt;
  }
  // One byte more than fstat said, so a file read whole costs one read call, not a second one
  // to see the end.
  std::string text(static_cast<size_t>(st.st_size) + 1, '\0');
  size_t got = 0;
  while (true) {
    if (got == text.size()) text.resize(text.size() + 4096);  // the file grew since fstat
    ssize_t n = ::read(fd, text.data() + got, text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ::close(fd);
      error = "cannot read file";
      return std::nullopt;
    }
    if (n == 0) break;
    got += static_cast<size_t>(n);
    // Short of the buffer but past the size fstat gave: the end. A file that reports size 0
    // (procfs, sysfs) promises nothing, so it is read until read says 0.
    if (st.st_size > 0 && got >= static_cast<size_t>(st.st_size) && got < text.size()) break;
  }
  ::close(fd);
  text.resize(got);
  return text;
}

LoadedFile loadFile(const std::string& path, const FrontendOptions& opts) {
  std::string error;
  if (std::optional<std::string> text = readRegularFile(path, error)) return loadText(path, *text, opts);
  LoadedFile out;
  out.path = path;
  out.diagnostics.push_back({InputDiagnostic::Level::Error, SourceLoc{path, 1, 1}, error});
  return out;
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
                               "unsupported input kind (expected .pto, .mlir or a C++ source/header)"});
    return out;
  }
  if (isCppInput(path)) {
    if (!hasCppFrontend()) throw NeedsCppFrontend{};
    return cppLoader()(path, text, opts);
  }
  mlir::ParsedFile parsed = mlir::parseText(text, path);
  out.diagnostics = parsed.diagnostics;
  pto::LiftOptions lo;
  lo.defaultArch = opts.defaultArch;
  out.kernels = pto::lift(parsed, lo, out.diagnostics);
  if (out.kernels.empty() && !out.hasErrors())
    out.diagnostics.push_back({InputDiagnostic::Level::Note, SourceLoc{path, 1, 1}, "no kernel in this file: nothing was checked"});
  if (extensionOf(path) == ".mlir")
    for (auto& k : out.kernels) k.frontEnd = FrontEnd::Hivm;
  linkMixPeers(out.kernels);
  return out;
}

namespace {
// The supported files under `dir`, sorted; a directory that cannot be read is an input error
// (it was skipped without a word), and only regular files are taken (a FIFO would block).
std::vector<std::string> filesUnder(const std::string& dir, std::vector<std::string>& problems) {
  std::vector<std::string> found;
  std::vector<fs::path> pending{dir};
  while (!pending.empty()) {
    fs::path d = pending.back();
    pending.pop_back();
    std::error_code ec;
    fs::directory_iterator it(d, ec);
    if (ec) {
      problems.push_back(d.string() + ": error: cannot read this directory (" + ec.message() + ")");
      continue;
    }
    for (; it != fs::directory_iterator(); it.increment(ec)) {
      if (ec) {
        problems.push_back(d.string() + ": error: cannot read this directory (" + ec.message() + ")");
        break;
      }
      std::error_code kind;
      bool link = it->is_symlink(kind);
      if (it->is_directory(kind) && !link) pending.push_back(it->path());
      else if (it->is_regular_file(kind) && isSupportedExtension(it->path().string())) found.push_back(it->path().string());
    }
  }
  std::sort(found.begin(), found.end());
  return found;
}
}  // namespace

std::vector<std::string> collectInputs(const std::vector<std::string>& paths,
                                       std::vector<std::string>& problems, bool cppToo) {
  std::vector<std::string> out;
  // A file named twice (or found twice, or through a symlink) is checked once: a file is its
  // device and inode, which one stat() gives along with what the path names.
  std::set<std::pair<dev_t, ino_t>> seen;
  // `st` is null for a listed file gone before its stat: it is kept, so reading it says why.
  auto add = [&](const std::string& f, const struct stat* st) {
    if (!cppToo && isCppInput(f)) return;
    if (!st || seen.insert({st->st_dev, st->st_ino}).second) out.push_back(f);
  };
  for (const auto& p : paths) {
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0) {
      problems.push_back(p + ": error: no such file or directory");
    } else if (S_ISDIR(st.st_mode)) {
      auto found = filesUnder(p, problems);
      if (found.empty()) problems.push_back(p + ": error: no .pto, .mlir or C++ file in this directory");
      for (const auto& f : found) {
        struct stat fileSt {};
        add(f, ::stat(f.c_str(), &fileSt) == 0 ? &fileSt : nullptr);
      }
    } else if (S_ISREG(st.st_mode)) {
      add(p, &st);
    } else {
      problems.push_back(p + ": error: not a regular file (a FIFO, device or socket is not read)");
    }
  }
  if (!hasCppFrontend())
    for (const auto& f : out)
      if (isCppInput(f)) throw NeedsCppFrontend{};
  return out;
}

namespace {
// A launch names the kernel, its file or its directory. Launches in the kernel's own file win,
// and "kernel_entry" (the name of every PyPTO wrapper) only names kernels of its own file.
std::vector<const LaunchFacts*> launchesOf(const Kernel& k,
                                           const std::map<std::string, std::vector<const LaunchFacts*>>& byName) {
  fs::path file(k.file);
  std::vector<const LaunchFacts*> sameFile, elsewhere;
  // The kernel's name, its file's stem and the directories above it (a debug entry lives in
  // <kernel>/debug/entry.cpp).
  std::vector<std::string> keys{k.name, file.stem().string()};
  fs::path dir = file.parent_path();
  for (int up = 0; up < 3 && !dir.empty() && dir.filename() != ".." && dir.filename() != "."; ++up, dir = dir.parent_path())
    keys.push_back(dir.filename().string());
  for (const std::string& key : keys) {
    auto l = byName.find(key);
    if (l == byName.end()) continue;
    for (const LaunchFacts* lf : l->second) {
      bool local = lf->loc.file == k.file;
      auto& into = local ? sameFile : elsewhere;
      if ((local || key != "kernel_entry") && std::find(into.begin(), into.end(), lf) == into.end()) into.push_back(lf);
    }
  }
  return sameFile.empty() ? elsewhere : sameFile;
}
}  // namespace

namespace {
// `path` (absolute) resolved as weakly_canonical resolves it, one component at a time over
// resolved parents kept in `memo`: the directories of a tree share most of their parents, and
// weakly_canonical asked lstat and readlink of every component of every directory (500 system
// calls before the first of 150 files was read).
std::string resolvedPath(const std::filesystem::path& path, std::map<std::string, std::string>& memo) {
  namespace fs = std::filesystem;
  if (path == path.root_path() || !path.has_relative_path()) return path.string();
  auto known = memo.find(path.string());
  if (known != memo.end()) return known->second;
  fs::path parent(resolvedPath(path.parent_path(), memo));
  fs::path name = path.filename();
  fs::path result;
  std::error_code ec;
  if (name.empty() || name == ".") result = parent;
  else if (name == "..") result = parent.parent_path();  // the parent is physical already
  else if (fs::is_symlink(fs::symlink_status(parent / name, ec))) result = fs::weakly_canonical(parent / name, ec);
  else result = parent / name;
  return memo.emplace(path.string(), result.string()).first->second;
}

std::mutex pathMutex;
std::map<std::string, std::string> resolvedDirs;  // absolute spelling -> resolved
std::optional<std::filesystem::path> workingDir;    // asked once: absolute() asks each time

std::filesystem::path absoluteLocked(const std::filesystem::path& path) {
  std::error_code ec;
  if (!workingDir) workingDir = std::filesystem::current_path(ec);
  return path.is_absolute() ? path : *workingDir / path;
}
}  // namespace

std::string resolvedDirectory(const std::string& dir) {
  std::lock_guard<std::mutex> lock(pathMutex);
  return resolvedPath(absoluteLocked(dir.empty() ? "." : dir), resolvedDirs);
}

// The directory part is resolved once per directory (resolvedPath); the file itself only when
// it is a symlink.
std::string normalisedPath(const std::string& p) {
  namespace fs = std::filesystem;
  static std::map<std::string, std::string> normalised;  // a run asks for each input several times
  std::lock_guard<std::mutex> lock(pathMutex);
  auto known = normalised.find(p);
  if (known != normalised.end()) return known->second;
  std::error_code ec;
  fs::path path(p);
  fs::path absolute = absoluteLocked(path);
  std::string result;
  if (fs::is_symlink(fs::symlink_status(path, ec)))
    result = fs::weakly_canonical(absolute, ec).lexically_normal().string();
  else
    result = (fs::path(resolvedPath(absolute.parent_path(), resolvedDirs)) / path.filename()).lexically_normal().string();
  return normalised.emplace(p, result).first->second;
}

namespace {
// A header input that another input of the run includes is modelled there, once.
void dropIncludedHeaders(std::vector<LoadedFile*>& files) {
  std::map<std::string, std::string> includer;  // header -> an input that includes it
  for (auto* f : files)
    for (const auto& inc : f->includedFiles) includer.emplace(inc, f->path);
  for (auto* f : files) {
    if (!isCppInput(f->path)) continue;
    auto it = includer.find(normalisedPath(f->path));
    bool checkedElsewhere = it != includer.end() && it->second != f->path;
    // A device header with no kernel entry that no input includes: what it holds is checked nowhere.
    const FunctionCoverage& c = f->coverage;
    if (!checkedElsewhere && isCppHeaderPath(f->path) && f->kernels.empty() && c.full + c.partly + c.none == 0 &&
        !f->hasErrors())
      f->diagnostics.push_back({InputDiagnostic::Level::Warning, SourceLoc{f->path, 1, 1},
                                "device header with no kernel entry, and no input of this run includes it: nothing "
                                "in it is checked (give the file that includes it as an input too)"});
    if (!checkedElsewhere) continue;
    f->kernels.clear();
    // What parsing it on its own said is moot (a header needs what its includer includes
    // first): the includer's parse is the one that counts.
    f->diagnostics.clear();
    f->diagnostics.push_back({InputDiagnostic::Level::Note, SourceLoc{f->path, 1, 1},
                              "included by " + it->second + ", another input: its code is checked there, once"});
  }
}

// The entry points that reach each control-code function over the whole run: the inputs' call
// graphs joined by Clang USR (calls, constructions and functions handed on by name), roots being
// extern "C" functions and functions no function of any input calls. A function of one input
// called from another's entry takes that entry's role.
void linkMachineEntries(std::vector<LoadedFile*>& files) {
  struct Node {
    std::string name;
    const std::vector<std::string>* calls = nullptr;
  };
  std::map<std::string, Node> nodes;
  std::set<std::string> called, externC;
  for (auto* f : files)
    for (const auto& k : f->kernels) {
      if (k.kind != KernelKind::Machine || !k.cpp || !k.cpp->machine || k.cpp->machine->usr.empty()) continue;
      const MachineFacts& m = *k.cpp->machine;
      nodes.emplace(m.usr, Node{k.name, &m.calls});
      for (const auto& c : m.calls)
        if (c != m.usr) called.insert(c);
      externC.insert(m.fileEntries.begin(), m.fileEntries.end());
    }
  std::map<std::string, std::set<std::string>> reaching;  // usr -> entry names
  for (const auto& [usr, root] : nodes) {
    if (called.count(usr) && !externC.count(root.name)) continue;
    std::vector<std::string> todo{usr};
    std::set<std::string> seen{usr};
    while (!todo.empty()) {
      std::string at = todo.back();
      todo.pop_back();
      reaching[at].insert(root.name);
      auto it = nodes.find(at);
      if (it == nodes.end()) continue;
      for (const auto& c : *it->second.calls) {
        auto callee = nodes.find(c);
        // Another extern "C" entry handed on (`{PyptoKernelCtrlServerInit, PyptoKernelCtrlServer}`
        // given to the thread manager) runs as itself, not as the function that names it.
        if (callee == nodes.end() || externC.count(callee->second.name)) continue;
        if (seen.insert(c).second) todo.push_back(c);
      }
    }
  }
  for (auto* f : files)
    for (auto& k : f->kernels) {
      if (k.kind != KernelKind::Machine || !k.cpp || !k.cpp->machine || !reaching.count(k.cpp->machine->usr)) continue;
      const auto& reached = reaching[k.cpp->machine->usr];
      std::vector<std::string> entries(reached.begin(), reached.end());
      if (entries == k.cpp->machine->entries) continue;
      auto facts = std::make_shared<CppFacts>(*k.cpp);
      facts->machine->entries = std::move(entries);
      k.cpp = facts;
    }
}

// Control code models the functions of the input headers it includes: two inputs that include
// the same header carry the same functions, checked once (in the first).
// The copy kept gathers the entry points every includer found reaching the function: a header's
// function called from the sche entry in one file and from the ctrl entry in another runs in both.
void dropRepeatedMachineFunctions(std::vector<LoadedFile*>& files) {
  using Place = std::tuple<std::string, int, int>;
  auto placeOf = [](const Kernel& k) { return Place{normalisedPath(k.loc.file), k.loc.line, k.loc.col}; };
  auto isMachine = [](const Kernel& k) { return k.kind == KernelKind::Machine && k.cpp && k.cpp->machine; };
  // The copy kept is the one whose file saw most of the callers deciding its spin waits (an
  // includer without the callers of a wait's function cannot follow its failure); the first
  // such copy in input order.
  auto callerContexts = [](const Kernel& k) {
    size_t n = 0;
    for (const auto& w : k.cpp->machine->waits) n += w.callers.size();
    return n;
  };
  std::map<Place, std::set<std::string>> entries;  // every includer's entries, per function
  std::map<Place, std::set<std::string>> fileEntries;
  std::map<Place, int> copies;
  std::map<Place, std::pair<const LoadedFile*, size_t>> best;  // file and index of the copy kept
  for (auto* f : files)
    for (size_t i = 0; i < f->kernels.size(); ++i) {
      const Kernel& k = f->kernels[i];
      if (!isMachine(k)) continue;
      Place p = placeOf(k);
      ++copies[p];
      entries[p].insert(k.cpp->machine->entries.begin(), k.cpp->machine->entries.end());
      fileEntries[p].insert(k.cpp->machine->fileEntries.begin(), k.cpp->machine->fileEntries.end());
      auto it = best.find(p);
      if (it == best.end() || callerContexts(k) > callerContexts(it->second.first->kernels[it->second.second]))
        best[p] = {f, i};
    }
  for (auto* f : files) {
    auto& ks = f->kernels;
    // Only files with control code are rebuilt: other kernels may be pointed at (mix peers).
    if (std::none_of(ks.begin(), ks.end(), isMachine)) continue;
    std::vector<Kernel> kept;
    for (size_t i = 0; i < ks.size(); ++i) {
      if (!isMachine(ks[i])) {
        kept.push_back(std::move(ks[i]));
        continue;
      }
      Place p = placeOf(ks[i]);
      if (best[p] != std::make_pair(static_cast<const LoadedFile*>(f), i)) continue;
      if (copies[p] > 1) {
        auto facts = std::make_shared<CppFacts>(*ks[i].cpp);
        facts->machine->entries.assign(entries[p].begin(), entries[p].end());
        facts->machine->fileEntries.assign(fileEntries[p].begin(), fileEntries[p].end());
        ks[i].cpp = facts;
      }
      kept.push_back(std::move(ks[i]));
    }
    ks = std::move(kept);
  }
}
}  // namespace

void linkInputs(std::vector<LoadedFile*>& files) {
  dropIncludedHeaders(files);
  linkMachineEntries(files);
  dropRepeatedMachineFunctions(files);
  std::map<std::string, std::vector<const LaunchFacts*>> launches;
  std::map<std::string, const Kernel*> irKernels;
  for (auto* f : files)
    for (const auto& k : f->kernels) {
      if (k.cpp)
        for (const auto& l : k.cpp->launches) launches[l.kernel].push_back(&l);
      if (k.frontEnd == FrontEnd::Pto) irKernels.emplace(k.name, &k);
    }
  std::set<const LaunchFacts*> linked;
  for (auto* f : files)
    for (auto& k : f->kernels) {
      if (k.frontEnd != FrontEnd::Cpp) continue;
      k.launches = launchesOf(k, launches);
      linked.insert(k.launches.begin(), k.launches.end());
      k.irPeer = nullptr;
      auto ir = irKernels.find(k.name);
      if (ir == irKernels.end() && k.cpp)
        for (const auto& call : k.cpp->forwarded)
          if ((ir = irKernels.find(call.callee)) != irKernels.end()) break;
      if (ir != irKernels.end()) k.irPeer = ir->second;
    }
  // Say which submitted tasks have no kernel among the inputs: their launch facts are checked
  // only against the orchestration's own rules.
  for (auto* f : files)
    for (const auto& k : f->kernels) {
      if (!k.cpp || k.kind != KernelKind::Orchestration) continue;
      std::vector<std::string> unlinked;
      for (const auto& l : k.cpp->launches)
        if (!linked.count(&l))
          unlinked.push_back("'" + (l.kernel.empty() ? std::string("?") : l.kernel) + "'" +
                             (l.kernelId ? " (id " + std::to_string(*l.kernelId) + ")" : ""));
      if (!unlinked.empty()) {
        std::string list;
        for (const auto& u : unlinked) list += (list.empty() ? "" : ", ") + u;
        f->diagnostics.push_back({InputDiagnostic::Level::Note, k.loc,
                                  std::to_string(unlinked.size()) + " task(s) of '" + k.name +
                                      "' launch no kernel among the inputs (by the name of a `// Task N: name` "
                                      "comment: kernel, file or directory name): " + list +
                                      "; their launch facts are not checked against a kernel"});
      }
    }
}

}  // namespace ptov
