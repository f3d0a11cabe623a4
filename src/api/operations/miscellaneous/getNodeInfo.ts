import { NotFound } from '../../../services/errors.js';
import type { Handler } from '../../types.js';

// Gitea serves NodeInfo only with federation enabled; anvil has none, so the answer is Gitea's with it off.
export const getNodeInfo: Handler<'getNodeInfo'> = async () => {
  throw new NotFound();
};
