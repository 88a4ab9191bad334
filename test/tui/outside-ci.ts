/**
 * The TUI tests check what ink draws live. ink draws only the final frame when the environment says
 * CI (it reads CI and CONTINUOUS_INTEGRATION once, when it loads), so a test file that draws through
 * ink imports this module first: its tests then describe the TUI on a developer's terminal, wherever
 * they run.
 */
delete process.env.CI;
delete process.env.CONTINUOUS_INTEGRATION;
