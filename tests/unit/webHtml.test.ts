// The pages' HTML helper escapes every interpolated value; the Markdown renderer leaves no live markup.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { html, raw } from '../../src/web/pages/html.js';
import { markdown } from '../../src/web/pages/markdown.js';

test('html: values are escaped, nested html and raw() are not, lists join, null/undefined/false print nothing', () => {
  const name = `<a href="x" onclick='y'>&amp;</a>`;
  assert.is(html`<p title="${name}">${name}</p>`.value, '<p title="&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;">&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;</p>');
  assert.is(html`<ul>${['<1>', html`<li>${'<2>'}</li>`]}</ul>`.value, '<ul>&lt;1&gt;<li>&lt;2&gt;</li></ul>');
  assert.is(html`${raw('<b>ok</b>')}${null}${undefined}${false}${0}`.value, '<b>ok</b>0');
});

test('markdown: raw HTML is text, dangerous links are not links, ordinary Markdown renders', () => {
  const out = markdown([
    '# Title', '', '<script>alert(1)</script>', '', '<img src=x onerror=alert(1)>', '',
    '[a](javascript:alert(1)) [b](JAVASCRIPT:alert(1)) [c](vbscript:x) [d](data:text/html;base64,PHNjcmlwdD4=)',
    '', '![i](javascript:alert(1))', '', '`<code>` and [ok](https://example.com/?a=1&b=2)',
  ].join('\n')).value;
  assert.not.match(out, /<script|<img[^>]*onerror|href="(javascript|vbscript|data):|src="javascript:/i);
  assert.match(out, /<h1>Title<\/h1>/);
  assert.match(out, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  assert.match(out, /<code>&lt;code&gt;<\/code>/);
  assert.match(out, /<a href="https:\/\/example\.com\/\?a=1&amp;b=2" rel="nofollow noopener noreferrer">ok<\/a>/);
});

test.run();
