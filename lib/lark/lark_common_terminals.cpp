#include "lib/lark/lark_common_terminals.h"

#include <algorithm>
#include <array>

namespace glrmask::lark {
namespace {

// An exponent, as in 1e10 or 2.5E-3, is [eE][+-]?[0-9]+; it is spelled out in each pattern so that
// every pattern reads on its own. Control characters are written as the characters themselves
// (ordinary C++ strings below), as in every pattern the Lark front-end produces.
constexpr std::array kCommonTerminals = {
    CommonTerminal{"DIGIT", R"re([0-9])re", "one decimal digit"},
    CommonTerminal{"HEXDIGIT", R"re([0-9a-fA-F])re", "one hexadecimal digit, either case"},
    CommonTerminal{"INT", R"re([0-9]+)re", "decimal digits, no sign"},
    CommonTerminal{"SIGNED_INT", R"re([+-]?[0-9]+)re", "decimal digits with an optional sign"},
    CommonTerminal{"DECIMAL", R"re([0-9]+\.[0-9]*|\.[0-9]+)re",
                   "digits with a decimal point, digits on at least one side: 1. 1.5 .5"},
    CommonTerminal{
        "FLOAT",
        R"re([0-9]+(?:[eE][+-]?[0-9]+|\.[0-9]*(?:[eE][+-]?[0-9]+)?)|\.[0-9]+(?:[eE][+-]?[0-9]+)?)re",
        "a decimal with an optional exponent, or digits with an exponent: 1.5 1e9 .5e-3"},
    CommonTerminal{
        "SIGNED_FLOAT",
        R"re([+-]?(?:[0-9]+(?:[eE][+-]?[0-9]+|\.[0-9]*(?:[eE][+-]?[0-9]+)?)|\.[0-9]+(?:[eE][+-]?[0-9]+)?))re",
        "FLOAT with an optional sign"},
    CommonTerminal{"NUMBER",
                   R"re([0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?|\.[0-9]+(?:[eE][+-]?[0-9]+)?)re",
                   "FLOAT or INT"},
    CommonTerminal{
        "SIGNED_NUMBER",
        R"re([+-]?(?:[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?|\.[0-9]+(?:[eE][+-]?[0-9]+)?))re",
        "NUMBER with an optional sign"},
    CommonTerminal{"ESCAPED_STRING", "\"(?:[^\"\\\\\n]|\\\\.)*\"",
                   "a double-quoted string on one line in which a backslash escapes the next "
                   "character, so \\\" does not end it"},
    CommonTerminal{"LCASE_LETTER", R"re([a-z])re", "one ASCII lowercase letter"},
    CommonTerminal{"UCASE_LETTER", R"re([A-Z])re", "one ASCII uppercase letter"},
    CommonTerminal{"LETTER", R"re([A-Za-z])re", "one ASCII letter"},
    CommonTerminal{"WORD", R"re([A-Za-z]+)re", "ASCII letters"},
    CommonTerminal{"CNAME", R"re([_A-Za-z][_A-Za-z0-9]*)re",
                   "a C identifier: a letter or underscore, then letters, digits, underscores"},
    CommonTerminal{"WS_INLINE", "[ \t]+", "spaces and tabs"},
    CommonTerminal{"WS", "[ \t\f\r\n]+", "spaces, tabs, form feeds and line breaks"},
    CommonTerminal{"CR", "\r", "a carriage return"},
    CommonTerminal{"LF", "\n", "a line feed"},
    CommonTerminal{"NEWLINE", "(?:\r?\n)+", "one or more line breaks, LF or CR LF"},
    CommonTerminal{"SH_COMMENT", "#[^\n]*", "# to the end of the line"},
    CommonTerminal{"CPP_COMMENT", "//[^\n]*", "// to the end of the line"},
    CommonTerminal{"C_COMMENT", R"re(/\*[^*]*\*+(?:[^/*][^*]*\*+)*/)re",
                   "/* to the first */ (may span lines)"},
    CommonTerminal{"SQL_COMMENT", "--[^\n]*", "-- to the end of the line"},
};

}  // namespace

std::span<const CommonTerminal> common_terminals() {
  return kCommonTerminals;
}

const CommonTerminal* find_common_terminal(std::string_view name) {
  auto it = std::find_if(kCommonTerminals.begin(), kCommonTerminals.end(),
                         [&](const CommonTerminal& t) { return t.name == name; });
  return it == kCommonTerminals.end() ? nullptr : &*it;
}

}  // namespace glrmask::lark
