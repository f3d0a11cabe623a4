// getOrgRunners: the runners of an organization, for every role and status (the cases are shared by the two runner scopes).
import { runnerOperationTests } from '../../helpers/runnerOpTests.js';

runnerOperationTests('getOrgRunners', 'org', 'List', 'GET');
