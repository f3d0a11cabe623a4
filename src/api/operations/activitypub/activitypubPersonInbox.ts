import { NotFound } from '../../../services/errors.js';
import type { Handler } from '../../types.js';

// Gitea serves ActivityPub only with federation enabled; anvil has none, so the answer is Gitea's with it off.
export const activitypubPersonInbox: Handler<'activitypubPersonInbox'> = async () => {
  throw new NotFound();
};
