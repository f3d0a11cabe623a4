// orgListActionsSecrets: list an organization's Actions secrets, for every role and status (the cases are shared by the three scopes).
import { secretOperationTests } from '../../helpers/actionSettings.js';

secretOperationTests('orgListActionsSecrets', 'org', 'List');
