// The regexes of the string formats whose grammar is longer than a line: URIs and IRIs
// (RFC 3986, RFC 3987), IPv6 addresses (RFC 4291 as written by RFC 3986's IPv6address), URI
// templates (RFC 6570) and the syntax of ECMA-262 regular expressions. Each is an ECMA-262
// pattern over a string's decoded content, in the dialect translate_anchored_pattern reads
// (formats.h says how they are used).
#pragma once

#include <string>

namespace glrmask::json_schema {

// RFC 3986 `IPv6address`: eight groups of one to four hex digits, one `::` for a run of zero
// groups, the last 32 bits optionally as an IPv4 address; no zone, no brackets.
std::string ipv6_regex();

// RFC 1123 host names, a subset: labels of letters, digits and inner hyphens, at most 63
// characters, without "--" at the third and fourth place (RFC 5891 reserves it for A-labels,
// whose Punycode no regular expression can check); at most four labels, the fourth at most 61
// characters, so that the name never exceeds 253 characters (a count of every length would cost
// the lexer thousands of states).
std::string hostname_regex();

// RFC 5321 `Mailbox`, a subset: a dot-atom or quoted local part, then a host name as above with
// at least two labels, or an IPv4 or IPv6 address literal in brackets.
std::string email_regex();

// RFC 3986 `URI` (reference = false) or `URI-reference` (true); with iri = true the RFC 3987
// forms, whose unreserved characters add `ucschar` and whose query adds `iprivate`.
std::string uri_regex(bool iri, bool reference);

// RFC 6570 `URI-Template` (level 4), literals as amended by erratum 6937 (the apostrophe).
std::string uri_template_regex();

// A subset of the ECMA-262 pattern syntax that is valid with and without the u flag: groups
// nested up to `max_group_depth` levels, lookarounds without groups inside, character-class
// ranges between ASCII letters and digits in order, `{n,m}` counts whose order the digits show.
// Every string it matches is a valid pattern; some valid patterns are outside it.
std::string ecma_pattern_syntax_regex(int max_group_depth);

}  // namespace glrmask::json_schema
