#include "lib/json_schema/references.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <map>
#include <set>

#include "lib/core/error.h"
#include "lib/json_schema/document.h"
#include "lib/json_schema/internal_keywords.h"
#include "lib/json_schema/uri.h"

namespace glrmask::json_schema {
namespace {

// Keywords whose value is a schema, or an array of schemas.
constexpr std::array kSchemaKeywords = {
    "additionalProperties",
    "additionalItems",
    "items",
    "prefixItems",
    "contains",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contentSchema",
    "allOf",
    "anyOf",
    "oneOf",
};
// Keywords whose value maps names to schemas.
constexpr std::array kSchemaMapKeywords = {"properties",  "patternProperties", "$defs",
                                           "definitions", "dependentSchemas",  "dependencies"};
// Keywords whose value is data, never a schema.
constexpr std::array kDataKeywords = {"enum", "const", "default", "examples"};
constexpr std::array kReferenceKeywords = {"$ref", "$dynamicRef", "$recursiveRef"};
// The keywords of the validation vocabulary (2019-09 and 2020-12, "A Vocabulary for Structural
// Validation"): a metaschema whose `$vocabulary` leaves it out makes them annotations.
constexpr std::array kValidationVocabulary = {"type",          "enum",
                                              "const",         "multipleOf",
                                              "maximum",       "exclusiveMaximum",
                                              "minimum",       "exclusiveMinimum",
                                              "maxLength",     "minLength",
                                              "pattern",       "maxItems",
                                              "minItems",      "uniqueItems",
                                              "maxContains",   "minContains",
                                              "maxProperties", "minProperties",
                                              "required",      "dependentRequired"};

template <std::size_t N>
bool one_of(const std::array<const char*, N>& list, std::string_view key) {
  return std::find(list.begin(), list.end(), key) != list.end();
}

std::string percent_decode(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size()) {
      const std::string hex(text.substr(i + 1, 2));
      char* end = nullptr;
      const long value = std::strtol(hex.c_str(), &end, 16);
      if (hex.size() == 2 && end == hex.c_str() + 2) {
        out += static_cast<char>(value);
        i += 2;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

// A pointer as the fragment of a local `$ref` (document.cpp percent-decodes it).
std::string local_ref(const std::string& pointer) {
  std::string out = "#";
  for (const char c : pointer) out += c == '%' ? std::string("%25") : std::string(1, c);
  return out;
}

JsonValue* find_mutable(JsonValue& root, const std::string& pointer) {
  JsonValue* node = &root;
  std::size_t pos = 0;
  while (node && pos < pointer.size()) {
    std::size_t end = pointer.find('/', pos + 1);
    if (end == std::string::npos) end = pointer.size();
    std::string token;
    for (std::size_t i = pos + 1; i < end; ++i) {
      if (pointer[i] == '~' && i + 1 < end) {
        token += pointer[i + 1] == '1' ? '/' : '~';
        ++i;
      } else {
        token += pointer[i];
      }
    }
    JsonValue* next = nullptr;
    if (node->is_object()) {
      for (auto& [name, member] : node->members)
        if (name == token) next = &member;
    } else if (node->is_array()) {
      const std::size_t index = std::strtoul(token.c_str(), nullptr, 10);
      if (index < node->items.size()) next = &node->items[index];
    }
    node = next;
    pos = end;
  }
  return node;
}

class Bundler {
 public:
  Bundler(const JsonValue& root, const std::string& source_name, Draft draft,
          const std::vector<RegisteredDocument>& registry, bool formats_as_annotations)
      : bundle_{root, {}},
        source_name_(source_name),
        draft_(draft),
        registry_(registry),
        formats_as_annotations_(formats_as_annotations) {}

  Bundle run() && {
    resources_[""] = "";
    without_validation_ = metaschema_leaves_out_validation();
    walk(bundle_.root, "", "", "", draft_, true);
    strip_formats();
    if (refs_.empty()) return std::move(bundle_);
    bundle_.root.members.emplace_back(internal::kResources, make_array());
    for (std::size_t i = 0; i < refs_.size(); ++i) resolve(i);
    for (const auto& [pointer, keyword, target] : rewrites_) rewrite(pointer, keyword, target);
    return std::move(bundle_);
  }

 private:
  struct Reference {
    std::string pointer;  // of the schema object holding it
    std::string base;
    std::string keyword;
    std::string value;
    bool schema_position = true;  // false: inside an unknown keyword (left alone if unresolved)
  };
  struct DynamicAnchor {
    std::string resource;  // the pointer of the resource the anchor belongs to
    std::string pointer;
  };

  std::string place(const std::string& pointer) const {
    return bundle_place(source_name_, bundle_.document_uris, pointer);
  }

  [[noreturn]] void fail(const Reference& ref, const std::string& message) const {
    const std::string where = place(pointer_append(ref.pointer, ref.keyword));
    throw Error(fmt::format("{}: {} \"{}\": {}", where, ref.keyword, ref.value, message),
                ErrorCode::kSchema, schema_location(where));
  }

  void walk(const JsonValue& node, const std::string& pointer, std::string base,
            std::string resource, Draft draft, bool schema_position) {
    if (node.is_array()) {
      if (!schema_position)
        for (std::size_t i = 0; i < node.items.size(); ++i)
          walk(node.items[i], pointer_append(pointer, std::to_string(i)), base, resource, draft,
               false);
      return;
    }
    if (!node.is_object()) return;
    if (schema_position) identify(node, pointer, base, resource, draft);
    if (schema_position &&
        ((formats_as_annotations_ && node.find("format")) || without_validation_))
      with_format_.push_back(pointer);
    for (const char* keyword : kReferenceKeywords)
      if (const JsonValue* ref = node.find(keyword); ref && ref->is_string())
        refs_.push_back({pointer, base, keyword, ref->string, schema_position});
    for (const auto& [key, value] : node.members) {
      const std::string at = pointer_append(pointer, key);
      if (one_of(kDataKeywords, key) && schema_position) continue;
      if (!schema_position || (!one_of(kSchemaKeywords, key) && !one_of(kSchemaMapKeywords, key))) {
        walk(value, at, base, resource, draft, false);
      } else if (one_of(kSchemaMapKeywords, key)) {
        for (const auto& [name, schema] : value.members)
          walk(schema, pointer_append(at, name), base, resource, draft, true);
      } else if (value.is_array()) {
        for (std::size_t i = 0; i < value.items.size(); ++i)
          walk(value.items[i], pointer_append(at, std::to_string(i)), base, resource, draft, true);
      } else {
        walk(value, at, base, resource, draft, true);
      }
    }
  }

  // The identifiers of one schema object: `$id` changes `base` and starts a resource; anchors
  // name the object within it.
  void identify(const JsonValue& node, const std::string& pointer, std::string& base,
                std::string& resource, Draft draft) {
    const JsonValue* id = node.find(draft == Draft::k4 ? "id" : "$id");
    const bool id_ignored = draft <= Draft::k7 && node.find("$ref");
    if (id && id->is_string() && !id_ignored) {
      if (draft <= Draft::k7 && !id->string.empty() && id->string[0] == '#') {
        anchors_[base + id->string] = pointer;
      } else {
        const std::string resolved = resolve_uri(base, id->string);
        base = without_fragment(resolved);
        resource = pointer;
        resources_.emplace(base, pointer);
        const std::string fragment = fragment_of(resolved);
        if (!fragment.empty() && fragment[0] != '/') anchors_[base + "#" + fragment] = pointer;
      }
    }
    if (draft < Draft::k2019_09) return;
    if (const JsonValue* anchor = node.find("$anchor"); anchor && anchor->is_string())
      anchors_[base + "#" + anchor->string] = pointer;
    if (const JsonValue* anchor = node.find("$dynamicAnchor"); anchor && anchor->is_string()) {
      anchors_.emplace(base + "#" + anchor->string, pointer);
      dynamic_anchors_[anchor->string].push_back({resource, pointer});
    }
    if (const JsonValue* anchor = node.find("$recursiveAnchor");
        anchor && anchor->is_bool() && anchor->boolean)
      recursive_anchors_.insert(pointer);
  }

  // The pointer of the resource named `uri`, loading a registered document on first use.
  const std::string* resource(const std::string& uri) {
    if (auto found = resources_.find(uri); found != resources_.end()) return &found->second;
    for (const RegisteredDocument& document : registry_) {
      if (without_fragment(document.uri) != uri) continue;
      JsonValue parsed = parse_json(document.text, document.uri);
      JsonValue& list = bundle_.root.members.back().second;
      const std::string pointer = pointer_append(pointer_append("", internal::kResources),
                                                 std::to_string(list.items.size()));
      bundle_.document_uris.push_back(uri);
      resources_.emplace(uri, pointer);
      list.items.push_back(std::move(parsed));
      // The walk only records what it finds: the list does not grow while it runs.
      const JsonValue& stored = list.items.back();
      walk(stored, pointer, uri, pointer, detect_draft(stored, draft_), true);
      strip_formats();
      return &resources_.at(uri);
    }
    return nullptr;
  }

  void resolve(std::size_t index) {
    const Reference ref = refs_[index];
    const std::string target = resolve_uri(ref.base, ref.value);
    const std::string uri = without_fragment(target);
    const std::string fragment = percent_decode(fragment_of(target));
    const std::string* root = resource(uri);
    if (!root) {
      if (!ref.schema_position) return;
      const bool absolute = uri.find(':') != std::string::npos;
      fail(ref, fmt::format("the document \"{}\" is not registered (nothing is fetched){}", uri,
                            absolute ? "" : "; relative, and no $id gives it a base URI"));
    }
    std::string pointer;
    if (fragment.empty() || fragment[0] == '/') {
      pointer = *root + fragment;
    } else if (auto found = anchors_.find(uri + "#" + fragment); found != anchors_.end()) {
      pointer = found->second;
    } else {
      if (!ref.schema_position) return;
      fail(ref, fmt::format("no $anchor or $id names \"{}\" in \"{}\"", fragment, uri));
    }
    if (!find_mutable(bundle_.root, pointer)) {
      if (!ref.schema_position) return;
      fail(ref, "points to nothing");
    }
    if (ref.keyword == "$dynamicRef") pointer = dynamic_target(ref, fragment, pointer);
    if (ref.keyword == "$recursiveRef") pointer = recursive_target(ref, pointer);
    rewrites_.push_back({ref.pointer, ref.keyword, local_ref(pointer)});
  }

  std::string dynamic_target(const Reference& ref, const std::string& name,
                             const std::string& initial) {
    const auto found = dynamic_anchors_.find(name);
    if (found == dynamic_anchors_.end()) return initial;
    const std::vector<DynamicAnchor>& anchors = found->second;
    const bool bookended = std::any_of(anchors.begin(), anchors.end(), [&](const DynamicAnchor& a) {
      return a.pointer == initial;
    });
    if (!bookended) return initial;
    for (const DynamicAnchor& anchor : anchors)
      if (anchor.resource.empty()) return anchor.pointer;  // the root resource: outermost
    if (anchors.size() == 1) return initial;
    fail(ref, fmt::format("{} schemas bear $dynamicAnchor \"{}\" and the root does not: the "
                          "target depends on the path that reaches this reference",
                          anchors.size(), name));
  }

  std::string recursive_target(const Reference& ref, const std::string& initial) {
    if (!recursive_anchors_.count(initial)) return initial;
    if (recursive_anchors_.count("")) return "";
    if (recursive_anchors_.size() == 1) return initial;
    fail(ref,
         "several schemas bear $recursiveAnchor and the root does not: the target depends "
         "on the path that reaches this reference");
  }

  // An annotation asserts nothing: `format` leaves every schema object that has one, and
  // under a metaschema without the validation vocabulary, the keywords of that vocabulary.
  void strip_formats() {
    for (const std::string& pointer : with_format_) {
      JsonValue* node = find_mutable(bundle_.root, pointer);
      if (!node) continue;
      if (formats_as_annotations_) node->take("format");
      if (without_validation_)
        std::erase_if(node->members, [](const auto& member) {
          return one_of(kValidationVocabulary, member.first);
        });
    }
    with_format_.clear();
  }

  // Whether the root's `$schema` names a registered metaschema whose `$vocabulary` does not
  // include the validation vocabulary.
  bool metaschema_leaves_out_validation() const {
    const JsonValue* schema = bundle_.root.find("$schema");
    if (!schema || !schema->is_string()) return false;
    for (const RegisteredDocument& document : registry_) {
      if (without_fragment(document.uri) != without_fragment(schema->string)) continue;
      const JsonValue metaschema = parse_json(document.text, document.uri);
      const JsonValue* vocabulary = metaschema.find("$vocabulary");
      if (!vocabulary || !vocabulary->is_object()) return false;
      return std::none_of(vocabulary->members.begin(), vocabulary->members.end(),
                          [](const auto& member) {
                            return member.first.find("/vocab/validation") != std::string::npos;
                          });
    }
    return false;
  }

  void rewrite(const std::string& pointer, const std::string& keyword, const std::string& target) {
    JsonValue* node = find_mutable(bundle_.root, pointer);
    if (!node || !node->is_object()) return;
    if (keyword == "$ref") {
      for (auto& [name, value] : node->members)
        if (name == "$ref") value = make_string(target);
      return;
    }
    node->take(keyword);
    JsonValue ref = make_object({{"$ref", make_string(target)}});
    for (auto& [name, value] : node->members) {
      if (name == "allOf" && value.is_array()) {
        value.items.push_back(std::move(ref));
        return;
      }
    }
    node->members.emplace_back("allOf", make_array({std::move(ref)}));
  }

  Bundle bundle_;
  std::string source_name_;
  Draft draft_;
  const std::vector<RegisteredDocument>& registry_;
  bool formats_as_annotations_;
  bool without_validation_ = false;
  std::vector<std::string> with_format_;          // schema objects with a `format` to strip
  std::map<std::string, std::string> resources_;  // absolute URI without fragment -> pointer
  std::map<std::string, std::string> anchors_;    // "URI#name" -> pointer
  std::map<std::string, std::vector<DynamicAnchor>> dynamic_anchors_;
  std::set<std::string> recursive_anchors_;  // pointers of schemas with $recursiveAnchor: true
  std::vector<Reference> refs_;
  struct Rewrite {
    std::string pointer, keyword, target;
  };
  std::vector<Rewrite> rewrites_;
};

}  // namespace

std::string bundle_place(const std::string& source_name, const std::vector<std::string>& uris,
                         const std::string& pointer) {
  const std::string prefix = pointer_append("", internal::kResources) + "/";
  if (pointer.rfind(prefix, 0) == 0) {
    const std::size_t end = pointer.find('/', prefix.size());
    const std::size_t index = std::strtoul(pointer.c_str() + prefix.size(), nullptr, 10);
    if (index < uris.size())
      return fmt::format("{}#{}", uris[index], end == std::string::npos ? "" : pointer.substr(end));
  }
  return fmt::format("{}#{}", source_name, pointer);
}

Bundle bundle_references(const JsonValue& root, const std::string& source_name, Draft draft,
                         const std::vector<RegisteredDocument>& registry,
                         bool formats_as_annotations) {
  if (!root.is_object()) return Bundle{root, {}};
  return Bundler(root, source_name, draft, registry, formats_as_annotations).run();
}

}  // namespace glrmask::json_schema
