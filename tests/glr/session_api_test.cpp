// The Session API: committing token ids and bytes, EOS and special tokens, errors that leave the
// session unchanged and name the place, rollback and its bounded history, clones, can_continue,
// and texts far longer than any stack the parser could walk recursively.
#include <catch2/catch.hpp>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "glr/session.h"
#include "lib/core/error.h"
#include "tests/support/glr_session_support.h"

using namespace glrmask;
using glrmask::testing::compile_lark;
using glrmask::testing::load_session_fixture;
using glrmask::testing::tiny_vocabulary;

namespace {

// A small JSON-like language: enough structure for brackets, strings, numbers and keywords.
constexpr const char* kListGrammar = R"(
start: value
value: list | NUMBER | STRING | "true" | "false"
list: "[" [value ("," value)*] "]"
NUMBER: /-?[0-9]+(\.[0-9]+)?/
STRING: /"[a-z ]*"/
%ignore " "
)";

// Everything observable about a session that later commits could depend on.
struct Snapshot {
  std::uint64_t offset;
  std::vector<glr::StateId> head_states;
  lexer::LexerConfiguration lexer;
  bool accepting;
  bool finished;
  std::vector<bool> accepts;  // accepts_bytes for a fixed list of probes
  bool operator==(const Snapshot&) const = default;
};

const std::vector<std::string> kProbes = {"1",  "]", "[", ",", "\"", "a\"", "2]", " ",
                                          "tr", "e", ".", "5", "-",  "x",   "\"]"};

Snapshot snapshot(const glr::Session& session) {
  Snapshot s{session.byte_offset(), {}, session.lexer_configuration(), session.is_accepting(),
             session.is_finished(), {}};
  for (const auto& head : session.heads()) s.head_states.push_back(head->state());
  for (const std::string& probe : kProbes) s.accepts.push_back(session.accepts_bytes(probe));
  return s;
}

}  // namespace

TEST_CASE("commit and commit_bytes advance, and is_accepting follows the text") {
  glr::Session session(compile_lark(kListGrammar));
  CHECK_FALSE(session.is_accepting());
  session.commit_bytes("[1, ");
  CHECK(session.byte_offset() == 4);
  CHECK_FALSE(session.is_accepting());
  session.commit_bytes("2");
  CHECK_FALSE(session.is_accepting());
  session.commit_bytes("]");
  CHECK(session.is_accepting());
  session.commit_bytes("  ");
  CHECK(session.is_accepting());
  CHECK(session.num_commits() == 4);
  // A number is complete as soon as it could end: "7" is a sentence, "7." is not (yet).
  glr::Session number(compile_lark(kListGrammar));
  number.commit_bytes("7");
  CHECK(number.is_accepting());
  number.commit_bytes(".");
  CHECK_FALSE(number.is_accepting());
  number.commit_bytes("5");
  CHECK(number.is_accepting());
}

TEST_CASE("a rejected commit throws with the offset and the expected terminals, state unchanged") {
  glr::Session session(compile_lark(kListGrammar));
  session.commit_bytes("[1, 2");
  const Snapshot before = snapshot(session);
  // "[1, 2 3": the lexeme "3" (offset 6) can only be a NUMBER, which cannot follow a value.
  try {
    session.commit_bytes(" 3]");
    FAIL("accepted");
  } catch (const Error& error) {
    const std::string message = error.what();
    CHECK_THAT(message, Catch::Contains("syntax error at byte offset 6"));
    CHECK_THAT(message, Catch::Contains("\",\"") && Catch::Contains("\"]\""));
    CHECK_THAT(message, !Catch::Contains("NUMBER,"));
  }
  CHECK(snapshot(session) == before);
  // An unexpected complete token: "]" right after "[1, 2, " is offset 7.
  session.commit_bytes(", ");
  CHECK_THROWS_WITH(session.commit_bytes("]"),
                    Catch::Contains("byte offset 7") && Catch::Contains("unexpected \"]\""));
  // No terminal at all.
  CHECK_THROWS_WITH(session.commit_bytes("@"),
                    Catch::Contains("byte offset 7") && Catch::Contains("no terminal matches"));
  CHECK_FALSE(session.try_commit_bytes("]"));
  CHECK(session.try_commit_bytes("3]"));
  CHECK(session.is_accepting());
}

TEST_CASE("commit(TokenId): ordinary tokens, EOS only at a sentence end, specials refused") {
  const Vocabulary vocab = tiny_vocabulary({"[", "]", "1", ",", " 2", "x"});
  const TokenId eos = 6;
  const TokenId pad = 7;
  REQUIRE(vocab.eos() == eos);
  glr::Session session(compile_lark(kListGrammar), &vocab);
  session.commit(0);
  session.commit(2);
  CHECK_THROWS_WITH(session.commit(eos), Catch::Contains("byte offset 2 (end of input)") &&
                                             Catch::Contains("token id 6"));
  CHECK_THROWS_WITH(session.commit(pad),
                    Catch::Contains("token id 7") && Catch::Contains("special"));
  CHECK_THROWS_WITH(session.commit(5),
                    Catch::Contains("token id 5") && Catch::Contains("byte offset 2"));
  CHECK_THROWS_WITH(session.commit(99), Catch::Contains("token id 99"));
  session.commit(3);
  session.commit(4);
  session.commit(1);
  CHECK(session.is_accepting());
  CHECK(session.can_continue());  // spaces may still follow
  session.commit(eos);
  CHECK(session.is_finished());
  CHECK(session.is_accepting());
  CHECK_FALSE(session.can_continue());
  CHECK_FALSE(session.accepts_bytes(" "));
  CHECK_THROWS_WITH(session.commit(0), Catch::Contains("cannot commit token id 0: the text was "
                                                       "ended (EOS committed)"));
  CHECK_THROWS_WITH(session.commit(eos), Catch::Contains("cannot commit EOS (token id") &&
                                             Catch::Contains("EOS committed"));
  CHECK_THROWS_WITH(session.commit_bytes(" "), Catch::Contains("EOS committed"));
  session.rollback(1);  // EOS is a commit like any other
  CHECK_FALSE(session.is_finished());
  session.commit_bytes(" ");

  glr::Session without_vocabulary(compile_lark(kListGrammar));
  CHECK_THROWS_WITH(without_vocabulary.commit(0), Catch::Contains("no vocabulary"));
}

TEST_CASE("can_continue is false exactly when nothing but the end can follow") {
  glr::Session session(compile_lark("start: \"a\" \"b\"?\n"));
  CHECK(session.can_continue());
  session.commit_bytes("a");
  CHECK(session.is_accepting());
  CHECK(session.can_continue());
  session.commit_bytes("b");
  CHECK(session.is_accepting());
  CHECK_FALSE(session.can_continue());
  CHECK_FALSE(session.accepts_bytes(" "));
}

TEST_CASE("rollback restores the exact state, and recommitting gives the same behaviour") {
  glr::Session session(compile_lark(kListGrammar));
  const std::vector<std::string> pieces = {"[",  "1", ",", " \"a", " b\"", ",", "[",  "tr",
                                           "ue", "]", ",", "-",    "3",    ".", "25", "]"};
  std::vector<Snapshot> seen{snapshot(session)};
  for (const std::string& piece : pieces) {
    session.commit_bytes(piece);
    seen.push_back(snapshot(session));
  }
  CHECK(session.is_accepting());
  for (std::size_t back : {1u, 3u, 7u, 16u}) {
    INFO("rollback " << back);
    glr::Session copy = session.clone();
    copy.rollback(back);
    CHECK(snapshot(copy) == seen[pieces.size() - back]);
    for (std::size_t i = pieces.size() - back; i < pieces.size(); ++i) {
      copy.commit_bytes(pieces[i]);
      CHECK(snapshot(copy) == seen[i + 1]);
    }
  }
  CHECK(snapshot(session) == seen.back());  // clones never touched the original
  CHECK_THROWS_WITH(session.rollback(17), Catch::Contains("cannot roll back 17"));
}

TEST_CASE("history is bounded by max_rollback and stays correct across trims") {
  glr::Session session(compile_lark(kListGrammar), nullptr, {.max_rollback = 4});
  session.commit_bytes("[");
  std::vector<Snapshot> seen{snapshot(session)};
  for (int i = 0; i < 30; ++i) {
    session.commit_bytes(i == 0 ? "1" : ",1");
    seen.push_back(snapshot(session));
    CHECK(session.rollback_capacity() >= std::min<std::size_t>(4, session.num_commits()));
    CHECK(session.rollback_capacity() <= 8);
  }
  const std::size_t capacity = session.rollback_capacity();
  CHECK_THROWS_WITH(session.rollback(capacity + 1), Catch::Contains("only the last"));
  session.rollback(4);
  CHECK(snapshot(session) == seen[seen.size() - 5]);

  glr::Session no_history(compile_lark(kListGrammar), nullptr, {.max_rollback = 0});
  no_history.commit_bytes("[");
  CHECK(no_history.rollback_capacity() == 0);
  CHECK_THROWS(no_history.rollback(1));
}

TEST_CASE("clones evolve independently") {
  glr::Session a(compile_lark(kListGrammar));
  a.commit_bytes("[1");
  glr::Session b = a.clone();
  a.commit_bytes("]");
  b.commit_bytes(", 2");
  CHECK(a.is_accepting());
  CHECK_FALSE(b.is_accepting());
  CHECK(a.byte_offset() == 3);
  CHECK(b.byte_offset() == 5);
  b.rollback(1);
  CHECK(snapshot(b).offset == 2);
}

TEST_CASE("ambiguity: one head, exponentially many stacks in a linear number of nodes") {
  // e: e "+" e | NUMBER. After "1+1+...+1+" (n terms) every viable prefix is e "+" (e "+")^k with
  // the terms split into k+1 contiguous blocks: 2^(n-1) (stack, segmentation) pairs, i.e. paths
  // from the head down. All share the state after "+" on top: one head. A GSS node is a state at
  // an input position, and the states on these stacks are the start state, two states after an e
  // (at the end of a NUMBER) and the state after "+": at most 3n + 1 nodes.
  glr::Session session(load_session_fixture("ambiguous_sum.lark"));
  std::map<const glr::GssNode*, std::uint64_t> paths;
  std::function<std::uint64_t(const glr::GssNode*)> count = [&](const glr::GssNode* node) {
    if (node->below().empty()) return std::uint64_t{1};
    if (auto it = paths.find(node); it != paths.end()) return it->second;
    std::uint64_t total = 0;
    for (const glr::GssNode* below : node->below()) total += count(below);
    return paths[node] = total;
  };
  for (std::uint64_t n = 1; n <= 60; ++n) {
    session.commit_bytes("1+");
    REQUIRE(session.heads().size() == 1);
    paths.clear();
    REQUIRE(count(session.heads().front().get()) == std::uint64_t{1} << (n - 1));
    CHECK(paths.size() + 1 <= 3 * n + 1);  // memoized inner nodes plus the bottom
  }
  session.commit_bytes("1");
  CHECK(session.is_accepting());
}

TEST_CASE("very deep stacks are built and freed without recursion") {
  // 300k nested brackets: a recursive walk or destructor over the GSS would overflow the stack.
  auto grammar = compile_lark("start: s\ns: \"(\" s \")\" | \"x\"\n");
  {
    glr::Session session(grammar, nullptr, {.max_rollback = 8});
    const std::string open(300000, '(');
    for (std::size_t i = 0; i < open.size(); i += 1000) session.commit_bytes(open.substr(i, 1000));
    session.commit_bytes("x");
    session.commit_bytes(")))");
    CHECK_FALSE(session.is_accepting());
    CHECK(session.heads().size() == 1);
  }
  SUCCEED("destroyed");
}

TEST_CASE("a token may end in the middle of a lexeme and the next may finish it") {
  glr::Session session(compile_lark(kListGrammar));
  for (const char* piece : {"[", "\"ab", " c", "\"", ",", "1", "2", ".", "0", "]"})
    session.commit_bytes(piece);
  CHECK(session.is_accepting());
  // An unfinished string is viable but not a sentence.
  glr::Session open(compile_lark(kListGrammar));
  open.commit_bytes("[\"ab");
  CHECK_FALSE(open.is_accepting());
  CHECK_THROWS_WITH(open.commit_end(), Catch::Contains("byte offset 4 (end of input)"));
}
