// getOrgWorkflowJobs: the workflow jobs of an organization's repositories, for every role and status.
import { ownerListTests } from '../../helpers/actionLists.js';

ownerListTests('getOrgWorkflowJobs', 'org', 'jobs');
