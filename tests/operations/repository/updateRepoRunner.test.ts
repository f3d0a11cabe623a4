// updateRepoRunner: enable or disable one of a repository's runners, for every role and status (the cases are shared by the two runner scopes).
import { runnerOperationTests } from '../../helpers/runnerOpTests.js';

runnerOperationTests('updateRepoRunner', 'repo', 'Patch', 'PATCH');
