// One third of the contract test (see suite.ts); three files so the runner can use both cores.
process.env.CONTRACT_SHARD = '1/3';
await import('./suite.js');
