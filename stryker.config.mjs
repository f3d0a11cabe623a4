// `make mutate` (scripts/mutate.ts) runs StrykerJS once per group below (MUTATE_GROUP): the code that
// decides who may do what, each group against the tests that cover it. Stryker's command runner starts
// scripts/mutate-tests.mjs in its sandbox per mutant; the mutants are compiled in all at once (mutation
// switching) and chosen by __STRYKER_ACTIVE_MUTANT__, so the tests are bundled once, in the first run.
// Each group runs only the tests that exercise its code, so that one mutant costs seconds.
const groups = {
  // The access a caller has to a repository, per unit: the pure policy and its property tests.
  'repo-permission': {
    mutate: ['src/permissions/repo.ts'],
    tests: ['tests/unit/repoPermission.test.ts'],
  },
  // The token-scope rule (scopesAllow) and the shared check that applies it (authorize), through HTTP too.
  'token-scope': {
    mutate: ['src/services/users/tokens.ts:17-21'],
    tests: ['tests/unit/tokenScopes.test.ts', 'tests/operations/authentication.test.ts'],
  },
  // Who may see an organisation, its teams and a user.
  visibility: {
    mutate: ['src/permissions/org.ts', 'src/permissions/users.ts'],
    tests: [
      'tests/unit/visibilityPolicy.test.ts',
      'tests/operations/user/userGet.test.ts',
      'tests/operations/organization/orgGet.test.ts',
      'tests/operations/organization/orgGetTeam.test.ts',
      'tests/operations/organization/orgListTeams.test.ts',
    ],
  },
  // Who is calling (Basic, token, Bearer, query tokens, Sudo) and the checks every operation shares.
  auth: {
    mutate: ['src/api/auth.ts'],
    tests: ['tests/unit/authRules.test.ts', 'tests/operations/authentication.test.ts'],
  },
  // Branch protection, which branches a rule names: exact names, globs, their order.
  'branch-rules': {
    mutate: ['src/services/git/branchProtections.ts:17-40'],
    tests: ['tests/unit/branchRules.test.ts', 'tests/integration/branchProtection.test.ts'],
  },
  // Branch protection, who may push, force-push and merge (the whitelists): the unit file with a fake
  // team-membership read, then the HTTP and git tests (about half a minute a mutant).
  'branch-access': {
    mutate: ['src/services/git/branchProtections.ts:199-224'],
    tests: ['tests/unit/branchAccess.test.ts', 'tests/integration/branchProtection.test.ts'],
  },
  // Branch protection, the pre-receive rules of a push (pushRules) and what blocks a merge (mergeBlocker):
  // a unit file with the rules and the membership read faked, no git (milliseconds a mutant).
  'branch-push-merge': {
    mutate: ['src/services/git/branchProtections.ts:230-277'],
    tests: ['tests/unit/branchPushMerge.test.ts'],
  },
};

const name = process.env.MUTATE_GROUP ?? 'repo-permission';
const group = groups[name];
if (!group) throw new Error(`MUTATE_GROUP=${name}: not one of ${Object.keys(groups).join(', ')}`);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: group.mutate,
  testRunner: 'command',
  commandRunner: { command: `node scripts/mutate-tests.mjs ${group.tests.join(' ')}` },
  // Every mutant is a fresh process, so no coverage analysis: each one runs the group's tests (first failure ends it).
  coverageAnalysis: 'off',
  // Two workers on a machine shared with others; the timeout is generous because the load varies.
  concurrency: Number(process.env.MUTATE_CONCURRENCY ?? 2),
  timeoutFactor: 3,
  timeoutMS: 20_000,
  // Not incremental: with the command runner Stryker cannot tell which tests changed, so it would keep a
  // mutant's old result after a new test that kills it.
  incremental: false,
  reporters: ['clear-text', 'json', 'progress'],
  jsonReporter: { fileName: `.mutate/${name}/mutation.json` },
  clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0 },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
  ignorePatterns: ['data', 'dist', '.test-build', '.mutate', '.stryker-tmp', 'bench/results', 'test-output', 'tmp'],
  thresholds: { high: 90, low: 75, break: null },
  plugins: ['@stryker-mutator/*'],
};

export { groups };
