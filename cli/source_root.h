#pragma once
// The source root: the directory that SARIF URIs and baseline keys are relative to, so that the
// same finding has the same path whatever directory the tool was run from (GitHub reopens an
// alert whose path changes). `--source-root DIR`, else the git top level of the first input,
// else the current directory.
#include <string>
#include <vector>

namespace ptov {

// Absolute, normalised (no ".", "..", "//"): the directory to use.
std::string findSourceRoot(const std::vector<std::string>& inputs, const std::string& given);

// `path` relative to `root` ("a/b.pto"), or its absolute normalised path when it lies outside.
// `inside` says which.
std::string pathUnderRoot(const std::string& path, const std::string& root, bool* inside = nullptr);

// SARIF artifact URI: relative and percent-encoded under the root, else an absolute file:// URI.
std::string artifactUri(const std::string& path, const std::string& root, bool* inside = nullptr);
// file:///abs/dir/ for SARIF's originalUriBaseIds.
std::string directoryUri(const std::string& dir);

}  // namespace ptov
