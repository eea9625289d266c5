// The string formats of lib/json_schema/formats.h through the whole compiler: a schema
// {"type": "string", "format": F} accepts exactly the values of F (the exact ones) or a subset
// (regex, no leap second in time). Verdicts follow the RFCs each format names (RFC 3986 for uri,
// RFC 3987 for iri, RFC 4291 and 3986 for ipv6, RFC 6570 with erratum 6937 for uri-template,
// RFC 6901 for json-pointer, RFC 3339 for duration and time, ECMA-262 for regex); values are
// written as JSON strings, non-ASCII ones both raw and escaped.
#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

#include "glr/compiled_grammar.h"
#include "glr/session.h"
#include "lib/json_schema/compiler.h"
#include "lib/json_schema/formats.h"

using namespace glrmask;

namespace {

void check_format_verdicts(const std::string& format,
                           const std::vector<std::pair<std::string, bool>>& verdicts) {
  const auto grammar = glr::CompiledGrammar::compile(json_schema::compile_json_schema_text(
      R"({"type": "string", "format": ")" + format + "\"}", "format.json", {}));
  for (const auto& [instance, valid] : verdicts) {
    glr::Session session(grammar);
    const bool accepted = session.try_commit_bytes(instance) && session.is_accepting();
    INFO("format " << format << ", instance " << instance);
    CHECK(accepted == valid);
  }
}

}  // namespace

TEST_CASE("format ipv6 is RFC 4291 text without zone or brackets") {
  check_format_verdicts("ipv6", {{R"("::1")", true},
                                 {R"("::")", true},
                                 {R"("1:2:3:4:5:6:7:8")", true},
                                 {R"("1:d6::42")", true},
                                 {R"("::ffff:192.168.0.1")", true},
                                 {R"("1000:1000:1000:1000:1000:1000:255.255.255.255")", true},
                                 {R"("12345::")", false},
                                 {R"("1::d6::42")", false},
                                 {R"("1:2:3:4:5:6:7")", false},
                                 {R"("1:2:3:4:5:6:7:8:9")", false},
                                 {R"(":2:3:4:5:6:7:8")", false},
                                 {R"("1:2::192.168.256.1")", false},
                                 {R"("::ffff:192.168.0.01")", false},
                                 {R"("fe80::a%eth1")", false},
                                 {R"("[::1]")", false}});
}

TEST_CASE("format uri and uri-reference follow RFC 3986") {
  check_format_verdicts("uri", {{R"("http://foo.bar/?baz=qux#quux")", true},
                                {R"("http:\/\/foo.bar\/")", true},
                                {R"("ldap://[2001:db8::7]/c=GB?objectClass?one")", true},
                                {R"("http://-.~_!$&'()*+,;=:%40:80%2f::::::@example.com")", true},
                                {R"("urn:oasis:names:specification:docbook:dtd:xml:4.1.2")", true},
                                {R"("http://[v1.fe]/")", true},
                                {R"("http://999.999.999.999/")", true},
                                {R"("//foo.bar/")", false},
                                {R"("abc")", false},
                                {R"("http://example.com:abc/path")", false},
                                {R"("https://[@example.org/test.txt")", false},
                                {R"("http://example.com/%6G")", false},
                                {R"("https://example.org/foo bar.txt")", false},
                                {"\"https://example.org/foobar\xc2\xae.txt\"", false},
                                {R"("http://[::ffff:01.2.3.4]")", false},
                                {R"("http:/[::1]")", false}});
  check_format_verdicts(
      "uri-reference",
      {{R"("")", true},
       {R"("//")", true},
       {R"("?query=1")", true},
       {R"("#fragment")", true},
       {R"("./this:that")", true},
       {R"("1:b")", false},  // schemes start with a letter, a relative path has no colon first
       {R"("/[::1]")", false},
       {R"("//a@b@example.com/")", false},
       {R"("#frag\\ment")", false}});
}

TEST_CASE("format iri and iri-reference add the RFC 3987 characters") {
  // "http://ƒøø.ßår/𐌀" raw, then with the path's character as a surrogate pair.
  check_format_verdicts(
      "iri", {{"\"http://\xc6\x92\xc3\xb8\xc3\xb8.\xc3\x9f\xc3\xa5r/\xf0\x90\x8c\x80\"", true},
              {R"("http://\u0192\u00f8\u00f8.com/\ud800\udf00")", true},
              {R"("http://a/?q=\udb80\udc00")", true},  // U+F0000, iprivate
              {R"("http://a/\udb80\udc00")", false},    // not in a path
              {R"("http://a/\u00a0")", true},
              {R"("http://a/\u0080")", false},  // a C1 control
              {R"("http://[2001:db8::1]")", true},
              {R"("http://2001:0db8:85a3:0000:0000:8a2e:0370:7334")", false},
              {R"("\u00e2\u03c0\u03c0")", false}});
  check_format_verdicts("iri-reference", {{R"("\u00e2\u03c0\u03c0")", true},
                                          {R"("#\u0192r\u00e4gm\u00eant")", true},
                                          {R"("#\u0192r\u00e4g\\m\u00eant")", false}});
}

TEST_CASE("format uri-template is RFC 6570 level 4") {
  check_format_verdicts("uri-template",
                        {{R"("http://example.com/dictionary/{term:1}/{term}")", true},
                         {R"("")", true},
                         {R"("{+var}{#x,y}{/a.b*}{?v:1000}")", true},
                         {R"("a'b")", true},
                         {R"("{%41}")", true},
                         {R"("{}")", false},
                         {R"("{a,,b}")", false},
                         {R"("{v:0}")", false},
                         {R"("{v:10000}")", false},
                         {R"("{a..b}")", false},
                         {R"("foo}bar")", false},
                         {R"("a b")", false},
                         {R"("{var=def}")", false}});
}

TEST_CASE("format json-pointer and relative-json-pointer follow RFC 6901") {
  check_format_verdicts("json-pointer", {{R"("")", true},
                                         {R"("/")", true},
                                         {R"("/foo/bar~0/baz~1/%a")", true},
                                         {R"("/foo\u0000bar\n")", true},
                                         {R"("/k\"l")", true},
                                         {R"("/~2")", false},
                                         {R"("/foo/bar~")", false},
                                         {R"("#/a")", false},
                                         {R"("a")", false}});
  check_format_verdicts("relative-json-pointer", {{R"("0#")", true},
                                                  {R"("2/0/baz/1/zip")", true},
                                                  {R"("100")", true},
                                                  {R"("0//")", true},
                                                  {R"("/foo")", false},
                                                  {R"("01/a")", false},
                                                  {R"("-1/a")", false},
                                                  {R"("0##")", false},
                                                  {R"("1#/a")", false},
                                                  {R"("")", false}});
}

TEST_CASE("format duration is RFC 3339 appendix A") {
  check_format_verdicts("duration", {{R"("P4DT12H30M5S")", true},
                                     {R"("P1Y2M")", true},
                                     {R"("P2W")", true},
                                     {R"("PT36H")", true},
                                     {R"("P01D")", true},
                                     {R"("P")", false},
                                     {R"("PT")", false},
                                     {R"("P1YT")", false},
                                     {R"("P1Y2D")", false},
                                     {R"("PT1H2S")", false},
                                     {R"("P1Y2W")", false},
                                     {R"("PT0.5S")", false},
                                     {R"("P1D2H")", false}});
}

TEST_CASE("format time is RFC 3339 without the leap second") {
  check_format_verdicts("time", {{R"("08:30:06z")", true},
                                 {R"("23:20:50.52Z")", true},
                                 {R"("12:34:56-00:00")", true},
                                 {R"("24:00:00Z")", false},
                                 {R"("00:60:00Z")", false},
                                 {R"("12:00:00")", false},
                                 {R"("22:59:60Z")", false},
                                 // Valid, outside the subset: the leap second.
                                 {R"("23:59:60Z")", false}});
  CHECK_FALSE(json_schema::format_regex_is_exact("time"));
}

TEST_CASE("format regex accepts a subset of ECMA-262 patterns and no invalid one") {
  // The last case is valid but nests five groups, one more than the subset takes.
  check_format_verdicts("regex", {{R"j("([abc])+\\s+$")j", true},
                                  {R"j("")j", true},
                                  {R"j("^[a-zA-Z0-9_-]{1,64}$")j", true},
                                  {R"j("(?:a|b(?<n>c))*?(?=x)\\u00e9\\p{Lu}")j", true},
                                  {R"j("((((a))))")j", true},
                                  {R"j("a{2,5}b{3}c{1,}")j", true},
                                  {R"j("[^\\]\\-]")j", true},
                                  {R"j("^(abc]")j", false},
                                  {R"j("[")j", false},
                                  {R"j("(")j", false},
                                  {R"j("a)")j", false},
                                  {R"j("*a")j", false},
                                  {R"j("a**")j", false},
                                  {R"j("[z-a]")j", false},
                                  {R"j("a{5,2}")j", false},
                                  {R"j("(?<=a)*")j", false},
                                  {R"j("\\")j", false},
                                  {R"j("(((((a)))))")j", false}});
  CHECK_FALSE(json_schema::format_regex_is_exact("regex"));
}

TEST_CASE("format hostname and email are sound subsets") {
  const std::string label63(63, 'a');
  check_format_verdicts(
      "hostname", {{R"("www.example.com")", true},
                   {R"("a--b.com")", true},
                   {"\"" + label63 + ".com\"", true},
                   {"\"" + label63 + "a.com\"", false},
                   {R"("-hostname")", false},
                   {R"("hostname-")", false},
                   {R"("host_name")", false},
                   {R"("example.")", false},
                   {R"(".example")", false},
                   {R"("")", false},
                   // 4 x 63 characters and 3 dots: 255 > 253.
                   {"\"" + label63 + "." + label63 + "." + label63 + "." + label63 + "\"", false},
                   // An A-label is valid only when its Punycode is: refused.
                   {R"("xn--nw2a.com")", false}});
  check_format_verdicts("email", {{R"("joe.bloggs@example.com")", true},
                                  {R"("~test@example.com")", true},
                                  {R"("\"joe..bloggs\"@example.com")", true},
                                  {R"("joe.bloggs@[127.0.0.1]")", true},
                                  {R"("joe.bloggs@[IPv6:::1]")", true},
                                  {R"(".test@example.com")", false},
                                  {R"("test.@example.com")", false},
                                  {R"("te..st@example.com")", false},
                                  {R"("joe.bloggs@invalid=domain.com")", false},
                                  {R"("joe.bloggs@[127.0.0.300]")", false},
                                  {R"("joe bloggs@example.com")", false},
                                  {R"("@example.com")", false}});
}

TEST_CASE("integral numbers written with an exponent") {
  // Every integer is a multiple of 0.5, and Python writes 10^308 as 1e+308.
  const auto accepts = [](const std::string& schema, const std::string& text) {
    glr::Session session(glr::CompiledGrammar::compile(
        json_schema::compile_json_schema_text(schema, "number.json", {})));
    return session.try_commit_bytes(text) && session.is_accepting();
  };
  const std::string integer_half = R"({"type": "integer", "multipleOf": 0.5})";
  CHECK(accepts(integer_half, "1e+308"));
  CHECK(accepts(integer_half, "1.5e1"));
  CHECK(accepts(integer_half, "7"));
  CHECK_FALSE(accepts(integer_half, "1.25e1"));  // 12.5
  CHECK_FALSE(accepts(integer_half, "7.5"));
  // multipleOf 1.5 = 3/2 on integers is multipleOf 3.
  CHECK(accepts(R"({"type": "integer", "multipleOf": 1.5})", "9"));
  CHECK_FALSE(accepts(R"({"type": "integer", "multipleOf": 1.5})", "4"));
  const std::string number_half = R"({"type": "number", "multipleOf": 0.5})";
  CHECK(accepts(number_half, "1e+308"));
  CHECK(accepts(number_half, "2.5"));
  CHECK_FALSE(accepts(number_half, "2.25"));
  // Draft 4 integers are written without fraction or exponent.
  CHECK_FALSE(accepts(
      R"({"$schema": "http://json-schema.org/draft-04/schema#", "type": "integer"})", "1e+308"));
}
