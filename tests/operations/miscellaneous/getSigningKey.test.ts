// GET /signing-key.gpg: the armored OpenPGP public key of SIGNING_KEY; 404 without one, as Gitea.
import { signingKeyTests } from '../../helpers/signingKey.js';

signingKeyTests('getSigningKey', '/signing-key.gpg');
