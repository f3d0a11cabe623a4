import type { Handler } from '../../types.js';

export const renderMarkdown: Handler<'renderMarkdown'> = async (req) => {
  const b = req.body;
  const html = await req.services.markup.renderMarkdown({ mode: b.Mode, text: b.Text, context: b.Context }, req.auth.actor);
  return { status: 200, body: html, headers: { 'Content-Type': 'text/html; charset=utf-8' } };
};
