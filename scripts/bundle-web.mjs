#!/usr/bin/env node
// Bundles the web app (src/web/main.tsx) into one minified script and one stylesheet, plus one HTML page
// per face: dist/web/{app.js, app.css, execution.html, loops.html}. The run server serves
// execution.html under /ui/, the daemon loops.html; both load the same app.js, which reads the face
// from <body data-face>. Nothing is fetched from a CDN: React is bundled in.
//
//   node scripts/bundle-web.mjs [outDir]     (default dist/web)
//
// Tests import `bundleWeb(outDir)` to build into a temporary folder.
import { mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = resolve(import.meta.dirname, "..");

/** The page shell: the app fills <div id="root">; the title is replaced once data arrives. */
function page(face, title) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="app.css">
<script type="module" src="app.js"></script>
</head>
<body data-face="${face}">
<div id="root"></div>
<noscript>This page needs JavaScript.</noscript>
</body>
</html>
`;
}

export async function bundleWeb(outDir = resolve(root, "dist", "web")) {
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: { app: resolve(root, "src", "web", "main.tsx") },
    outdir: outDir,
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    jsx: "automatic",
    sourcemap: false,
    legalComments: "none",
    logLevel: "warning",
    define: { "process.env.NODE_ENV": '"production"' },
  });
  writeFileSync(resolve(outDir, "execution.html"), page("execution", "hankweave: execution"));
  writeFileSync(resolve(outDir, "loops.html"), page("loops", "hankweave: Loops"));
  return outDir;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await bundleWeb(process.argv[2] === undefined ? undefined : resolve(process.argv[2]));
}
