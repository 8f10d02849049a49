#!/usr/bin/env node
'use strict';
/**
 * Fails when folders of src/ import each other in a cycle (a → b → … → a), naming one file
 * import per edge so the cycle can be broken. The ESLint layers rule keeps imports going down
 * between layers; this keeps folders within a layer (plugins/queue, plugins/observability, ...)
 * acyclic too. ESLint's own cycle rules work per file, not per folder, hence this small script.
 */
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..', 'src');
const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gmu;

function sourceFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      return sourceFiles(full);
    }
    return entry.name.endsWith('.ts') ? [ full ] : [];
  });
}

function resolveImport(fromFile, specifier) {
  const base = path.resolve(path.dirname(fromFile), specifier);
  for (const candidate of [ base, `${base}.ts`, path.join(base, 'index.ts'), base.replace(/\.js$/u, '.ts') ]) {
    if (candidate.startsWith(root) && fs.existsSync(candidate) && fs.statSync(candidate).isFile()) {
      return candidate;
    }
  }
  return undefined;
}

const folderOf = (file) => path.relative(root, path.dirname(file)) || '.';

/** folder → folder → one example "file imports file". */
function folderGraph(files) {
  const graph = new Map();
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    for (const match of text.matchAll(IMPORT)) {
      const target = resolveImport(file, match[1]);
      if (!target || folderOf(target) === folderOf(file)) {
        continue;
      }
      const edges = graph.get(folderOf(file)) ?? new Map();
      graph.set(folderOf(file), edges);
      if (!edges.has(folderOf(target))) {
        edges.set(folderOf(target), `${path.relative(root, file)} imports ${path.relative(root, target)}`);
      }
    }
  }
  return graph;
}

/** Tarjan's strongly connected components; any component of two or more folders is a cycle. */
function cycles(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  let next = 0;
  const visit = (node) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of (graph.get(node) ?? new Map()).keys()) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node), low.get(target)));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node), index.get(target)));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) {
        found.push(component.sort());
      }
    }
  };
  for (const node of graph.keys()) {
    if (!index.has(node)) {
      visit(node);
    }
  }
  return found;
}

const graph = folderGraph(sourceFiles(root));
const found = cycles(graph);
if (found.length === 0) {
  process.exit(0);
}
for (const component of found) {
  console.error(`Folders import each other in a cycle: ${component.join(', ')}`);
  for (const from of component) {
    for (const [ to, example ] of graph.get(from) ?? []) {
      if (component.includes(to)) {
        console.error(`  ${from} → ${to}: ${example}`);
      }
    }
  }
}
process.exit(1);
