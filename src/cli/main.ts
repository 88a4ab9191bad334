#!/usr/bin/env node
// The `hankweave` binary run from the sources (`node --import tsx src/cli/main.ts`). The built bin is
// boot/bin.ts, which loads the same startCli from the CLI's bundle.
import { startCli } from "./start-cli.ts";

process.exitCode = await startCli();
