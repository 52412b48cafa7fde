#include "cli/config.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>

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
        if (k == "timeout-ms") c.timeoutMs = static_cast<unsigned>(integer(s.second, what));
        else if (k == "kernel-budget-ms") c.kernelBudgetMs = static_cast<unsigned>(integer(s.second, what));
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
          if (std::find(known.begin(), known.end(), name) == known.end()) {
            std::string list;
            for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
            fail(o.first, "rule " + id + " has no option '" + name + "'" + (list.empty() ? "" : " (" + list + ")"));
          }
          c.ruleOptions[id][name] = integer(o.second, id + "." + name);
        }
      }
    } else {
      fail(kv.first, "unknown key '" + key + "' (rules, severity, arch, fail-on, solver, options)");
    }
  }
}
}  // namespace

bool loadConfig(const std::string& path, Config& out, std::string& error) {
  out = Config{};
  out.path = path;
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

std::string findConfig(const std::string& input) {
  std::error_code ec;
  fs::path p = fs::absolute(input, ec);
  if (!fs::is_directory(p, ec)) p = p.parent_path();
  for (; !p.empty(); p = p.parent_path()) {
    fs::path candidate = p / ".ptoverify.yaml";
    if (fs::exists(candidate, ec)) return candidate.string();
    if (p == p.root_path()) break;
  }
  return "";
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
  e << YAML::Key << "options" << YAML::Value << YAML::BeginMap;
  for (const auto& [rule, opts] : c.ruleOptions) {
    e << YAML::Key << rule << YAML::Value << YAML::BeginMap;
    for (const auto& [name, value] : opts) e << YAML::Key << name << YAML::Value << value;
    e << YAML::EndMap;
  }
  e << YAML::EndMap << YAML::EndMap;
  return std::string(e.c_str()) + "\n";
}

}  // namespace ptov
