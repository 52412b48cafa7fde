#include "cli/config.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <mutex>

#include "analyzer/frontend.h"

namespace ptov {

namespace {
namespace fs = std::filesystem;

struct ConfigError {
  std::string message;
  YAML::Mark mark;
};

[[noreturn]] void fail(const YAML::Node& n, const std::string& msg) { throw ConfigError{msg, n.Mark()}; }

std::string scalar(const YAML::Node& n, const std::string& what) {
  if (!n.IsScalar()) fail(n, what + " must be a single value");
  return n.Scalar();
}

Severity severityOf(const YAML::Node& n, const std::string& what) {
  Severity s;
  if (!parseSeverity(scalar(n, what), s)) fail(n, what + " must be error, warning or note, not '" + n.Scalar() + "'");
  return s;
}

int64_t integer(const YAML::Node& n, const std::string& what) {
  try {
    size_t used = 0;
    std::string s = scalar(n, what);
    int64_t v = std::stoll(s, &used);
    if (used != s.size()) throw std::invalid_argument(s);
    return v;
  } catch (const std::logic_error&) {
    fail(n, what + " must be an integer, not '" + n.Scalar() + "'");
  }
}

bool isRule(const std::string& id) { return findRule(id) != nullptr; }

bool boolean(const YAML::Node& n, const std::string& what) {
  std::string s = scalar(n, what);
  if (s == "true") return true;
  if (s == "false") return false;
  fail(n, what + " must be true or false, not '" + s + "'");
}

std::vector<std::string> names(const YAML::Node& n, const std::string& what) {
  if (!n.IsSequence()) fail(n, what + " must be a list of names");
  std::vector<std::string> out;
  for (const auto& x : n) out.push_back(scalar(x, "an entry of " + what));
  return out;
}

// One row of the reader-set table; a row with the struct and field of a default row replaces it.
void parseSharedField(const YAML::Node& n, TimingConfig& t) {
  if (!n.IsMap()) fail(n, "a shared field is a mapping {struct, field, readers, owners, per-round, per-slot, allowed-in, fix}");
  SharedField f;
  bool haveField = false;
  for (const auto& kv : n) {
    std::string k = kv.first.Scalar();
    const std::string what = "timing.shared-fields." + k;
    if (k == "struct") f.structName = scalar(kv.second, what);
    else if (k == "field") f.field = scalar(kv.second, what), haveField = true;
    else if (k == "readers") {
      f.readers = names(kv.second, what);
      for (size_t i = 0; i < f.readers.size(); ++i)
        if (f.readers[i] != "ctrl" && f.readers[i] != "sche" && f.readers[i] != "aicore")
          fail(kv.second[i], "a reader is ctrl, sche or aicore, not '" + f.readers[i] + "'");
    } else if (k == "owners") {
      f.owners = names(kv.second, what);
      for (size_t i = 0; i < f.owners.size(); ++i)
        if (f.owners[i] != "ctrl" && f.owners[i] != "sche" && f.owners[i] != "aicore")
          fail(kv.second[i], "an owner is ctrl, sche or aicore, not '" + f.owners[i] + "'");
    } else if (k == "per-round") f.perRound = boolean(kv.second, what);
    else if (k == "per-slot") f.perSlot = boolean(kv.second, what);
    else if (k == "allowed-in") f.allowedIn = names(kv.second, what);
    else if (k == "fix") f.fix = scalar(kv.second, what);
    else fail(kv.first, "unknown key '" + k + "' (struct, field, readers, owners, per-round, per-slot, allowed-in, fix)");
  }
  if (!haveField) fail(n, "a shared field needs field:");
  if (f.structName.empty()) f.structName = "*";
  for (auto& existing : t.sharedFields)
    if (existing.structName == f.structName && existing.field == f.field) {
      existing = f;
      return;
    }
  t.sharedFields.push_back(f);
}

void parseTiming(const YAML::Node& v, TimingConfig& t) {
  if (!v.IsMap()) fail(v, "timing: must be a mapping");
  for (const auto& kv : v) {
    std::string k = kv.first.Scalar();
    const YAML::Node& n = kv.second;
    if (k == "shared-fields") {
      if (!n.IsSequence()) fail(n, "timing.shared-fields must be a list");
      for (const auto& row : n) parseSharedField(row, t);
    } else if (k == "roles") {
      // role -> the entry points whose code runs as that role (globs of qualified names)
      if (!n.IsMap()) fail(n, "timing.roles must map a role (ctrl, sche, aicore) to entry-point names");
      t.roleEntries.clear();  // like the lists: the configured table replaces the default
      for (const auto& r : n) {
        std::string role = r.first.Scalar();
        if (role != "ctrl" && role != "sche" && role != "aicore")
          fail(r.first, "a role is ctrl, sche or aicore, not '" + role + "'");
        t.roleEntries[role] = names(r.second, "timing.roles." + role);
      }
    } else if (k == "per-round-objects") {
      t.perRoundObjects = names(n, "timing." + k);
    } else if (k == "stop-order") {
      if (!n.IsMap()) fail(n, "timing.stop-order must be a mapping");
      std::map<std::string, std::vector<std::string>*> lists = {
          {"stop-calls", &t.stopCalls},           {"fences", &t.fenceCalls},
          {"clear-calls", &t.clearCalls},         {"goodbye-calls", &t.goodbyeCalls},
          {"sche-wait-calls", &t.scheWaitCalls},  {"aicore-wait-calls", &t.aicoreWaitCalls},
          {"reclaim-calls", &t.reclaimCalls},     {"goodbye-values", &t.goodbyeValues},
          {"sche-wait-polls", &t.scheWaitPolls},  {"aicore-wait-polls", &t.aicoreWaitPolls},
          {"close-calls", &t.closeCalls},         {"close-values", &t.closeValues}};
      for (const auto& s : n) {
        std::string key = s.first.Scalar();
        if (key == "stop-marker") t.stopMarker = scalar(s.second, "timing.stop-order.stop-marker");
        else if (lists.count(key)) *lists[key] = names(s.second, "timing.stop-order." + key);
        else fail(s.first, "unknown key 'timing.stop-order." + key + "' (stop-calls, stop-marker, fences, clear-calls, "
                           "goodbye-calls, goodbye-values, close-calls, close-values, sche-wait-calls, "
                           "aicore-wait-calls, sche-wait-polls, aicore-wait-polls, reclaim-calls)");
      }
    } else if (k == "hard-wait") {
      if (!n.IsMap()) fail(n, "timing.hard-wait must be a mapping");
      std::map<std::string, std::vector<std::string>*> lists = {
          {"safe-timeout-calls", &t.safeTimeoutCalls}, {"hard-failure-calls", &t.hardFailureCalls},
          {"error-returns", &t.errorReturns},          {"degrade-calls", &t.degradeCalls},
          {"ignore-polls", &t.ignorePolls}};
      for (const auto& s : n) {
        std::string key = s.first.Scalar();
        const std::string what = "timing.hard-wait." + key;
        if (key == "safe-window-ms") {
          t.safeWindowMs = integer(s.second, what);
          if (t.safeWindowMs <= 0) fail(s.second, what + " must be positive");
        } else if (key == "safe-window-constants") {
          if (!s.second.IsMap()) fail(s.second, what + " must map arch (a2a3, a5) to a constant's name");
          t.safeWindowConstants.clear();  // like the lists: the configured map replaces the default
          for (const auto& c : s.second) {
            std::string arch = c.first.Scalar();
            if (arch != "a2a3" && arch != "a5") fail(c.first, "arch must be a2a3 or a5, not '" + arch + "'");
            t.safeWindowConstants[arch] = scalar(c.second, what + "." + arch);
          }
        } else if (lists.count(key)) {
          *lists[key] = names(s.second, what);
        } else {
          fail(s.first, "unknown key '" + what + "' (safe-timeout-calls, safe-window-ms, safe-window-constants, "
                        "hard-failure-calls, error-returns, degrade-calls, ignore-polls)");
        }
      }
    } else {
      fail(kv.first, "unknown key 'timing." + k + "' (roles, shared-fields, per-round-objects, stop-order, hard-wait)");
    }
  }
}

void parse(const YAML::Node& root, Config& c) {
  if (!root.IsMap()) fail(root, "the configuration must be a mapping of keys");
  for (const auto& kv : root) {
    std::string key = kv.first.Scalar();
    const YAML::Node& v = kv.second;
    if (key == "rules") {
      if (!v.IsSequence()) fail(v, "rules: must be a list of rule globs");
      std::vector<std::string> globs;
      for (const auto& g : v) {
        std::string glob = scalar(g, "a rule glob");
        std::string bare = glob[0] == '-' ? glob.substr(1) : glob;
        bool matches = false;
        for (const auto& r : allRules()) matches |= ruleEnabled(r->info().id, {bare});
        if (!matches) fail(g, "rule glob '" + glob + "' matches no rule (see 'ptoverify rules')");
        globs.push_back(glob);
      }
      if (!globs.empty() && !anyRuleEnabled(globs)) fail(v, "rules: leaves no rule enabled (a gate that checks nothing)");
      c.rules = globs;
    } else if (key == "severity") {
      if (!v.IsMap()) fail(v, "severity: must map rule ids to error, warning or note");
      for (const auto& s : v) {
        std::string id = s.first.Scalar();
        if (!isRule(id)) fail(s.first, "unknown rule '" + id + "'");
        c.severity[id] = severityOf(s.second, "severity of " + id);
      }
    } else if (key == "arch") {
      std::string a = scalar(v, "arch");
      if (a != "a2a3" && a != "a5") fail(v, "arch must be a2a3 or a5, not '" + a + "'");
      c.arch = a;
    } else if (key == "fail-on") {
      c.failOn = severityOf(v, "fail-on");
    } else if (key == "solver") {
      if (!v.IsMap()) fail(v, "solver: must be a mapping");
      for (const auto& s : v) {
        std::string k = s.first.Scalar();
        const std::string what = "solver." + k;
        // Milliseconds as the command line takes them: 0 .. 2^32-1, never a negative one wrapped.
        auto millis = [&]() {
          int64_t v = integer(s.second, what);
          if (v < 0 || v > UINT32_MAX) fail(s.second, what + " must be between 0 and " + std::to_string(UINT32_MAX));
          return static_cast<unsigned>(v);
        };
        if (k == "timeout-ms") c.timeoutMs = millis();
        else if (k == "kernel-budget-ms") c.kernelBudgetMs = millis();
        else if (k == "cache-dir") c.cacheDir = scalar(s.second, what);
        else if (k == "param-ranges") {
          if (!s.second.IsMap()) fail(s.second, "param-ranges: must map parameter names to [lo, hi]");
          for (const auto& p : s.second) {
            if (!p.second.IsSequence() || p.second.size() != 2) fail(p.second, "a parameter range is [lo, hi]");
            int64_t lo = integer(p.second[0], "lo"), hi = integer(p.second[1], "hi");
            if (lo > hi) fail(p.second, "a parameter range needs lo <= hi");
            std::string name = p.first.Scalar();
            if (!name.empty() && name[0] == '%') name = name.substr(1);
            c.paramRanges[name] = {lo, hi};
          }
        } else {
          fail(s.first, "unknown key 'solver." + k + "' (timeout-ms, kernel-budget-ms, cache-dir, param-ranges)");
        }
      }
    } else if (key == "options") {
      if (!v.IsMap()) fail(v, "options: must map rule ids to their options");
      for (const auto& r : v) {
        std::string id = r.first.Scalar();
        const Rule* rule = findRule(id);
        if (!rule) fail(r.first, "unknown rule '" + id + "'");
        if (!r.second.IsMap()) fail(r.second, "the options of " + id + " must be a mapping");
        for (const auto& o : r.second) {
          std::string name = o.first.Scalar();
          const auto known = rule->options();
          if (std::none_of(known.begin(), known.end(), [&](const RuleOption& k) { return k.name == name; })) {
            std::string list;
            for (const auto& k : known) list += (list.empty() ? "" : ", ") + k.name;
            fail(o.first, "rule " + id + " has no option '" + name + "'" + (list.empty() ? "" : " (" + list + ")"));
          }
          c.ruleOptions[id][name] = integer(o.second, id + "." + name);
        }
      }
    } else if (key == "host-read") {
      if (!v.IsSequence()) fail(v, "host-read: must be a list of kernel parameter names");
      for (const auto& n : v) {
        std::string name = scalar(n, "a host-read parameter");
        c.hostRead.insert(!name.empty() && name[0] == '%' ? name.substr(1) : name);
      }
    } else if (key == "timing") {
      parseTiming(v, c.timing);
    } else {
      fail(kv.first, "unknown key '" + key + "' (rules, severity, arch, fail-on, solver, options, host-read, timing)");
    }
  }
}
}  // namespace

bool loadConfig(const std::string& path, Config& out, std::string& error) {
  out = Config{};
  out.path = path;
  std::error_code ec;
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec)) {
    error = path + ": error: the configuration is not a regular file";  // a FIFO would block
    return false;
  }
  try {
    YAML::Node root = YAML::LoadFile(path);
    if (root.IsNull()) return true;  // an empty file configures nothing
    parse(root, out);
    return true;
  } catch (const ConfigError& e) {
    error = path + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) + ": error: " + e.message;
  } catch (const YAML::BadFile&) {
    error = path + ": error: cannot read the configuration";
  } catch (const YAML::Exception& e) {
    error = path + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) + ": error: " + e.msg;
  }
  return false;
}

// The answer for a directory is kept for the process: a run over a tree asks for every file, and
// each question looked at every directory up to the root.
std::string findConfig(const std::string& input) {
  static std::mutex mutex;
  static std::map<std::string, std::string> configOfDir;
  std::error_code ec;
  // The real directory, not the spelling: the lexical parents of ../other/dir include the
  // working directory, whose configuration is not other/dir's.
  fs::path p = fs::is_directory(input, ec) ? resolvedDirectory(input) : resolvedDirectory(fs::path(input).parent_path().string());
  std::vector<std::string> asked;  // the directories walked, answered by what is found above them
  std::string found;
  std::lock_guard<std::mutex> lock(mutex);
  for (; !p.empty(); p = p.parent_path()) {
    auto known = configOfDir.find(p.string());
    if (known != configOfDir.end()) {
      found = known->second;
      break;
    }
    asked.push_back(p.string());
    fs::path candidate = p / ".ptoverify.yaml";
    if (fs::exists(candidate, ec)) {
      found = candidate.string();
      break;
    }
    if (p == p.root_path()) break;
  }
  for (const auto& dir : asked) configOfDir[dir] = found;
  return found;
}

std::string findConfigOfFile(const std::string& file) {
  static std::mutex mutex;
  static std::map<std::string, std::string> configOfWrittenDir;
  // The directory as written, the cache's key (fs::path would split the whole path first).
  size_t slash = file.find_last_of('/');
  std::string dir = slash == std::string::npos ? "" : slash == 0 ? "/" : file.substr(0, slash);
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto known = configOfWrittenDir.find(dir);
    if (known != configOfWrittenDir.end()) return known->second;
  }
  std::string found = findConfig(dir.empty() ? "." : dir);
  std::lock_guard<std::mutex> lock(mutex);
  return configOfWrittenDir.emplace(dir, found).first->second;
}

std::string dumpConfig(const Config& c) {
  YAML::Emitter e;
  e << YAML::BeginMap;
  e << YAML::Key << "file" << YAML::Value << (c.path.empty() ? "(none)" : c.path);
  e << YAML::Key << "rules" << YAML::Value << YAML::Flow << (c.rules ? *c.rules : std::vector<std::string>{"*"});
  e << YAML::Key << "severity" << YAML::Value << YAML::BeginMap;
  for (const auto& r : allRules()) {
    auto it = c.severity.find(r->info().id);
    e << YAML::Key << r->info().id << YAML::Value << severityName(it != c.severity.end() ? it->second : r->info().severity);
  }
  e << YAML::EndMap;
  e << YAML::Key << "arch" << YAML::Value << c.arch.value_or("a2a3");
  e << YAML::Key << "fail-on" << YAML::Value << severityName(c.failOn.value_or(Severity::Warning));
  SolverOptions defaults;
  e << YAML::Key << "solver" << YAML::Value << YAML::BeginMap;
  e << YAML::Key << "timeout-ms" << YAML::Value << c.timeoutMs.value_or(defaults.queryTimeoutMs);
  e << YAML::Key << "kernel-budget-ms" << YAML::Value << c.kernelBudgetMs.value_or(defaults.kernelBudgetMs);
  e << YAML::Key << "cache-dir" << YAML::Value << c.cacheDir.value_or("");
  e << YAML::Key << "param-ranges" << YAML::Value << YAML::BeginMap;
  for (const auto& [name, r] : c.paramRanges)
    e << YAML::Key << name << YAML::Value << YAML::Flow << std::vector<int64_t>{r.first, r.second};
  e << YAML::EndMap << YAML::EndMap;
  e << YAML::Key << "host-read" << YAML::Value << YAML::Flow
    << std::vector<std::string>(c.hostRead.begin(), c.hostRead.end());
  // Every rule's options: the configured value, else the default for the configured arch.
  e << YAML::Key << "options" << YAML::Value << YAML::BeginMap;
  for (const auto& r : allRules()) {
    const auto options = r->options();
    if (options.empty()) continue;
    auto configured = c.ruleOptions.find(r->info().id);
    e << YAML::Key << r->info().id << YAML::Value << YAML::BeginMap;
    for (const RuleOption& o : options) {
      int64_t value = o.defaultFor(c.arch.value_or("a2a3"));
      if (configured != c.ruleOptions.end())
        if (auto it = configured->second.find(o.name); it != configured->second.end()) value = it->second;
      e << YAML::Key << o.name << YAML::Value << value << YAML::Comment(o.help);
    }
    e << YAML::EndMap;
  }
  e << YAML::EndMap;
  const TimingConfig& t = c.timing;
  e << YAML::Key << "timing" << YAML::Value << YAML::BeginMap;
  e << YAML::Key << "roles" << YAML::Value << YAML::BeginMap;
  for (const auto& [role, globs] : t.roleEntries) e << YAML::Key << role << YAML::Value << YAML::Flow << globs;
  e << YAML::EndMap;
  e << YAML::Key << "shared-fields" << YAML::Value << YAML::BeginSeq;
  for (const auto& f : t.sharedFields) {
    e << YAML::BeginMap << YAML::Key << "struct" << YAML::Value << f.structName << YAML::Key << "field" << YAML::Value
      << f.field << YAML::Key << "readers" << YAML::Value << YAML::Flow << f.readers << YAML::Key << "owners"
      << YAML::Value << YAML::Flow << f.owners << YAML::Key << "per-round"
      << YAML::Value << f.perRound << YAML::Key << "per-slot" << YAML::Value << f.perSlot << YAML::Key << "allowed-in"
      << YAML::Value << YAML::Flow << f.allowedIn << YAML::Key << "fix" << YAML::Value << f.fix << YAML::EndMap;
  }
  e << YAML::EndSeq;
  e << YAML::Key << "per-round-objects" << YAML::Value << YAML::Flow << t.perRoundObjects;
  e << YAML::Key << "stop-order" << YAML::Value << YAML::BeginMap;
  e << YAML::Key << "stop-calls" << YAML::Value << YAML::Flow << t.stopCalls;
  e << YAML::Key << "stop-marker" << YAML::Value << t.stopMarker;
  e << YAML::Key << "fences" << YAML::Value << YAML::Flow << t.fenceCalls;
  e << YAML::Key << "clear-calls" << YAML::Value << YAML::Flow << t.clearCalls;
  e << YAML::Key << "goodbye-calls" << YAML::Value << YAML::Flow << t.goodbyeCalls;
  e << YAML::Key << "goodbye-values" << YAML::Value << YAML::Flow << t.goodbyeValues;
  e << YAML::Key << "close-calls" << YAML::Value << YAML::Flow << t.closeCalls;
  e << YAML::Key << "close-values" << YAML::Value << YAML::Flow << t.closeValues;
  e << YAML::Key << "sche-wait-polls" << YAML::Value << YAML::Flow << t.scheWaitPolls;
  e << YAML::Key << "aicore-wait-polls" << YAML::Value << YAML::Flow << t.aicoreWaitPolls;
  e << YAML::Key << "sche-wait-calls" << YAML::Value << YAML::Flow << t.scheWaitCalls;
  e << YAML::Key << "aicore-wait-calls" << YAML::Value << YAML::Flow << t.aicoreWaitCalls;
  e << YAML::Key << "reclaim-calls" << YAML::Value << YAML::Flow << t.reclaimCalls << YAML::EndMap;
  e << YAML::Key << "hard-wait" << YAML::Value << YAML::BeginMap;
  e << YAML::Key << "safe-timeout-calls" << YAML::Value << YAML::Flow << t.safeTimeoutCalls;
  e << YAML::Key << "safe-window-ms" << YAML::Value << t.safeWindowMs;
  e << YAML::Key << "safe-window-constants" << YAML::Value << YAML::Flow << t.safeWindowConstants;
  e << YAML::Key << "hard-failure-calls" << YAML::Value << YAML::Flow << t.hardFailureCalls;
  e << YAML::Key << "error-returns" << YAML::Value << YAML::Flow << t.errorReturns;
  e << YAML::Key << "degrade-calls" << YAML::Value << YAML::Flow << t.degradeCalls;
  e << YAML::Key << "ignore-polls" << YAML::Value << YAML::Flow << t.ignorePolls << YAML::EndMap;
  e << YAML::EndMap << YAML::EndMap;
  return std::string(e.c_str()) + "\n";
}

}  // namespace ptov
