import type { Handler } from '../../types.js';

export const getSigningKeySSH: Handler<'getSigningKeySSH'> = async (req) => {
  return { status: 200, body: req.services.gpgKeys.serverSigningKey('ssh'), headers: { 'Content-Type': 'text/plain; charset=utf-8' } };
};
