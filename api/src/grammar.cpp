#include <fmt/format.h>

#include "api/src/grammar_impl.h"
#include "api/src/source_registry.h"
#include "lib/core/file_io.h"
#include "lib/lark/lark_writer.h"

namespace glrmask {

std::shared_ptr<const Grammar::Impl> Grammar::Impl::build(ConstraintSource source) {
  auto model = std::make_shared<const GrammarModel>(source.build());
  return over(std::move(source), std::move(model));
}

std::shared_ptr<const Grammar::Impl> Grammar::Impl::over(
    ConstraintSource source, std::shared_ptr<const GrammarModel> model) {
  auto impl = std::make_shared<Impl>();
  for (const Diagnostic& diagnostic : model->warnings()) {
    ErrorLocation where = ErrorLocation::in_file(diagnostic.where.file, diagnostic.where.line,
                                                 diagnostic.where.column);
    where.json_pointer = diagnostic.json_pointer;
    impl->warnings.push_back({diagnostic.str(), std::move(where)});
  }
  impl->source = std::move(source);
  impl->model = std::move(model);
  return impl;
}

Grammar Grammar::from_source(std::string_view format, std::string_view text,
                             const SourceOptions& options, std::string_view name) {
  return Grammar(Impl::build(ConstraintSource::make(format, text, options, name)));
}

Grammar Grammar::from_lark(std::string_view text, const GrammarOptions& options,
                           std::string_view name) {
  return from_source("lark", text, {options, {}}, name);
}

Grammar Grammar::from_lark_file(const std::filesystem::path& path, const GrammarOptions& options) {
  return from_lark(read_text_file(path), options, path.string());
}

Grammar Grammar::from_json_schema(std::string_view schema, const JsonOptions& options,
                                  std::string_view name) {
  return from_source("json_schema", schema, {{}, options}, name);
}

Grammar Grammar::any_json(const JsonOptions& options) {
  return from_source("any_json", "", {{}, options}, {});
}

Grammar Grammar::from_regex(std::string_view pattern) {
  return from_source("regex", pattern, {}, {});
}

const std::string& Grammar::format() const {
  return impl_->source.format;
}

const std::string& Grammar::name() const {
  return impl_->source.name;
}

std::string Grammar::to_lark() const {
  return to_lark_text(*impl_->model);
}

const std::vector<Warning>& Grammar::warnings() const {
  return impl_->warnings;
}

std::size_t Grammar::num_terminals() const {
  return impl_->model->terminals().size();
}

std::size_t Grammar::num_nonterminals() const {
  return impl_->model->nonterminals().size();
}

std::size_t Grammar::num_rules() const {
  return impl_->model->rules().size();
}

std::string Grammar::description() const {
  return impl_->source.description();
}

std::vector<std::string> grammar_formats() {
  std::vector<std::string> names;
  for (const SourceFormat& format : source_formats()) names.emplace_back(format.name);
  return names;
}

}  // namespace glrmask
