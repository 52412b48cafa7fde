#pragma once
// A pull request's new findings. The inputs are checked again as they were before the change
// (BASE): the source root is mirrored in a temporary tree (directories made, files linked), the
// files the change touches are rebuilt from their hunks, and the same request runs there. A
// finding BASE has too (same input, same fingerprint) is not new; every other one is, whatever
// line it sits on, so deleting a fence cannot slip past because the finding is on the store.
#include <string>

#include "cli/changed_lines.h"
#include "cli/check.h"

namespace ptov {

// Which new findings are reported, as reviewdog's -filter-mode: on a line the change adds or next
// to one it deletes (a finding's path counts), inside a hunk with its context, in a changed file,
// or all of them.
enum class FilterMode { Added, DiffContext, File, NoFilter };
bool parseFilterMode(const std::string& name, FilterMode& mode);

struct Differential {
  const ChangedLines* change = nullptr;
  FilterMode mode = FilterMode::Added;
  std::string baseName;  // "main", or "the patch's old side": named in the hidden findings' reason
};

// Moves the findings BASE has as well to FileResult::hidden (HiddenFinding::atBase), drops the
// new ones the filter leaves out and returns how many those were; false with `error` when BASE
// cannot be rebuilt (the files on disk are not the diff's new side, a path is unsafe).
bool keepNewFindings(const Differential& diff, const CheckRequest& req, CheckResult& head, size_t& leftOut,
                     std::string& error);

}  // namespace ptov
