// GET /repos/{owner}/{repo}/signing-key.pub: the instance's SSH key (anvil has one for every repository)
// to the repository's readers; 404 without one, as Gitea.
import { signingKeyTests } from '../../helpers/signingKey.js';

signingKeyTests('repoSigningKeySSH', '/signing-key.pub', { repo: true });
