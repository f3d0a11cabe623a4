// userUnblockUser: every status and role; the cases are shared with the block operation (tests/helpers/blockOpTests.ts).
import { userBlockOpTests } from '../../helpers/blockOpTests.js';

userBlockOpTests('unblock');
