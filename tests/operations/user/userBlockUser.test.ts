// userBlockUser: every status and role; the cases are shared with the unblock operation (tests/helpers/blockOpTests.ts).
import { userBlockOpTests } from '../../helpers/blockOpTests.js';

userBlockOpTests('block');
