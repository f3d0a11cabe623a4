// orgListHookDeliveries: list a hook's deliveries of an organisation, for every role and status (the cases are shared by the three hook scopes).
import { hookOperationTests } from '../../helpers/hookOpTests.js';

hookOperationTests('orgListHookDeliveries', 'org', 'ListDeliveries');
