// getOrgWorkflowRuns: the workflow runs of an organization's repositories, for every role and status.
import { ownerListTests } from '../../helpers/actionLists.js';

ownerListTests('getOrgWorkflowRuns', 'org', 'runs');
