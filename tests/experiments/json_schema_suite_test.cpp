// The suite runner's json.dumps spellings (experiments/support/json_schema_suite.h) against what
// Python 3.11's json.dumps writes for the same values (recorded when the cases were written).
#include "experiments/support/json_schema_suite.h"

#include <catch2/catch.hpp>
#include <string>

#include "lib/json_schema/value.h"

using namespace glrmask;
using experiments::python_json_dumps;

namespace {

std::string dumps(const std::string& json, bool ensure_ascii = true, bool indented = false) {
  return python_json_dumps(json_schema::parse_json(json, "t.json"), ensure_ascii, indented);
}

}  // namespace

TEST_CASE("json.dumps spellings: floats as Python's repr writes them") {
  CHECK(dumps("1e308") == "1e+308");
  CHECK(dumps("1.0") == "1.0");
  CHECK(dumps("0.0001") == "0.0001");
  CHECK(dumps("0.00001") == "1e-05");
  CHECK(dumps("1e16") == "1e+16");
  CHECK(dumps("1234567890123456.0") == "1234567890123456.0");
  CHECK(dumps("123456789012345680.0") == "1.2345678901234568e+17");
  CHECK(dumps("-0.0") == "-0.0");
  CHECK(dumps("2.5e-7") == "2.5e-07");
  CHECK(dumps("9.727837981879871e+26") == "9.727837981879871e+26");
  CHECK(dumps("1e2") == "100.0");
  // Integers are Python ints: every digit kept, a negative zero read as 0.
  CHECK(dumps("12345678910111213141516171819202122232425262728293031") ==
        "12345678910111213141516171819202122232425262728293031");
  CHECK(dumps("-0") == "0");
}

TEST_CASE("json.dumps spellings: ensure_ascii and indent=2") {
  const std::string value =
      R"({"a": [1, {"b": "\u03bc\ud83d\udca9\u007f\u0001\""}], "c": {}, "d": []})";
  CHECK(dumps(value) ==
        R"({"a": [1, {"b": "\u03bc\ud83d\udca9\u007f\u0001\""}], "c": {}, "d": []})");
  CHECK(dumps(value, false) ==
        "{\"a\": [1, {\"b\": \"\xce\xbc\xf0\x9f\x92\xa9\x7f\\u0001\\\"\"}], "
        "\"c\": {}, \"d\": []}");
  CHECK(dumps(value, true, true) ==
        "{\n  \"a\": [\n    1,\n    {\n      \"b\": "
        "\"\\u03bc\\ud83d\\udca9\\u007f\\u0001\\\"\"\n    }\n  ],\n"
        "  \"c\": {},\n  \"d\": []\n}");
}
