import type { Handler } from '../../types.js';

export const getSigningKeySSH: Handler<'getSigningKeySSH'> = async (req) => {
  return { status: 200, body: await req.services.commitSigning.publicKey('ssh'), headers: { 'Content-Type': 'text/plain; charset=utf-8' } };
};
