import type { Handler } from '../../types.js';

export const getSigningKey: Handler<'getSigningKey'> = async (req) => {
  return { status: 200, body: await req.services.commitSigning.publicKey('openpgp'), headers: { 'Content-Type': 'text/plain; charset=utf-8' } };
};
