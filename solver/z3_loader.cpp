// Finds the Z3 session (solver/z3_session.h): linked in, or libptoverify-z3.so loaded on the
// first query that needs Z3.
#include <dlfcn.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include "solver/z3_session.h"

// Defined when the session is linked into this executable; null in `ptoverify`, which loads it.
extern "C" ptov::Z3Session* ptovNewZ3Session() __attribute__((weak));

namespace ptov {
namespace {

using Factory = Z3Session* (*)();

std::string executableDir() {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "";
  std::string path(buf, static_cast<size_t>(n));
  auto slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

// Beside the executable or in ../lib/ptoverify (an installed or copied tool keeps its module
// with it), then, in the build tree, where the build put it.
Factory loadFactory(std::string& error) {
  std::vector<std::string> candidates;
  // PTOVERIFY_Z3_MODULE names the module to use, and only that one (tests, unusual installs).
  const char* chosen = std::getenv("PTOVERIFY_Z3_MODULE");
  if (chosen && *chosen) {
    candidates.push_back(chosen);
  } else {
    std::string dir = executableDir();
    if (!dir.empty()) {
      candidates.push_back(dir + "/libptoverify-z3.so");
      candidates.push_back(dir + "/../lib/ptoverify/libptoverify-z3.so");  // installed: bin/ and lib/ptoverify/
    }
#ifdef PTOVERIFY_Z3_MODULE
    // Where the build put it, for the binaries of that build tree only (tests run from build/tests).
    std::string built = PTOVERIFY_Z3_MODULE, buildDir = built.substr(0, built.rfind('/'));
    if (dir == buildDir || dir.rfind(buildDir + "/", 0) == 0) candidates.push_back(built);
#endif
  }
  std::string tried;
  for (const auto& path : candidates) {
    void* module = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!module) {
      const char* why = dlerror();
      tried += (tried.empty() ? "" : "; ") + std::string(why ? why : path);
      continue;
    }
    if (auto* make = reinterpret_cast<Factory>(dlsym(module, "ptovNewZ3Session"))) return make;
    tried += (tried.empty() ? "" : "; ") + path + " has no ptovNewZ3Session";
  }
  error = "Z3 is not available (" + (tried.empty() ? std::string("no libptoverify-z3.so beside the executable") : tried) +
          ")";
  return nullptr;
}

}  // namespace

std::unique_ptr<Z3Session> newZ3Session(std::string& error) {
  if (ptovNewZ3Session) return std::unique_ptr<Z3Session>(ptovNewZ3Session());
  static std::once_flag once;
  static Factory factory = nullptr;
  static std::string loadError;
  std::call_once(once, [] { factory = loadFactory(loadError); });
  if (!factory) {
    error = loadError;
    return nullptr;
  }
  return std::unique_ptr<Z3Session>(factory());
}

}  // namespace ptov
