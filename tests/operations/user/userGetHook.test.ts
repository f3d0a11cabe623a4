// userGetHook: the signed-in user's webhooks (the cases are shared by the hook scopes).
import { hookOperationTests } from '../../helpers/hookOpTests.js';

hookOperationTests('userGetHook', 'user', 'Get');
