// updateUserSecret: put the signed-in user's Actions secrets, for every role and status (the cases are shared by the three scopes).
import { secretOperationTests } from '../../helpers/actionSettings.js';

secretOperationTests('updateUserSecret', 'user', 'Put');
