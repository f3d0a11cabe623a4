// repoCreateRunnerRegistrationToken: the runner registration token of a repository, for every role and status (the cases are shared by the two runner scopes).
import { runnerOperationTests } from '../../helpers/runnerOpTests.js';

runnerOperationTests('repoCreateRunnerRegistrationToken', 'repo', 'Token', 'POST');
