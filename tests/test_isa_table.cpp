// The PTO-ISA table both front ends read (analyzer/model/isa_table).
#include <doctest/doctest.h>

#include "analyzer/model/isa_table.h"
#include "analyzer/pto/op_table.h"

using namespace ptov;

TEST_CASE("isa table: one entry per instruction, whatever the front end's spelling") {
  const ptoisa::Instr* a = ptoisa::lookup("TMATMUL_ACC");
  REQUIRE(a);
  CHECK(a == ptoisa::lookup("pto.tmatmul.acc"));
  CHECK(a == ptoisa::lookup("tmatmul_acc"));
  CHECK(a->pipes == std::vector<Pipe>{Pipe::M});
  CHECK(ptoisa::lookup("TNOSUCHOP") == nullptr);
  CHECK(ptoisa::looksLikeTileOp("TROWEXPANDMUL"));
  CHECK_FALSE(ptoisa::looksLikeTileOp("Tile"));
}

TEST_CASE("isa table: a move runs on the pipe of its direction") {
  const ptoisa::Instr& mov = *ptoisa::lookup("TMOV");
  CHECK(ptoisa::pipesFor(mov, "l1", "l0a") == std::vector<Pipe>{Pipe::MTE1});
  CHECK(ptoisa::pipesFor(mov, "l1", "bias") == std::vector<Pipe>{Pipe::MTE1});
  CHECK(ptoisa::pipesFor(mov, "l0c", "l1") == std::vector<Pipe>{Pipe::FIX});
  CHECK(ptoisa::pipesFor(mov, "ub", "ub") == std::vector<Pipe>{Pipe::V});
  CHECK(ptoisa::pipesFor(*ptoisa::lookup("TINSERT"), "l0c", "l1") == std::vector<Pipe>{Pipe::FIX});
  const ptoisa::Instr& store = *ptoisa::lookup("TSTORE");
  CHECK(ptoisa::pipesFor(store, "l0c", "gm") == std::vector<Pipe>{Pipe::FIX});
  CHECK(ptoisa::pipesFor(store, "ub", "gm") == std::vector<Pipe>{Pipe::MTE3});
}

TEST_CASE("isa table: the .pto op table takes tile instructions from it") {
  pto::OpFacts f = pto::lookupOp("pto.tmatmul.bias");
  CHECK(f.known);
  CHECK(f.kind == OpKind::Compute);
  CHECK(f.pipes == std::vector<Pipe>{Pipe::M});
  CHECK(pto::lookupOp("pto.tload").kind == OpKind::Load);
  // A tile op neither table knows: a vector computation, marked as a guess.
  pto::OpFacts guess = pto::lookupOp("pto.tfrobnicate");
  CHECK_FALSE(guess.known);
  CHECK(guess.pipes == std::vector<Pipe>{Pipe::V});
}
