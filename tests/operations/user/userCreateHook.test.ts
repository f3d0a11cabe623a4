// userCreateHook: the signed-in user's webhooks (the cases are shared by the hook scopes).
import { hookOperationTests } from '../../helpers/hookOpTests.js';

hookOperationTests('userCreateHook', 'user', 'Create');
