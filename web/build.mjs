// Bundles the workbench front end with esbuild: src/main.js (+ CodeMirror 6) -> OUT/app.js,
// src/style.css -> OUT/app.css, index.html copied. Run by the CMake build after `npm ci` into the
// build folder:  node web/build.mjs --modules BUILD/web/node_modules --out BUILD/web/dist
import { createRequire } from "node:module";
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  if (i < 0 || i + 1 >= args.length) throw new Error(`build.mjs: ${name} DIR is required`);
  return resolve(args[i + 1]);
};
const modules = opt("--modules");
const out = opt("--out");
const require = createRequire(join(modules, "noop.js"));
const esbuild = require("esbuild");

mkdirSync(out, { recursive: true });
await esbuild.build({
  entryPoints: { app: join(here, "src", "main.js") },
  bundle: true,
  minify: true,
  format: "iife",
  target: ["es2020"],
  outdir: out,
  nodePaths: [modules],
  legalComments: "none",
  logLevel: "warning",
});
await esbuild.build({
  entryPoints: { app: join(here, "src", "style.css") },
  bundle: true,
  minify: true,
  outdir: out,
  logLevel: "warning",
});
copyFileSync(join(here, "index.html"), join(out, "index.html"));
