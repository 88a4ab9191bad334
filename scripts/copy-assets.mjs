#!/usr/bin/env node
// Copies the non-TypeScript assets that the built package reads at run time into dist/.
import { cpSync, existsSync } from "node:fs";
import { resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const assets = ["spec/models/catalog.json"];
for (const asset of assets) {
  const from = resolve(root, "src", asset);
  if (existsSync(from)) cpSync(from, resolve(root, "dist", asset));
}
