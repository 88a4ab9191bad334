/**
 * The files `hankweave --init` writes: a starter hank with one codon, one loop, their prompts, sample
 * data, a README and a .gitignore. The models are real (Claude Sonnet and Haiku), and every prompt also
 * carries directives for the offline scripted agent, so `hankweave -m scripted --headless` runs the
 * whole hank at once with no API key. Kept as strings so the bundled CLI needs no template files.
 */
export interface StarterFile {
  /** Relative to the directory being initialised, `/`-separated. */
  readonly path: string;
  readonly content: string;
}

const SCHEMA_URL = "https://unpkg.com/hankweave@latest/schemas/hank.schema.json";

const HANK = {
  $schema: SCHEMA_URL,
  meta: {
    name: "My Workflow",
    version: "1.0.0",
    description: "Summarises the notes in data/, then reviews and polishes the summary twice.",
  },
  hank: [
    {
      id: "summarize",
      name: "Summarise the notes",
      model: "sonnet",
      continuationMode: "fresh",
      promptFile: "./prompts/summarize.md",
      checkpointedFiles: ["summary.md"],
    },
    {
      type: "loop",
      id: "polish",
      name: "Review and polish",
      terminateOn: { type: "iterationLimit", limit: 2 },
      codons: [
        {
          id: "review",
          name: "Review and polish the summary",
          model: "haiku",
          continuationMode: "fresh",
          promptFile: "./prompts/review.md",
          onFailure: "retry",
          retryConfig: { maxAttempts: 3 },
          checkpointedFiles: ["summary.md", "review-notes.md"],
          outputFiles: [{ copy: ["summary.md", "review-notes.md"] }],
        },
      ],
    },
  ],
};

const SUMMARIZE_PROMPT = `<!-- Lines starting with @ are directives for the offline scripted agent (-m scripted).
     A real model reads them as a worked example; delete them once you use a real model. -->
Read the text files in <%DATA_DIR%>/data/ and write summary.md in the current
directory: a heading, then one bullet per file with its main point.

@think Three files: two samples and the notes. One bullet each.
@write summary.md # Summary\\n\\n- sample1.txt: the team ships on Fridays.\\n- sample2.txt: the build takes four minutes.\\n- notes.txt: the next review is on the 14th.\\n
@usage input=1200 output=90 cost=0.002
@say I wrote summary.md with one bullet per file.
`;

const REVIEW_PROMPT = `<!-- Runs once per loop iteration (two iterations: see terminateOn in hank.json). -->
Review summary.md: is every bullet short and clear? Note what you changed in
review-notes.md (append one line per review), then improve summary.md.

@append review-notes.md Review done: bullets checked for length and clarity.\\n
@append summary.md \\nReviewed.\\n
@usage input=900 output=40 cost=0.001
@say Reviewed and polished the summary.
`;

const README = `# My Workflow

A starter hank made by \`hankweave --init\`.

- \`hank.json\`: the workflow. A codon (\`summarize\`) writes summary.md from the files in \`data/\`;
  a loop (\`polish\`) reviews and polishes it twice.
- \`prompts/\`: one prompt per codon.
- \`data/\`: sample input. The agents see the data source read-only at \`<%DATA_DIR%>\`.

Try it offline, with no API key (the scripted agent follows the \`@\` lines of each prompt):

    hankweave -m scripted --headless

Check the hank without running it:

    hankweave --validate

Run it with the models in hank.json (needs ANTHROPIC_API_KEY):

    hankweave --headless
`;

const GITIGNORE = `# hankweave state and logs
.hankweave/
.hankweave.backup-*/
*.log
node_modules/
`;

export const STARTER_FILES: readonly StarterFile[] = [
  { path: "hank.json", content: `${JSON.stringify(HANK, null, 2)}\n` },
  { path: "prompts/summarize.md", content: SUMMARIZE_PROMPT },
  { path: "prompts/review.md", content: REVIEW_PROMPT },
  { path: "data/sample1.txt", content: "The team ships a release every Friday afternoon.\n" },
  { path: "data/sample2.txt", content: "A full build and test run takes about four minutes.\n" },
  { path: "data/notes.txt", content: "Next design review: the 14th. Bring the latency figures.\n" },
  { path: "README.md", content: README },
  { path: ".gitignore", content: GITIGNORE },
];
