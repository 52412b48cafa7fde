// The --format names and the dispatch to each writer.
#include "cli/report/formats.h"

namespace ptov {

const std::vector<std::string>& reportFormats() {
  static const std::vector<std::string> f = {"text", "json", "sarif", "rdjson", "rdjsonl", "junit", "github", "gitcode", "markdown", "html"};
  return f;
}

bool writeReport(const std::string& format, const CheckResult& result, std::ostream& out, const ReportOptions& o) {
  if (format == "json") writeJson(result, out, o);
  else if (format == "sarif") writeSarif(result, out, o);
  else if (format == "rdjson") writeRdjson(result, out, false);
  else if (format == "rdjsonl") writeRdjson(result, out, true);
  else if (format == "junit") writeJunit(result, out, o);
  else if (format == "github") writeGithub(result, out, o);
  else if (format == "gitcode") writeGitcode(result, out, o);
  else if (format == "markdown") writeMarkdown(result, out, o);
  else if (format == "html") writeHtml(result, out, o);
  else return false;
  return true;
}

}  // namespace ptov
