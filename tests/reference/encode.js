// Reference encoder for the encoder tests: the transformers.js port (@lenml/tokenizers) that
// ships with each tokenizer's npm package. Usage:
//   NODE_PATH=<cache>/node/node_modules node encode.js <tokenizer> <list file>
// <tokenizer> is a tokenizer package folder (e.g. <cache>/tokenizers/llama3/package) or the path
// of a tokenizer.json (with tokenizer_config.json beside it, if any). The list file holds one path
// per line; for each, in order, prints the ids of the file's text (read as UTF-8, no BOS/EOS
// added) as one JSON array per line.
"use strict";
const fs = require("fs");
const path = require("path");

const [tokenizerArg, listFile] = process.argv.slice(2);
if (!tokenizerArg || !listFile) {
  console.error("usage: node encode.js <tokenizer package | tokenizer.json> <list file>");
  process.exit(2);
}

function loadTokenizer(arg) {
  if (!arg.endsWith(".json")) return require(path.resolve(arg)).fromPreTrained();
  const { TokenizerLoader } = require("@lenml/tokenizers");
  const configPath = path.join(path.dirname(arg), "tokenizer_config.json");
  return TokenizerLoader.fromPreTrained({
    tokenizerJSON: JSON.parse(fs.readFileSync(arg, "utf8")),
    tokenizerConfig: fs.existsSync(configPath) ? JSON.parse(fs.readFileSync(configPath, "utf8")) : {},
  });
}

const tokenizer = loadTokenizer(tokenizerArg);
const paths = fs.readFileSync(listFile, "utf8").split("\n").filter((line) => line.length > 0);
const out = [];
for (const file of paths) {
  const text = fs.readFileSync(file, "utf8");
  out.push(JSON.stringify(tokenizer.encode(text, { add_special_tokens: false })));
}
fs.writeSync(1, out.join("\n") + "\n");
