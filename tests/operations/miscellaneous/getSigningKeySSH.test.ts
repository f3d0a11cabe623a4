// GET /signing-key.pub: the SSH public key of SIGNING_KEY; 404 without one, as Gitea.
import { signingKeyTests } from '../../helpers/signingKey.js';

signingKeyTests('getSigningKeySSH', '/signing-key.pub');
