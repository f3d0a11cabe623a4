import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoGetEditorConfig: Handler<'repoGetEditorConfig'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const definition = await req.services.contents.editorConfig(loaded, req.path.filepath, req.query.ref ?? undefined);
  return { status: 200, body: definition };
};
