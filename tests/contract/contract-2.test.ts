// One fifth of the contract test (see suite.ts); five files so the runner can use both cores and no file
// comes near the runner's per-file time limit with 400-odd operations.
process.env.CONTRACT_SHARD = '2/5';
await import('./suite.js');
