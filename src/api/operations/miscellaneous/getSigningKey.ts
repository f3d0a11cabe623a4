import type { Handler } from '../../types.js';

export const getSigningKey: Handler<'getSigningKey'> = async (req) => {
  return { status: 200, body: req.services.gpgKeys.serverSigningKey('openpgp'), headers: { 'Content-Type': 'text/plain; charset=utf-8' } };
};
