// repoTestHook: queue a test delivery of a repository, for every role and status (the cases are shared by the three hook scopes).
import { hookOperationTests } from '../../helpers/hookOpTests.js';

hookOperationTests('repoTestHook', 'repo', 'Test');
