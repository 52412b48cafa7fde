#include <doctest/doctest.h>

#include "analyzer/mlir/parser.h"

using namespace ptov;
using namespace ptov::mlir;

namespace {
const Op& onlyFunc(const ParsedFile& f) {
  const Op& module = f.splits.at(0).ops.at(0);
  return module.regions.at(0).blocks.at(0).ops.at(0);
}
}  // namespace

TEST_CASE("lexer: nested types, attributes, strings, value ids and split markers") {
  std::deque<LexError> errs;
  auto toks = tokenize("%a#1 = \"x.y\"() : !pto.tile_buf<loc=vec, dtype=f32, x=<1>>\n// -----\n#map = dense<\"0x01\">",
                       errs);
  CHECK(errs.empty());
  CHECK(toks[0].kind == Tok::ValueId);
  CHECK(toks[0].text == "%a#1");
  CHECK(toks[2].kind == Tok::String);
  bool sawType = false, sawSplit = false, sawDense = false;
  for (const auto& t : toks) {
    sawType |= t.kind == Tok::Type && t.text == "!pto.tile_buf<loc=vec, dtype=f32, x=<1>>";
    sawSplit |= t.kind == Tok::Split;
    sawDense |= t.kind == Tok::Attr && t.text == "dense<\"0x01\">";
  }
  CHECK(sawType);
  CHECK(sawSplit);
  CHECK(sawDense);
}

TEST_CASE("reader: module, function args, attributes, pretty ops with line:col") {
  ParsedFile f = parseText(R"(module attributes {pto.target_arch = "a2a3"} {
  func.func @k(%arg0: !pto.ptr<f32>, %n: i32) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {
    %c0 = arith.constant 0 : index
    pto.barrier <PIPE_ALL>
    pto.set_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.cmo.cacheinvalid all #pto.address_space<gm>
    return
  }
})",
                           "t.pto");
  REQUIRE_FALSE(f.hasErrors());
  const Op& module = f.splits[0].ops[0];
  CHECK(module.name == "module");
  CHECK(module.attr("pto.target_arch") == "\"a2a3\"");
  const Op& fn = onlyFunc(f);
  CHECK(fn.name == "func.func");
  CHECK(fn.symbol == "k");
  REQUIRE(fn.entryArgs.size() == 2);
  CHECK(fn.entryArgs[0].name == "%arg0");
  CHECK(fn.entryArgs[0].type == "!pto.ptr<f32>");
  CHECK(fn.entryArgs[1].type == "i32");
  CHECK(fn.attr("pto.kernel_kind") == "#pto.kernel_kind<vector>");
  const auto& ops = fn.regions[0].blocks[0].ops;
  REQUIRE(ops.size() == 5);
  CHECK(ops[0].results == std::vector<std::string>{"%c0"});
  CHECK(ops[1].name == "pto.barrier");
  CHECK(ops[1].loc.line == 4);
  CHECK(ops[1].loc.col == 5);
  CHECK(ops[3].hasWord("all"));
  CHECK(ops[4].name == "return");
}

TEST_CASE("reader: ops spanning lines, trailing attr dict on its own line, keywords") {
  ParsedFile f = parseText(R"(module {
  func.func @k(
      %p: !pto.ptr<i32>,
      %s: !pto.ptr<i32>)
      attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {
    %c1 = arith.constant 1 : index
    %v = pto.make_tensor_view %s,
      shape = [%c1], strides = [%c1] : !pto.tensor_view<1xi32>
    pto.comm.tnotify(%v, %c1 : !pto.tensor_view<1xi32>, index)
        {notifyOp = #pto<notify_op set>}
    %t = pto.alloc_tile addr = %c1 valid_row = %c1 : !pto.tile_buf<vec, 16x16xf32>
    return
  }
})",
                           "t.pto");
  REQUIRE_FALSE(f.hasErrors());
  const Op& fn = onlyFunc(f);
  CHECK(fn.entryArgs.size() == 2);
  const auto& ops = fn.regions[0].blocks[0].ops;
  REQUIRE(ops.size() == 5);
  CHECK(ops[1].name == "pto.make_tensor_view");
  CHECK(ops[1].keywords.at("shape") == "[ %c1 ]");
  CHECK(ops[2].name == "pto.comm.tnotify");
  CHECK(ops[2].attrs.at("notifyOp") == "#pto<notify_op set>");
  CHECK(ops[2].operands == std::vector<std::string>{"%v", "%c1"});
  CHECK(ops[2].types == std::vector<std::string_view>{"!pto.tensor_view<1xi32>", "index"});
  CHECK(ops[3].keywords.at("addr") == "%c1");
}

TEST_CASE("reader: an attribute dict whose entries start on the next line is no region") {
  ParsedFile f = parseText(R"(module {
  func.func @k(%gm: !pto.ptr<f32>, %b: i32) {
    %pipe = pto.initialize_l2g2l_pipe {
      dir_mask = 1,
      slot_size = 32768
    }(%gm : !pto.ptr<f32>, %b : i32) -> !pto.pipe
    scope.scope : () -> () {
      scope.return
    } {
      no_inline,
      hivm.preload_num = 1 : i32
    }
    return
  }
})",
                           "t.pto");
  REQUIRE_FALSE(f.hasErrors());
  const auto& ops = onlyFunc(f).regions[0].blocks[0].ops;
  REQUIRE(ops.size() == 3);
  CHECK(ops[0].name == "pto.initialize_l2g2l_pipe");
  CHECK(ops[0].regions.empty());
  CHECK(ops[0].attrs.at("slot_size") == "32768");
  CHECK(ops[1].name == "scope.scope");
  REQUIRE(ops[1].regions.size() == 1);  // the body; the dict after it is attributes
  CHECK(ops[1].attrs.count("no_inline") == 1);
  CHECK(ops[2].name == "return");
}

TEST_CASE("reader: scf regions with iter_args, else, while/do, generic form, multi-block cf") {
  ParsedFile f = parseText(R"(func.func @k(%n: index, %c: i1) {
  %c0 = arith.constant 0 : index
  %r = scf.for %i = %c0 to %n step %c0 iter_args(%acc = %c0) -> (index) {
    %x = scf.if %c -> (index) {
      scf.yield %acc : index
    } else {
      scf.yield %i : index
    }
    scf.yield %x : index
  }
  %w = scf.while (%a = %c0) : (index) -> index {
    scf.condition(%c) %a : index
  } do {
  ^bb0(%b: index):
    scf.yield %b : index
  }
  "test.generic"(%n) ({
    "test.inner"() : () -> ()
  }) {flag = true} : (index) -> ()
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  cf.br ^bb2
^bb2:
  return
}
)",
                           "t.mlir");
  for (const auto& d : f.diagnostics) INFO(d.loc.line << ":" << d.loc.col << " " << d.message);
  REQUIRE_FALSE(f.hasErrors());
  const Op& fn = f.splits[0].ops[0];
  REQUIRE(fn.regions.size() == 1);
  const Region& body = fn.regions[0];
  REQUIRE(body.blocks.size() == 3);
  CHECK(body.blocks[1].label == "^bb1");
  const auto& ops = body.blocks[0].ops;
  CHECK(ops[1].name == "scf.for");
  CHECK(ops[1].regions.size() == 1);
  CHECK(ops[1].regions[0].blocks[0].ops[0].regions.size() == 2);  // then + else
  CHECK(ops[2].name == "scf.while");
  CHECK(ops[2].regions.size() == 2);
  CHECK(ops[3].name == "test.generic");
  CHECK(ops[3].regions.size() == 1);
  CHECK(ops[3].attrs.at("flag") == "true");
  CHECK(ops[4].successors == std::vector<std::string>{"^bb1", "^bb2"});
}

TEST_CASE("reader: syntax errors give file:line:col, skip to the next function or split") {
  ParsedFile f = parseText(R"(module {
  func.func @bad(%a: i32) {
    %x = arith.addi %a, %a : i32)
    return
  }
  func.func @good(%a: i32) {
    return
  }
}
// -----
func.func @after_split() {
  return
}
)",
                           "bad.pto");
  REQUIRE(f.hasErrors());
  CHECK(f.diagnostics[0].loc.file == "bad.pto");
  CHECK(f.diagnostics[0].loc.line == 3);
  CHECK(f.diagnostics[0].loc.col == 33);
  REQUIRE(f.splits.size() == 2);
  bool sawGood = false;
  for (const auto& op : f.splits[0].ops[0].regions[0].blocks[0].ops) sawGood |= op.symbol == "good";
  CHECK(sawGood);
  CHECK(f.splits[1].ops.at(0).symbol == "after_split");
}

TEST_CASE("reader: unterminated region and string are errors, not hangs") {
  ParsedFile a = parseText("func.func @k() {\n  %x = arith.constant 1 : i32\n", "a.pto");
  CHECK(a.hasErrors());
  ParsedFile b = parseText("func.func @k() {\n  %x = \"unterminated\n}\n", "b.pto");
  CHECK(b.hasErrors());
  ParsedFile c = parseText(")))]]]}}}", "c.pto");
  CHECK(c.hasErrors());
}

TEST_CASE("reader: pathological nesting is an error, not a stack overflow") {
  std::string deep;
  for (int i = 0; i < 5000; ++i) deep += "scf.execute_region {\n";
  ParsedFile f = parseText("func.func @k() {\n" + deep, "deep.pto");
  CHECK(f.hasErrors());
}
