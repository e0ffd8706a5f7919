// The page's modules: each imports what it uses (ES modules, no globals shared), and the
// imports never go round in a circle.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const STATIC = join(dirname(fileURLToPath(import.meta.url)), "..", "static");

function modules(folder = STATIC) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === "vendor" ? [] : modules(path);
    return entry.name.endsWith(".js") ? [path] : [];
  });
}

const imports = (path) => [...readFileSync(path, "utf8").matchAll(/^import[^"]*"(\.[^"]+)"/gm)]
  .map((found) => normalize(join(dirname(path), found[1])));

test("no module's imports lead back to it", () => {
  const graph = new Map(modules().map((path) => [path, imports(path).filter((p) => !p.includes("vendor"))]));
  const seen = new Set();
  const visit = (path, trail) => {
    assert.ok(!trail.includes(path), `a circle: ${[...trail, path].map((p) => relative(STATIC, p)).join(" → ")}`);
    if (seen.has(path)) return;
    seen.add(path);
    for (const next of graph.get(path) ?? []) visit(next, [...trail, path]);
  };
  for (const path of graph.keys()) visit(path, []);
  assert.ok(graph.size > 20);
});

test("no module puts anything on window or globalThis", () => {
  for (const path of modules()) {
    const text = readFileSync(path, "utf8");
    assert.doesNotMatch(text, /\b(window|globalThis)\.\w+\s*=[^=]/, relative(STATIC, path));
  }
});

test("each moment of a deal is a module of its own", () => {
  const moments = readdirSync(join(STATIC, "moments")).map((name) => name.replace(/\.js$/, ""));
  for (const moment of ["none", "starter", "play", "count", "muggins", "dispute", "done", "over"]) {
    assert.ok(moments.includes(moment), moment);
  }
});
