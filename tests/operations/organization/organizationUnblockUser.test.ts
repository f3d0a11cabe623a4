// organizationUnblockUser: every status and role; the cases are shared with the block operation (tests/helpers/blockOpTests.ts).
import { orgBlockOpTests } from '../../helpers/blockOpTests.js';

orgBlockOpTests('unblock');
