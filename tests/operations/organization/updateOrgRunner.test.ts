// updateOrgRunner: enable or disable one of an organization's runners, for every role and status (the cases are shared by the two runner scopes).
import { runnerOperationTests } from '../../helpers/runnerOpTests.js';

runnerOperationTests('updateOrgRunner', 'org', 'Patch', 'PATCH');
