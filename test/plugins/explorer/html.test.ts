/** The explorer's HTML builder: every interpolated value is escaped unless it is already markup. */
import t from 'tap';
import { escapeHtml, html, raw, scriptJson } from '../../../plugins/explorer/html.js';

t.test('escapeHtml escapes the five characters that can change markup', async (t) => {
  t.equal(escapeHtml(`<a href="x" title='y'>&</a>`), '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  t.equal(escapeHtml('plain text 123'), 'plain text 123');
});

t.test('html escapes values, keeps markup, joins arrays and drops null, undefined and false', async (t) => {
  const code = '10 STORE("k", "<script>alert(1)</script>")';
  t.equal(
    html`<pre>${code}</pre>`.text,
    '<pre>10 STORE(&quot;k&quot;, &quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;)</pre>',
  );
  t.equal(
    html`<a title="${'" onclick="x'}">`.text,
    '<a title="&quot; onclick=&quot;x">',
    'attributes cannot be closed',
  );
  t.equal(html`<p>${html`<b>${'a&b'}</b>`}</p>`.text, '<p><b>a&amp;b</b></p>', 'nested html is kept');
  t.equal(html`${raw('<hr>')}`.text, '<hr>');
  t.equal(html`<ul>${[1, '<2>'].map((v) => html`<li>${v}</li>`)}</ul>`.text, '<ul><li>1</li><li>&lt;2&gt;</li></ul>');
  t.equal(html`[${null}${undefined}${false}${0}]`.text, '[0]', 'zero is shown, absent values are not');
  t.equal(html`${12345678901234567890n}`.text, '12345678901234567890', 'bigints are written in full');
});

t.test('scriptJson cannot close its script element', async (t) => {
  const text = scriptJson({ note: '</script><script>alert(1)</script>' }).text;
  t.notMatch(text, /<\/script/i);
  t.same(JSON.parse(text), { note: '</script><script>alert(1)</script>' });
});
