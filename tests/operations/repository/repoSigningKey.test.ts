// GET /repos/{owner}/{repo}/signing-key.gpg: the instance's OpenPGP key (anvil has one for every
// repository) to the repository's readers; 404 without one, as Gitea.
import { signingKeyTests } from '../../helpers/signingKey.js';

signingKeyTests('repoSigningKey', '/signing-key.gpg', { repo: true });
