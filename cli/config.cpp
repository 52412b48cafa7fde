#include "cli/config.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <mutex>

#include "analyzer/frontend.h"

namespace ptov {

namespace {
namespace fs = std::filesystem;

Severity severityOf(const YAML::Node& n, const std::string& what) {
  Severity s;
  if (!parseSeverity(readScalar(n, what), s))
    failAt(n, what + " must be error, warning or note, not '" + n.Scalar() + "'");
  return s;
}

bool isRule(const std::string& id) { return findRule(id) != nullptr; }

// `options: RULE: {NAME: VALUE}`: each value goes through the option's own reader.
void parseOptions(const YAML::Node& v, Config& c) {
  if (!v.IsMap()) failAt(v, "options: must map rule ids to their options");
  for (const auto& r : v) {
    std::string id = r.first.Scalar();
    const Rule* rule = findRule(id);
    if (!rule) failAt(r.first, "unknown rule '" + id + "'");
    if (!r.second.IsMap()) failAt(r.second, "the options of " + id + " must be a mapping");
    const auto known = rule->options();
    for (const auto& o : r.second) {
      std::string name = o.first.Scalar();
      auto option = std::find_if(known.begin(), known.end(), [&](const RuleOption& k) { return k.name == name; });
      if (option == known.end()) {
        std::string list;
        for (const auto& k : known) list += (list.empty() ? "" : ", ") + k.name;
        failAt(o.first, "rule " + id + " has no option '" + name + "'" + (list.empty() ? "" : " (" + list + ")"));
      }
      configureOption(c.ruleOptions, id, *option, o.second, id + "." + name);
    }
  }
}

// The options written under an alias path (RuleOption::alias) that starts with `path`, with
// their rules.
std::vector<std::pair<std::string, RuleOption>> optionsUnder(const std::vector<std::string>& path) {
  std::vector<std::pair<std::string, RuleOption>> out;
  for (const auto& r : allRules())
    for (const RuleOption& o : r->options())
      if (!o.alias.empty() && o.alias.size() >= path.size() && std::equal(path.begin(), path.end(), o.alias.begin()))
        out.emplace_back(r->info().id, o);
  return out;
}

// An alias path as its file writes it: timing.stop-order.fences.
std::string joined(const std::vector<std::string>& path) { return joinWith(path, "."); }

// A section of option aliases (`timing:`): a key path that ends at an alias sets that option of
// every rule declaring it; any other key must lead further to one.
void parseAliases(const YAML::Node& v, const std::vector<std::string>& path, Config& c) {
  auto under = optionsUnder(path);
  bool leaf = false;
  for (const auto& [id, o] : under)
    if (o.alias.size() == path.size()) configureOption(c.ruleOptions, id, o, v, joined(path)), leaf = true;
  if (leaf) return;
  if (!v.IsMap()) failAt(v, joined(path) + (path.size() == 1 ? ": must be a mapping" : " must be a mapping"));
  for (const auto& kv : v) {
    std::vector<std::string> next = path;
    next.push_back(kv.first.Scalar());
    if (optionsUnder(next).empty()) {
      std::vector<std::string> keys;
      for (const auto& [id, o] : under) {
        const std::string& key = o.alias[path.size()];
        if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
      }
      failAt(kv.first, "unknown key '" + joined(next) + "' (" + joinWith(keys, ", ") + ")");
    }
    parseAliases(kv.second, next, c);
  }
}

void parse(const YAML::Node& root, Config& c) {
  if (!root.IsMap()) failAt(root, "the configuration must be a mapping of keys");
  for (const auto& kv : root) {
    std::string key = kv.first.Scalar();
    const YAML::Node& v = kv.second;
    if (key == "rules") {
      if (!v.IsSequence()) failAt(v, "rules: must be a list of rule globs");
      std::vector<std::string> globs;
      for (const auto& g : v) {
        std::string glob = readScalar(g, "a rule glob");
        std::string bare = glob[0] == '-' ? glob.substr(1) : glob;
        bool matches = false;
        for (const auto& r : allRules()) matches |= ruleEnabled(r->info().id, {bare});
        if (!matches) failAt(g, "rule glob '" + glob + "' matches no rule (see 'ptoverify rules')");
        globs.push_back(glob);
      }
      if (!globs.empty() && !anyRuleEnabled(globs)) failAt(v, "rules: leaves no rule enabled (a gate that checks nothing)");
      c.rules = globs;
    } else if (key == "severity") {
      if (!v.IsMap()) failAt(v, "severity: must map rule ids to error, warning or note");
      for (const auto& s : v) {
        std::string id = s.first.Scalar();
        if (!isRule(id)) failAt(s.first, "unknown rule '" + id + "'");
        c.severity[id] = severityOf(s.second, "severity of " + id);
      }
    } else if (key == "arch") {
      std::string a = readScalar(v, "arch");
      if (a != "a2a3" && a != "a5") failAt(v, "arch must be a2a3 or a5, not '" + a + "'");
      c.arch = a;
    } else if (key == "fail-on") {
      c.failOn = severityOf(v, "fail-on");
    } else if (key == "solver") {
      if (!v.IsMap()) failAt(v, "solver: must be a mapping");
      for (const auto& s : v) {
        std::string k = s.first.Scalar();
        const std::string what = "solver." + k;
        // Milliseconds as the command line takes them: 0 .. 2^32-1, never a negative one wrapped.
        auto millis = [&]() {
          int64_t v = readInteger(s.second, what);
          if (v < 0 || v > UINT32_MAX) failAt(s.second, what + " must be between 0 and " + std::to_string(UINT32_MAX));
          return static_cast<unsigned>(v);
        };
        if (k == "timeout-ms") c.timeoutMs = millis();
        else if (k == "kernel-budget-ms") c.kernelBudgetMs = millis();
        else if (k == "cache-dir") c.cacheDir = readScalar(s.second, what);
        else if (k == "param-ranges") {
          if (!s.second.IsMap()) failAt(s.second, "param-ranges: must map parameter names to [lo, hi]");
          for (const auto& p : s.second) {
            if (!p.second.IsSequence() || p.second.size() != 2) failAt(p.second, "a parameter range is [lo, hi]");
            int64_t lo = readInteger(p.second[0], "lo"), hi = readInteger(p.second[1], "hi");
            if (lo > hi) failAt(p.second, "a parameter range needs lo <= hi");
            std::string name = p.first.Scalar();
            if (!name.empty() && name[0] == '%') name = name.substr(1);
            c.paramRanges[name] = {lo, hi};
          }
        } else {
          failAt(s.first, "unknown key 'solver." + k + "' (timeout-ms, kernel-budget-ms, cache-dir, param-ranges)");
        }
      }
    } else if (key == "options") {
      parseOptions(v, c);
    } else if (key == "host-read") {
      if (!v.IsSequence()) failAt(v, "host-read: must be a list of kernel parameter names");
      for (const auto& n : v) {
        std::string name = readScalar(n, "a host-read parameter");
        c.hostRead.insert(!name.empty() && name[0] == '%' ? name.substr(1) : name);
      }
    } else if (!optionsUnder({key}).empty()) {
      parseAliases(v, {key}, c);
    } else {
      std::vector<std::string> keys = {"rules", "severity", "arch", "fail-on", "solver", "options", "host-read"};
      for (const auto& [id, o] : optionsUnder({}))
        if (std::find(keys.begin(), keys.end(), o.alias[0]) == keys.end()) keys.push_back(o.alias[0]);
      failAt(kv.first, "unknown key '" + key + "' (" + joinWith(keys, ", ") + ")");
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
  } catch (const OptionError& e) {
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

namespace {
// An option's value as `config --dump` prints it, whatever style the file wrote it in: a list or
// map of names on one line, a table one entry a line. Returns whether it took one line.
bool emitValue(YAML::Emitter& e, const YAML::Node& n) {
  if (!n.IsSequence() && !n.IsMap()) {
    e << n;
    return true;
  }
  bool flat = true;
  for (const auto& item : n) flat &= n.IsSequence() ? item.IsScalar() : item.second.IsScalar();
  if (flat) e << YAML::Flow;
  if (n.IsSequence()) {
    e << YAML::BeginSeq;
    for (const auto& item : n) emitValue(e, item);
    e << YAML::EndSeq;
  } else {
    e << YAML::BeginMap;
    for (const auto& kv : n) {
      e << YAML::Key << kv.first.Scalar() << YAML::Value;
      emitValue(e, kv.second);
    }
    e << YAML::EndMap;
  }
  return flat;
}
}  // namespace

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
      const YAML::Node* value = &o.defaultFor(c.arch.value_or("a2a3"));
      if (configured != c.ruleOptions.end())
        if (auto it = configured->second.find(o.name); it != configured->second.end()) value = &it->second.yaml;
      e << YAML::Key << o.name << YAML::Value;
      // The help after a one-line value (`explain` has every option's).
      if (emitValue(e, *value)) e << YAML::Comment(o.help);
    }
    e << YAML::EndMap;
  }
  e << YAML::EndMap << YAML::EndMap;
  return std::string(e.c_str()) + "\n";
}

}  // namespace ptov
