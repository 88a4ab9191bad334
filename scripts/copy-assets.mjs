#!/usr/bin/env node
// Runs after tsc: drops the outputs this build no longer emits (scripts/prune-dist.mjs), then copies the
// non-TypeScript assets that the built package reads at run time into dist/.
import { cpSync, existsSync } from "node:fs";
import { resolve } from "node:path";
import { pruneStaleOutputs } from "./prune-dist.mjs";

const root = resolve(import.meta.dirname, "..");
const removed = pruneStaleOutputs(root);
if (removed.length > 0) console.log(`copy-assets: removed ${removed.length} stale file(s) from dist/`);
const assets = ["hank/models/catalog.json"];
for (const asset of assets) {
  const from = resolve(root, "src", asset);
  if (existsSync(from)) cpSync(from, resolve(root, "dist", asset));
}
