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

// Beside the executable (an installed or copied tool keeps its module next to it), then where
// the build put it.
Factory loadFactory(std::string& error) {
  std::vector<std::string> candidates;
  // PTOVERIFY_Z3_MODULE names the module to use, and only that one (tests, unusual installs).
  const char* chosen = std::getenv("PTOVERIFY_Z3_MODULE");
  if (chosen && *chosen) {
    candidates.push_back(chosen);
  } else {
    std::string dir = executableDir();
    if (!dir.empty()) candidates.push_back(dir + "/libptoverify-z3.so");
#ifdef PTOVERIFY_Z3_MODULE
    if (candidates.empty() || candidates[0] != PTOVERIFY_Z3_MODULE) candidates.push_back(PTOVERIFY_Z3_MODULE);
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
