import type { Handler } from '../../types.js';

export const renderMarkdownRaw: Handler<'renderMarkdownRaw'> = async (req) => {
  const html = await req.services.markup.render({ mode: 'markdown', text: req.body }, req.auth.actor);
  return { status: 200, body: html, headers: { 'Content-Type': 'text/html; charset=utf-8' } };
};
