#pragma once
// Entry point of the analyzer: turns input files into kernels of the model.
#include <memory>
#include <set>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/model/model.h"

namespace ptov {

struct FrontendOptions {
  std::string defaultArch = "a2a3";
  // C++ inputs: a directory holding compile_commands.json (`-p build/`, the clang-tidy way);
  // its -I/-D/-std flags are used for the files it lists.
  std::string compileCommandsDir;
  // C++ inputs: flags after `--` on the command line (-I, -D, -std, ...), after those of
  // compile_commands.json, so they win.
  std::vector<std::string> extraCompilerArgs;
  // Every input of the run (normalised paths): control code models the functions of the input
  // headers it includes as well as its own (linkInputs keeps one copy).
  std::shared_ptr<const std::set<std::string>> inputFiles;
  // The inputs sit in a mirror (`mirrorAt`) of the directory `mirrorOf`: a file's compile command
  // is the one of its original, with the paths under `mirrorOf` moved into the mirror.
  std::string mirrorOf, mirrorAt;
  // A thread is free for this input (more jobs than inputs): C++ device code that names a core
  // macro has its cube view parsed beside its vector view instead of after it.
  bool viewsSideBySide = false;
};

// C++ control code: how many functions (roots of the file) Clang read whole, partly (an error
// inside the body dropped some of it) or not at all (an invalid declaration or class).
struct FunctionCoverage {
  int full = 0, partly = 0, none = 0;
};

// C++ device code: the synchronisation calls written in it (set_flag / wait_flag / pipe_barrier
// and their AscendC forms) and how many of them reached a kernel's model; the rest, where and why.
struct SyncCoverage {
  int written = 0, modelled = 0;  // modelled: in a model, or in dead code of a function a kernel runs
  std::vector<ModelGap> missed;  // each call no model holds, with why
};

struct LoadedFile {
  std::string path;
  FunctionCoverage coverage;
  SyncCoverage sync;
  std::vector<Kernel> kernels;
  std::vector<InputDiagnostic> diagnostics;
  // C++: every file the input included (absolute, normalised), so that a header that is also an
  // input of the run is checked once, through the file that includes it.
  std::vector<std::string> includedFiles;
  bool hasErrors() const;
};

// Reads and models one file, choosing the front end by extension and content.
// Points each HIVM `f_mix_aic` / `f_mix_aiv` kernel at its other halves (Kernel::mixPeers).
// The vector must not reallocate afterwards.
void linkMixPeers(std::vector<Kernel>& kernels);

LoadedFile loadFile(const std::string& path, const FrontendOptions& opts);
// The whole of a regular file, or nullopt with `error` set ("not a regular file", "cannot read
// file"). A FIFO is refused without blocking on it. One open, fstat and read: over 3,000 small
// inputs, stat + ifstream + stringstream was a tenth of a .pto run.
std::optional<std::string> readRegularFile(const std::string& path, std::string& error);
// The same for text already in memory (`path` names it in diagnostics and picks the front end).
LoadedFile loadText(const std::string& path, const std::string& text, const FrontendOptions& opts);

// Expands files and directories (recursively, by extension) into a sorted list of inputs.
// A path that does not exist, or a directory with no .pto/.mlir file in it, is an input error:
// its clang-style message ("PATH: error: ...") goes to `problems`, so nothing passes silently.
// Without a C++ front end registered it throws NeedsCppFrontend at a C++ input, unless
// `cppToo` is false: then C++ inputs are left out (a tool that reads only .pto and .mlir).
std::vector<std::string> collectInputs(const std::vector<std::string>& paths,
                                       std::vector<std::string>& problems, bool cppToo = true);

bool isSupportedExtension(const std::string& path);
// An absolute, normalised spelling of a path (symlinks resolved where they exist), to compare
// the same file reached by different routes.
std::string normalisedPath(const std::string& path);
// A directory as an absolute path with symlinks, '.' and '..' resolved (weakly_canonical), so
// that walking up it visits the directories that really hold it.
std::string resolvedDirectory(const std::string& dir);
// .cpp .cc .cxx .h .hpp .hxx .inc: handled by the C++ front end.
bool isCppInput(const std::string& path);
bool isCppHeaderPath(const std::string& path);  // .h, .hpp, .hxx, .inc

// The C++ front end lives in the `ptoverify-cpp` executable (it links Clang). The lean
// `ptoverify` has none registered: meeting a C++ input it throws NeedsCppFrontend, and main()
// re-runs the same command line in `ptoverify-cpp`.
using CppLoader = LoadedFile (*)(const std::string& path, const std::string& text, const FrontendOptions& opts);
void registerCppLoader(CppLoader loader);
bool hasCppFrontend();
struct NeedsCppFrontend {};
// The directory of the running executable (where ptoverify-cpp and share/ are looked up).
std::string executableDir();

// Links the kernels of all inputs of one run: each kernel's launches from orchestration code
// (by kernel name) and its .pto counterpart (a C++ kernel, or the callee its wrapper forwards to,
// with the name of a .pto kernel). Pointers stay valid while `files` is not resized.
void linkInputs(std::vector<LoadedFile*>& files);

}  // namespace ptov
