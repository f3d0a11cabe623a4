// deleteRepoRunner: delete a runner of a repository, for every role and status (the cases are shared by the two runner scopes).
import { runnerOperationTests } from '../../helpers/runnerOpTests.js';

runnerOperationTests('deleteRepoRunner', 'repo', 'Delete', 'DELETE');
