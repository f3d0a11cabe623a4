import { toNote } from '../../../convert/gitData.js';
import { presentCommits } from '../../../present/commits.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoGetNote: Handler<'repoGetNote'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const opts = { files: req.query.files ?? true, verification: req.query.verification ?? true, stat: true };
  const note = await req.services.gitData.note(loaded, req.path.sha, opts);
  const [commit] = await presentCommits(req, loaded, [note.commit], opts);
  return { status: 200, body: toNote(note.message, commit!) };
};
