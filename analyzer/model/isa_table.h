#pragma once
// One table of PTO-ISA tile instructions, read by every front end: `pto.tmov` in a .pto file and
// `TMOV(...)` in generated C++ are the same instruction, with the same kind, pipe and operand
// roles. Rules never see this table; they read the facts it puts into the model.
#include <string>
#include <vector>

#include "analyzer/model/model.h"

namespace ptov::ptoisa {

// How an instruction's pipe is decided.
enum class PipeRule {
  Fixed,  // always `pipes`
  Move,   // by source and destination space (TMOV, TEXTRACT, TINSERT)
  Store,  // FIX when the source is an accumulator (L0C), else MTE3
};

struct Instr {
  const char* name;  // upper-case mnemonic: TMOV
  OpKind kind;
  PipeRule rule;
  std::vector<Pipe> pipes;  // Fixed: the pipes; Move / Store: the default when spaces are unknown
  // Operand roles in the C++ call order: the operand written (-1: none; every other tile or GM
  // operand is read). .pto ops name their roles with ins(...) / outs(...) groups instead.
  int written = 0;
  bool gmDestination = false;  // the written operand is GM (TSTORE), not a tile
};

// The instruction for a mnemonic ("TMOV", "tmov", "pto.tmov"), or null when the table does not
// list it.
const Instr* lookup(const std::string& name);

// Every mnemonic the table lists (the C++ prelude declares each of them).
std::vector<std::string> mnemonics();

// Does the name look like a tile instruction (T followed by upper-case letters, digits, `_`)?
bool looksLikeTileOp(const std::string& name);

// The conservative facts of a tile instruction the table does not know: a vector computation
// whose first operand is written and the other tile operands read. Callers count its uses.
const Instr& unknownTileOp();

// The pipes the instruction runs on, given the spaces of what it reads and writes ("" unknown).
std::vector<Pipe> pipesFor(const Instr& in, const std::string& srcSpace, const std::string& dstSpace);

}  // namespace ptov::ptoisa
