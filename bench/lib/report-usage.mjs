// Preloaded (`node --import`) into a process the bench measures from outside: as the process exits it
// prints its peak RSS and its CPU time (user + system) to stderr, where the bench reads them.
process.on("exit", () => {
  const usage = process.resourceUsage();
  process.stderr.write(
    `\nbench-max-rss-kb=${usage.maxRSS}\nbench-cpu-us=${usage.userCPUTime + usage.systemCPUTime}\n`,
  );
});
