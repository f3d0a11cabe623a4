import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoSigningKeySSH: Handler<'repoSigningKeySSH'> = async (req) => {
  await loadRepo(req, req.path.owner, req.path.repo);
  return { status: 200, body: await req.services.commitSigning.publicKey('ssh'), headers: { 'Content-Type': 'text/plain; charset=utf-8' } };
};
