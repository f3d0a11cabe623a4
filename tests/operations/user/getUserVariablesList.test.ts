// getUserVariablesList: list the signed-in user's Actions variables, for every role and status (the cases are shared by the three scopes).
import { variableOperationTests } from '../../helpers/actionSettings.js';

variableOperationTests('getUserVariablesList', 'user', 'List');
