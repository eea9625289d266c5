#include "lib/json_schema/uri.h"

#include <cctype>
#include <optional>

namespace glrmask::json_schema {
namespace {

// The five components of RFC 3986 section 3; absent ones are nullopt (an empty query "?" is
// present and empty).
struct UriParts {
  std::optional<std::string> scheme;
  std::optional<std::string> authority;
  std::string path;
  std::optional<std::string> query;
  std::optional<std::string> fragment;
};

UriParts split(std::string_view uri) {
  UriParts parts;
  if (const std::size_t hash = uri.find('#'); hash != std::string_view::npos) {
    parts.fragment = std::string(uri.substr(hash + 1));
    uri = uri.substr(0, hash);
  }
  if (const std::size_t question = uri.find('?'); question != std::string_view::npos) {
    parts.query = std::string(uri.substr(question + 1));
    uri = uri.substr(0, question);
  }
  // A scheme: a letter, then letters, digits, + - ., before the first ':' (and before any '/').
  const std::size_t colon = uri.find(':');
  if (colon != std::string_view::npos && colon > 0 &&
      uri.substr(0, colon).find('/') == std::string_view::npos) {
    bool scheme = std::isalpha(static_cast<unsigned char>(uri[0])) != 0;
    for (std::size_t i = 1; i < colon && scheme; ++i) {
      const char c = uri[i];
      scheme = std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.';
    }
    if (scheme) {
      parts.scheme = std::string(uri.substr(0, colon));
      uri = uri.substr(colon + 1);
    }
  }
  if (uri.substr(0, 2) == "//") {
    const std::size_t end = uri.find('/', 2);
    parts.authority = std::string(uri.substr(2, end == std::string_view::npos ? end : end - 2));
    uri = end == std::string_view::npos ? std::string_view() : uri.substr(end);
  }
  parts.path = std::string(uri);
  return parts;
}

std::string join(const UriParts& parts) {
  std::string out;
  if (parts.scheme) out += *parts.scheme + ":";
  if (parts.authority) out += "//" + *parts.authority;
  out += parts.path;
  if (parts.query) out += "?" + *parts.query;
  if (parts.fragment) out += "#" + *parts.fragment;
  return out;
}

// RFC 3986 section 5.2.4. A relative path stays relative ("x/../y" is "y", where the RFC's
// algorithm, written for absolute paths, would give "/y").
std::string remove_dot_segments(std::string input) {
  const bool relative = input.empty() || input[0] != '/';
  std::string output;
  while (!input.empty()) {
    if (input.rfind("../", 0) == 0) {
      input.erase(0, 3);
    } else if (input.rfind("./", 0) == 0) {
      input.erase(0, 2);
    } else if (input.rfind("/./", 0) == 0) {
      input.erase(0, 2);
    } else if (input == "/.") {
      input = "/";
    } else if (input.rfind("/../", 0) == 0 || input == "/..") {
      input = input == "/.." ? "/" : input.substr(3);
      const std::size_t last = output.rfind('/');
      output.erase(last == std::string::npos ? 0 : last);
    } else if (input == "." || input == "..") {
      input.clear();
    } else {
      const std::size_t next = input.find('/', input[0] == '/' ? 1 : 0);
      output += input.substr(0, next);
      input.erase(0, next == std::string::npos ? input.size() : next);
    }
  }
  if (relative && !output.empty() && output[0] == '/') output.erase(0, 1);
  return output;
}

// RFC 3986 section 5.2.3.
std::string merge_paths(const UriParts& base, const std::string& reference_path) {
  if (base.authority && base.path.empty()) return "/" + reference_path;
  const std::size_t last = base.path.rfind('/');
  if (last == std::string::npos) return reference_path;
  return base.path.substr(0, last + 1) + reference_path;
}

}  // namespace

std::string resolve_uri(std::string_view base_text, std::string_view reference_text) {
  const UriParts reference = split(reference_text);
  const UriParts base = split(base_text);
  UriParts target;
  if (reference.scheme) {
    target = reference;
    target.path = remove_dot_segments(reference.path);
  } else {
    target.scheme = base.scheme;
    if (reference.authority) {
      target.authority = reference.authority;
      target.path = remove_dot_segments(reference.path);
      target.query = reference.query;
    } else {
      target.authority = base.authority;
      if (reference.path.empty()) {
        target.path = base.path;
        target.query = reference.query ? reference.query : base.query;
      } else {
        target.path = remove_dot_segments(
            reference.path[0] == '/' ? reference.path : merge_paths(base, reference.path));
        target.query = reference.query;
      }
    }
    target.fragment = reference.fragment;
  }
  return join(target);
}

std::string without_fragment(std::string_view uri) {
  return std::string(uri.substr(0, uri.find('#')));
}

std::string fragment_of(std::string_view uri) {
  const std::size_t hash = uri.find('#');
  return hash == std::string_view::npos ? "" : std::string(uri.substr(hash + 1));
}

}  // namespace glrmask::json_schema
