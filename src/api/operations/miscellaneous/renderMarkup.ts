import type { Handler } from '../../types.js';

export const renderMarkup: Handler<'renderMarkup'> = async (req) => {
  const b = req.body;
  const html = await req.services.markup.render({ mode: b.Mode, text: b.Text, context: b.Context, filePath: b.FilePath }, req.auth.actor);
  return { status: 200, body: html, headers: { 'Content-Type': 'text/html; charset=utf-8' } };
};
