// deleteOrgSecret: delete an organization's Actions secrets, for every role and status (the cases are shared by the three scopes).
import { secretOperationTests } from '../../helpers/actionSettings.js';

secretOperationTests('deleteOrgSecret', 'org', 'Delete');
