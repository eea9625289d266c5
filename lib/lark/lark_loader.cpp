#include "lib/lark/lark_loader.h"

#include <fmt/format.h>

#include <fstream>
#include <functional>
#include <sstream>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "lib/core/file_io.h"
#include "lib/grammar/grammar_builder.h"
#include "lib/lark/lark_common_terminals.h"
#include "lib/lark/lark_ebnf.h"
#include "lib/lark/lark_parser.h"
#include "lib/lark/lark_terminal_compiler.h"
#include "lib/lark/lark_terminal_table.h"

namespace glrmask {
namespace {

using lark::Alternative;
using lark::Definition;
using lark::Expr;
using lark::Statement;
using lark::TextPos;

const char* kind_name(bool is_terminal) {
  return is_terminal ? "terminal" : "rule";
}

// One named symbol of the grammar, as defined, imported or declared.
struct Entry {
  Definition definition;
  std::string file;
  SourceLocation origin;
  bool declared = false;  // %declare'd: a name without a body
  bool imported = false;
};

void for_each_expr(const Expr& expr, const std::function<void(const Expr&)>& visit);

void for_each_expr(const std::vector<Alternative>& alternatives,
                   const std::function<void(const Expr&)>& visit) {
  for (const Alternative& alternative : alternatives) {
    for (const Expr& expr : alternative.items) for_each_expr(expr, visit);
  }
}

// Visits `expr` and every expression nested in it.
void for_each_expr(const Expr& expr, const std::function<void(const Expr&)>& visit) {
  visit(expr);
  for (const Expr& child : expr.children) for_each_expr(child, visit);
  for_each_expr(expr.alternatives, visit);
}

std::string common_names() {
  std::string names;
  for (const lark::CommonTerminal& terminal : lark::common_terminals()) {
    if (!names.empty()) names += ", ";
    names += terminal.name;
  }
  return names;
}

class Loader {
 public:
  Loader(const lark::GrammarSyntax& syntax, const LarkOptions& options)
      : syntax_(syntax), options_(options) {}

  GrammarModel run() {
    import_all();
    define_all();
    check_references();
    compile_terminals();
    expand_rules();
    check_declared_terminals();
    collect_used_terminals();
    warn_unused_terminals();
    return build();
  }

 private:
  SourceLocation at(TextPos pos) const {
    return SourceLocation{syntax_.file, pos.line, pos.column};
  }

  Entry* find(const std::string& name) {
    auto it = index_.find(name);
    return it == index_.end() ? nullptr : &entries_[it->second];
  }

  void add(Entry entry) {
    if (const Entry* existing = find(entry.definition.name)) {
      const char* kind = kind_name(entry.definition.is_terminal);
      throw GrammarError(entry.origin,
                         existing->imported
                             ? fmt::format("{} '{}' is already imported at {}", kind,
                                           entry.definition.name, existing->origin.str())
                             : fmt::format("{} '{}' is defined twice (first at {})", kind,
                                           entry.definition.name, existing->origin.str()));
    }
    index_.emplace(entry.definition.name, entries_.size());
    entries_.push_back(std::move(entry));
  }

  // Lark resolves every %import before the definitions, wherever the %import stands.
  void import_all() {
    for (const Statement& statement : syntax_.statements) {
      if (statement.kind != Statement::Kind::kImport) continue;
      const lark::Import& import = statement.import;
      std::string module;
      for (const std::string& part : import.module) module += (module.empty() ? "" : ".") + part;
      if (import.relative) {
        throw GrammarError(at(statement.pos),
                           fmt::format("relative imports (%import .{}) are not supported; glrmask "
                                       "imports only from its built-in 'common' library",
                                       module));
      }
      if (module != "common") {
        throw GrammarError(at(statement.pos),
                           fmt::format("cannot %import from '{}': glrmask imports only from its "
                                       "built-in 'common' library",
                                       module));
      }
      for (const lark::Import::Name& name : import.names) {
        const lark::CommonTerminal* terminal = lark::find_common_terminal(name.imported);
        if (terminal == nullptr) {
          throw GrammarError(at(name.pos), fmt::format("'common' has no terminal '{}' (it has {})",
                                                       name.imported, common_names()));
        }
        if (const Entry* existing = find(name.local);
            existing != nullptr && existing->imported &&
            existing->definition.body[0].items[0].text == terminal->pattern) {
          continue;  // the same import twice
        }
        Expr builtin;
        builtin.kind = Expr::Kind::kBuiltin;
        builtin.pos = name.pos;
        builtin.text = std::string(terminal->pattern);
        Entry entry;
        entry.definition.is_terminal = true;
        entry.definition.name = name.local;
        entry.definition.pos = name.pos;
        entry.definition.body.push_back(Alternative{{std::move(builtin)}, "", name.pos, {}});
        entry.file = syntax_.file;
        entry.origin = at(name.pos);
        entry.imported = true;
        add(std::move(entry));
      }
    }
  }

  void define_all() {
    for (const Statement& statement : syntax_.statements) {
      switch (statement.kind) {
        case Statement::Kind::kImport:
          break;
        case Statement::Kind::kDefine:
          add(make_entry(statement.definition));
          break;
        case Statement::Kind::kOverride:
          override_definition(statement.definition);
          break;
        case Statement::Kind::kExtend:
          extend_definition(statement.definition);
          break;
        case Statement::Kind::kIgnore:
          ignore(statement);
          break;
        case Statement::Kind::kDeclare:
          for (const Statement::Declared& declared : statement.declared) {
            Entry entry;
            entry.definition.is_terminal = declared.is_terminal;
            entry.definition.name = declared.name;
            entry.definition.pos = declared.pos;
            entry.file = syntax_.file;
            entry.origin = at(declared.pos);
            entry.declared = true;
            add(std::move(entry));
          }
          break;
      }
    }
  }

  Entry make_entry(const Definition& definition) {
    if (definition.inline_if_single && definition.name.starts_with('_')) {
      throw GrammarError(at(definition.pos),
                         fmt::format("inlined rule '{}' (name starting with '_') cannot also use "
                                     "the ?rule modifier",
                                     definition.name));
    }
    Entry entry;
    entry.definition = definition;
    entry.file = syntax_.file;
    entry.origin = at(definition.pos);
    return entry;
  }

  Entry& existing_for_change(const Definition& definition, const char* directive) {
    Entry* existing = find(definition.name);
    const char* kind = kind_name(definition.is_terminal);
    if (existing == nullptr) {
      throw GrammarError(at(definition.pos), fmt::format("cannot {} {} '{}': it is not defined",
                                                         directive, kind, definition.name));
    }
    if (existing->declared) {
      throw GrammarError(at(definition.pos), fmt::format("cannot {} {} '{}': it is only %declare'd",
                                                         directive, kind, definition.name));
    }
    return *existing;
  }

  void override_definition(const Definition& definition) {
    Entry& existing = existing_for_change(definition, "%override");
    existing = make_entry(definition);
  }

  // Lark puts the new alternatives first.
  void extend_definition(const Definition& definition) {
    Entry& existing = existing_for_change(definition, "%extend");
    std::vector<Alternative> body = definition.body;
    body.insert(body.end(), existing.definition.body.begin(), existing.definition.body.end());
    existing.definition.body = std::move(body);
  }

  void ignore(const Statement& statement) {
    const std::vector<Alternative>& ignored = statement.ignored;
    if (ignored.size() == 1 && ignored[0].items.size() == 1 && ignored[0].alias.empty() &&
        ignored[0].items[0].kind == Expr::Kind::kTerminal) {
      ignored_.push_back({ignored[0].items[0].text, ignored[0].items[0].pos});
      return;
    }
    // Anything else becomes a terminal of its own, named as Lark names it.
    Entry entry;
    entry.definition.is_terminal = true;
    entry.definition.name = fmt::format("__IGNORE_{}", ignored_.size());
    entry.definition.pos = statement.pos;
    entry.definition.body = ignored;
    entry.file = syntax_.file;
    entry.origin = at(statement.pos);
    ignored_.push_back({entry.definition.name, statement.pos});
    anonymous_ignores_.insert(entry.definition.name);
    add(std::move(entry));
  }

  void check_references() {
    for (const Entry& entry : entries_) {
      if (entry.declared || entry.definition.is_terminal) continue;
      for_each_expr(entry.definition.body, [&](const Expr& expr) {
        if (expr.kind != Expr::Kind::kRule && expr.kind != Expr::Kind::kTerminal) return;
        if (find(expr.text) == nullptr) {
          throw GrammarError(at(expr.pos),
                             fmt::format("{} '{}' is used but not defined (in rule '{}')",
                                         kind_name(expr.kind == Expr::Kind::kTerminal), expr.text,
                                         entry.definition.name));
        }
      });
    }
    for (const auto& [name, pos] : ignored_) {
      const Entry* entry = find(name);
      if (entry == nullptr || entry->declared) {
        throw GrammarError(at(pos),
                           fmt::format("terminal '{}' is %ignore'd but not defined", name));
      }
    }
  }

  void compile_terminals() {
    std::unordered_map<std::string, lark::TerminalSource> sources;
    for (const Entry& entry : entries_) {
      if (!entry.definition.is_terminal) continue;
      sources[entry.definition.name] = lark::TerminalSource{
          entry.declared ? nullptr : &entry.definition.body, entry.file, entry.origin};
    }
    lark::TerminalCompiler compiler([&](const std::string& name) -> const lark::TerminalSource* {
      auto it = sources.find(name);
      return it == sources.end() ? nullptr : &it->second;
    });
    for (const Entry& entry : entries_) {
      if (!entry.definition.is_terminal) continue;
      terminals_.reserve_name(entry.definition.name);
      if (entry.declared) continue;
      terminals_.add_named(entry.definition.name, compiler.pattern_of(entry.definition.name),
                           entry.definition.priority.value_or(0), entry.origin);
    }
  }

  void expand_rules() {
    lark::EbnfExpander expander(terminals_,
                                [&](const std::string& name) { return find(name) != nullptr; });
    for (const Entry& entry : entries_) {
      if (entry.definition.is_terminal) continue;
      if (entry.declared) {
        lark::BnfRule rule;
        rule.name = entry.definition.name;
        rule.origin = entry.origin;
        rules_.push_back(std::move(rule));
        continue;
      }
      rules_.push_back(expander.expand(entry.definition, entry.file));
    }
    rules_.insert(rules_.end(), expander.helpers().begin(), expander.helpers().end());
  }

  // A %declare'd terminal is one the lexer never produces; only a post-lexer could. Refuse it as
  // soon as a rule the start rule reaches needs it.
  void check_declared_terminals() {
    if (options_.declared_terminals) return;
    std::unordered_map<std::string, const lark::BnfRule*> by_name;
    for (const lark::BnfRule& rule : rules_) by_name.emplace(rule.name, &rule);
    std::unordered_set<std::string> reached = {options_.start};
    std::vector<const lark::BnfRule*> stack;
    if (auto it = by_name.find(options_.start); it != by_name.end()) stack.push_back(it->second);
    while (!stack.empty()) {
      const lark::BnfRule* rule = stack.back();
      stack.pop_back();
      for (const lark::BnfAlternative& alternative : rule->alternatives) {
        for (const std::string& symbol : alternative.symbols) {
          if (const Entry* entry = find(symbol);
              entry != nullptr && entry->declared && entry->definition.is_terminal) {
            throw GrammarError(
                entry->origin,
                fmt::format("terminal {} is %declare'd: only a post-lexer can "
                            "produce it; glrmask has Python's indenter, enabled "
                            "with the post-lexer option (GrammarOptions::postlex python)",
                            symbol));
          }
          auto it = by_name.find(symbol);
          if (it != by_name.end() && reached.insert(symbol).second) stack.push_back(it->second);
        }
      }
    }
  }

  // The terminals the grammar hands on: those some rule uses (the builder later drops those only
  // unreachable rules use) and the ignored ones. The others are building blocks of terminals.
  void collect_used_terminals() {
    for (const lark::BnfRule& rule : rules_) {
      for (const lark::BnfAlternative& alternative : rule.alternatives) {
        used_in_rules_or_ignored_.insert(alternative.symbols.begin(), alternative.symbols.end());
      }
    }
    for (const auto& [name, pos] : ignored_) used_in_rules_or_ignored_.insert(name);
  }

  // Warns about named terminals used nowhere, not even inside another terminal.
  void warn_unused_terminals() {
    std::unordered_set<std::string> used = used_in_rules_or_ignored_;
    for (const Entry& entry : entries_) {
      if (!entry.definition.is_terminal || entry.declared) continue;
      for_each_expr(entry.definition.body, [&](const Expr& expr) {
        if (expr.kind == Expr::Kind::kTerminal) used.insert(expr.text);
      });
    }
    for (const Entry& entry : entries_) {
      if (!entry.definition.is_terminal || used.contains(entry.definition.name)) continue;
      warnings_.push_back({entry.origin, fmt::format("terminal '{}' is {} but never used; removed",
                                                     entry.definition.name,
                                                     entry.declared   ? "%declare'd"
                                                     : entry.imported ? "imported"
                                                                      : "defined")});
    }
  }

  GrammarModel build() {
    GrammarBuilder builder(syntax_.file);
    for (Diagnostic& warning : warnings_) builder.add_warning(std::move(warning));
    std::unordered_set<std::string> ignored;
    for (const auto& [name, pos] : ignored_) ignored.insert(name);
    for (const lark::TerminalEntry& entry : terminals_.entries()) {
      if (!used_in_rules_or_ignored_.contains(entry.name)) continue;
      Terminal terminal;
      terminal.name = entry.name;
      terminal.pattern = entry.pattern.regex;
      terminal.flags = entry.pattern.flags;
      terminal.is_literal = entry.pattern.is_literal;
      terminal.literal = entry.pattern.literal;
      terminal.token = entry.pattern.token;
      terminal.priority = entry.priority;
      terminal.ignored = ignored.contains(entry.name);
      terminal.anonymous = entry.anonymous || anonymous_ignores_.contains(entry.name);
      terminal.origin = entry.origin;
      builder.add_terminal(std::move(terminal));
    }
    // %declare'd terminals have no pattern. Without LarkOptions::declared_terminals they only
    // appear in rules the start rule cannot reach (checked above), and these placeholders let
    // those rules resolve before the builder removes them; with it, a post-lexer produces them.
    for (const Entry& entry : entries_) {
      if (entry.declared && entry.definition.is_terminal &&
          used_in_rules_or_ignored_.contains(entry.definition.name)) {
        Terminal placeholder;
        placeholder.name = entry.definition.name;
        placeholder.origin = entry.origin;
        placeholder.declared = true;
        builder.add_terminal(std::move(placeholder));
      }
    }
    for (lark::BnfRule& rule : rules_) {
      builder.add_nonterminal(Nonterminal{rule.name, rule.shape, rule.generated, rule.origin});
      for (lark::BnfAlternative& alternative : rule.alternatives) {
        builder.add_rule(RuleSpec{rule.name, std::move(alternative.symbols), rule.priority,
                                  std::move(alternative.alias), std::move(alternative.origin)});
      }
    }
    return std::move(builder).build(options_.start);
  }

  const lark::GrammarSyntax& syntax_;
  const LarkOptions& options_;
  std::vector<Entry> entries_;
  std::unordered_map<std::string, std::size_t> index_;
  std::vector<std::pair<std::string, TextPos>> ignored_;
  std::unordered_set<std::string> anonymous_ignores_;
  lark::TerminalTable terminals_;
  std::vector<lark::BnfRule> rules_;
  std::unordered_set<std::string> used_in_rules_or_ignored_;
  std::vector<Diagnostic> warnings_;
};

}  // namespace

GrammarModel load_lark_text(std::string_view text, const std::string& file_name,
                            const LarkOptions& options) {
  const lark::GrammarSyntax syntax = lark::parse_lark(text, file_name);
  return Loader(syntax, options).run();
}

GrammarModel load_lark_file(const std::filesystem::path& path, const LarkOptions& options) {
  return load_lark_text(read_text_file(path), path.string(), options);
}

}  // namespace glrmask
