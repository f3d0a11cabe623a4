// GET /signing-key.pub: anvil signs no commits and has no signing key, so 404, as Gitea without one.
import { signingKeyTests } from '../../helpers/signingKey.js';

signingKeyTests('getSigningKeySSH', '/signing-key.pub');
