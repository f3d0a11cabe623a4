// A child process that drives the REAL artifact client of GitHub's toolkit, as actions/upload-artifact and
// download-artifact run it inside a job: `@actions/artifact` 2.x (the v4 twirp protocol, ACTIONS_RESULTS_URL)
// or its 1.x line (`@actions/artifact-v1`, the v1–v3 protocol, ACTIONS_RUNTIME_URL + GITHUB_RUN_ID). The
// runtime token and URLs come from the environment exactly as a runner sets them for a task; the command
// is argv[2] as JSON. The library logs to stdout (`::debug::` …), so the answer is the one line that starts
// with RESULT_MARK: the answer of each command of the list in argv[2], in order, stopping at the first
// error (loading the 2.x library takes seconds, so one child runs several calls). Used by tests/integration/artifactToolkit.test.ts through tests/helpers/artifactToolkit.ts.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const RESULT_MARK = '@@artifact-toolkit@@';
const cmds = JSON.parse(process.argv[2]);

async function v4(c) {
  const { DefaultArtifactClient } = require('@actions/artifact');
  const client = new DefaultArtifactClient();
  switch (c.op) {
    case 'upload':
      return client.uploadArtifact(c.name, c.files, c.root, c.retentionDays ? { retentionDays: c.retentionDays } : {});
    case 'list':
      return client.listArtifacts(c.latest ? { latest: true } : {});
    case 'get':
      return client.getArtifact(c.name);
    case 'download':
      return client.downloadArtifact(c.id, { path: c.path });
    case 'delete':
      return client.deleteArtifact(c.name);
  }
  throw new Error(`unknown op ${c.op}`);
}

async function v1(c) {
  const client = require('@actions/artifact-v1').create();
  switch (c.op) {
    case 'upload':
      return client.uploadArtifact(c.name, c.files, c.root, c.retentionDays ? { retentionDays: c.retentionDays } : {});
    case 'download':
      return client.downloadArtifact(c.name, c.path);
    case 'downloadAll':
      return client.downloadAllArtifacts(c.path);
  }
  throw new Error(`unknown op ${c.op}`);
}

const answers = [];
for (const c of cmds) {
  try {
    answers.push({ ok: true, result: await (c.version === 1 ? v1(c) : v4(c)) });
  } catch (err) {
    answers.push({ ok: false, error: String(err?.stack ?? err) });
    break;
  }
}
process.stdout.write(`\n${RESULT_MARK}${JSON.stringify(answers)}\n`);
