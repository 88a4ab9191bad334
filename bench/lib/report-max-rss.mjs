// Preloaded (`node --import`) into a process the bench measures from outside: as the process exits it
// prints its peak RSS to stderr, where the bench reads it.
process.on("exit", () => {
  process.stderr.write(`\nbench-max-rss-kb=${process.resourceUsage().maxRSS}\n`);
});
