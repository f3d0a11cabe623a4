// deleteOrgVariable: delete an organization's Actions variables, for every role and status (the cases are shared by the three scopes).
import { variableOperationTests } from '../../helpers/actionSettings.js';

variableOperationTests('deleteOrgVariable', 'org', 'Delete');
