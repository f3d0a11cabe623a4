// userCreateRunnerRegistrationToken: the signed-in user's runners, for every role and status (the cases are shared by the user runner operations).
import { userRunnerTests } from '../../helpers/userRunners.js';

userRunnerTests('userCreateRunnerRegistrationToken', 'Token', 'POST');
