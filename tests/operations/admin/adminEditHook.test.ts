// adminEditHook: edit a hook of the site, for every role and status (the cases are shared by the three hook scopes).
import { hookOperationTests } from '../../helpers/hookOpTests.js';

hookOperationTests('adminEditHook', 'admin', 'Edit');
