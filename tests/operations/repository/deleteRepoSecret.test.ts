// deleteRepoSecret: delete a repository's Actions secrets, for every role and status (the cases are shared by the three scopes).
import { secretOperationTests } from '../../helpers/actionSettings.js';

secretOperationTests('deleteRepoSecret', 'repo', 'Delete');
