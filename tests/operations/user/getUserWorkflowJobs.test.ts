// getUserWorkflowJobs: the workflow jobs of the signed-in user's repositories, for every role and status.
import { ownerListTests } from '../../helpers/actionLists.js';

ownerListTests('getUserWorkflowJobs', 'user', 'jobs');
