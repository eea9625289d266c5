#!/usr/bin/env bash
# The long run of random walks on SynCode's Python grammar (`glrmask generate --postlex python
# --policy lark`, the wfa engine) judged by Lark 1.1.5 with SynCode's indenter settings
# (tests/reference/lark_accepts.py --postlex python --tie-readings): WALKS walks from the start
# (seeds SEED, SEED+1, ...), then WALKS/8 walks from uniform cuts of each of four corpus programs
# (inside blocks, so the walks must dedent out of what the program opened), the tokenizer TOKENIZER.
# Usage: scripts/python_walks.sh [WALKS [SEED [TOKENIZER [OUT]]]]   (default 200 1 llama3, OUT a
# new temporary folder). Needs a built tree (build/) and GLRMASK_DATA (or the default data folder).
# Prints one line per run and a total; exits 1 when Lark rejects a walk that ended by EOS (the
# walk's JSON line is in OUT, a reproducer with its seed).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WALKS="${1:-200}"
SEED="${2:-1}"
TOKENIZER="${3:-llama3}"
OUT="${4:-$(mktemp -d)}"
DATA="${GLRMASK_DATA:-$ROOT/../shared/data}"
GRAMMAR="$DATA/grammars/syncode/python_grammar.lark"
PYTHON="${GLRMASK_PYTHON:-/usr/bin/python3}"
GLRMASK="$ROOT/build/apps/glrmask"
mkdir -p "$OUT"
"$PYTHON" -c 'import lark' || { echo "python3-lark is missing (Debian: python3-lark)" >&2; exit 77; }
[[ -f "$GRAMMAR" ]] || { echo "no $GRAMMAR: set GLRMASK_DATA" >&2; exit 77; }

BIASES=(--eos-bias 0.5 --min-tokens 20 --close-bias 0.5 --max-token-bytes 3)
total_eos=0 total_limit=0 total_lalr=0 total_ties=0 total_rejected=0

# run NAME SEED COUNT MAX_TOKENS [generate options...]
run() {
  local name="$1" seed="$2" count="$3" max_tokens="$4"
  shift 4
  local walks="$OUT/$name.jsonl" verdicts="$OUT/$name.verdicts"
  "$GLRMASK" generate "$GRAMMAR" --tokenizer "$TOKENIZER" --seed "$seed" --count "$count" \
    --max-tokens "$max_tokens" --policy lark --postlex python --engine wfa --json-lines \
    "${BIASES[@]}" "$@" >"$walks"
  "$PYTHON" "$ROOT/tests/reference/lark_accepts.py" "$GRAMMAR" "$walks" --postlex python \
    --tie-readings >"$verdicts"
  local eos limit lalr ties rejected
  eos=$(grep -c '"end":"eos"' "$walks" || true)
  limit=$(grep -c '"end":"limit"' "$walks" || true)
  lalr=$(grep -c $'\tlalr' "$verdicts" || true)
  ties=$(grep -c $'\tties' "$verdicts" || true)
  rejected=$(grep -c $'\trejected' "$verdicts" || true)
  echo "$name: seeds $seed..$((seed + count - 1)), max $max_tokens tokens: $eos ended by EOS" \
    "($lalr accepted by Lark's LALR, $ties only with tie readings, $rejected rejected)," \
    "$limit hit the limit"
  grep $'\trejected' "$verdicts" | sed "s/^/  rejected walk /" || true
  total_eos=$((total_eos + eos)) total_limit=$((total_limit + limit))
  total_lalr=$((total_lalr + lalr)) total_ties=$((total_ties + ties))
  total_rejected=$((total_rejected + rejected))
}

run start "$SEED" "$WALKS" 400
cut_seed=$((SEED + WALKS))
for program in backtracking__word_break.py data_compression__huffman.py \
  graphs__breadth_first_search.py sorts__circle_sort.py; do
  count=$((WALKS / 8 > 0 ? WALKS / 8 : 1))
  run "cut_${program%.py}" "$cut_seed" "$count" 1000 \
    --prefix "$DATA/programs/python/$program"
  cut_seed=$((cut_seed + count))
done
echo "total: $((total_eos + total_limit)) walks with $TOKENIZER, $total_eos ended by EOS:" \
  "$total_lalr accepted by Lark's LALR, $total_ties only with tie readings," \
  "$total_rejected rejected; $total_limit hit the limit (walks and verdicts in $OUT)"
[[ "$total_rejected" -eq 0 ]]
