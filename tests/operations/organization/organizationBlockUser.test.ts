// organizationBlockUser: every status and role; the cases are shared with the unblock operation (tests/helpers/blockOpTests.ts).
import { orgBlockOpTests } from '../../helpers/blockOpTests.js';

orgBlockOpTests('block');
