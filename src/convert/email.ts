import type { components } from '../../generated/openapi.js';
import type { EmailRecord } from '../services/users/emails.js';

export function toEmail(e: EmailRecord): components['schemas']['Email'] {
  return { email: e.email, verified: e.verified, primary: e.primary, user_id: e.userId, username: e.username };
}
