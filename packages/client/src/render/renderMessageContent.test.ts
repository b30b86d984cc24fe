// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { renderMessageContent } from './renderMessageContent';

/** The html of a body that must render as HTML, parsed back into a DOM for structural checks. */
function renderHtml(content: string): { html: string; root: HTMLElement } {
  const rendered = renderMessageContent(content);
  if (rendered.kind !== 'html') throw new Error(`expected html, got ${rendered.kind}`);
  const root = document.createElement('div');
  root.innerHTML = rendered.html;
  return { html: rendered.html, root };
}

describe('renderMessageContent: markdown', () => {
  it('renders GFM with line breaks', () => {
    const { root } = renderHtml('**bold** _it_ ~~gone~~\nnext line\n\n| a | b |\n|---|:-:|\n| 1 | 2 |');
    expect(root.querySelector('strong')?.textContent).toBe('bold');
    expect(root.querySelector('em')?.textContent).toBe('it');
    expect(root.querySelector('del')?.textContent).toBe('gone');
    expect(root.querySelector('br')).not.toBeNull();
    expect(root.querySelectorAll('td')).toHaveLength(2);
  });

  it('keeps language classes on code blocks and nothing else', () => {
    const { root } = renderHtml('```ts\nconst a = 1;\n```\n\n<div class="fixed inset-0">x</div>');
    expect(root.querySelector('code')?.className).toBe('language-ts');
    expect(root.querySelector('div')?.hasAttribute('class')).toBe(false);
  });

  it('turns task-list checkboxes into glyphs, never form controls', () => {
    const { root } = renderHtml('- [x] done\n- [ ] todo');
    expect(root.querySelector('input')).toBeNull();
    expect(root.textContent).toContain('\u2611 done');
    expect(root.textContent).toContain('\u2610 todo');
  });
});

describe('renderMessageContent: sanitising', () => {
  it('forbids style and onload and every event handler', () => {
    const { html } = renderHtml('<p style="color:red" onload="x()" onclick="y()" onmouseover="z()">hi</p>');
    expect(html).toBe('<p>hi</p>');
  });

  it('drops script, style, iframe, form, svg and math', () => {
    const { root } = renderHtml(
      '<script>alert(1)</script><style>*{}</style><iframe src="https://x"></iframe>' +
        '<form action="https://x"><input name="a"><button>go</button></form><svg><circle/></svg><math><mi>x</mi></math>ok',
    );
    for (const tag of ['script', 'style', 'iframe', 'form', 'input', 'button', 'svg', 'math']) {
      expect(root.querySelector(tag), tag).toBeNull();
    }
    expect(root.textContent).toContain('ok');
  });

  it('allows only http(s), mailto and relative URLs', () => {
    const { root } = renderHtml(
      '<a href="https://a.example/x">1</a><a href="mailto:a@b.c">2</a><a href="/rel">3</a>' +
        '<a href="javascript:alert(1)">4</a><a href="java\tscript:alert(1)">5</a><a href="data:text/html,x">6</a>' +
        '<a href="vbscript:x">7</a><img src="data:image/png;base64,AAAA"><img src="https://a.example/i.png">',
    );
    const hrefs = [...root.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(hrefs).toEqual(['https://a.example/x', 'mailto:a@b.c', '/rel', null, null, null, null]);
    const srcs = [...root.querySelectorAll('img')].map((img) => img.getAttribute('src'));
    expect(srcs).toEqual([null, '/api/image-proxy?url=https%3A%2F%2Fa.example%2Fi.png']);
  });

  it('opens links in a new tab without opener or referrer, whatever the author wrote', () => {
    const { root } = renderHtml('[x](https://a.example) <a href="https://b.example" target="_self" rel="opener">y</a>');
    for (const link of root.querySelectorAll('a')) {
      expect(link.getAttribute('target')).toBe('_blank');
      expect(link.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    }
  });

  it('makes every image lazy, from markdown and from HTML', () => {
    const { root } = renderHtml('![a](https://a.example/a.png) <img src="/b.png" loading="eager" srcset="https://evil 2x">');
    const images = [...root.querySelectorAll('img')];
    expect(images).toHaveLength(2);
    for (const image of images) {
      expect(image.getAttribute('loading')).toBe('lazy');
      expect(image.hasAttribute('srcset')).toBe(false);
    }
  });

  it('loads remote images through the image proxy; relative images stay as they are', () => {
    const { root } = renderHtml('![a](https://cats.example/a.png?x=1&y=2) <img src="http://dogs.example/b.gif"> <img src="//cdn.example/c.webp"> <img src="/api/files/files/f1/d.png"> <img src="data:image/png;base64,AAAA">');
    const srcs = [...root.querySelectorAll('img')].map((image) => image.getAttribute('src'));
    expect(srcs).toEqual([
      `/api/image-proxy?url=${encodeURIComponent('https://cats.example/a.png?x=1&y=2')}`,
      `/api/image-proxy?url=${encodeURIComponent('http://dogs.example/b.gif')}`,
      `/api/image-proxy?url=${encodeURIComponent('https://cdn.example/c.webp')}`,
      '/api/files/files/f1/d.png',
      null, // data: images were never allowed (only http(s) and relative)
    ]);
    // Links are not images: they stay as written.
    expect(renderHtml('[x](https://cats.example/a.png)').root.querySelector('a')?.getAttribute('href')).toBe('https://cats.example/a.png');
  });

  it('drops id and name (DOM clobbering) and data-* attributes', () => {
    const { html } = renderHtml('<img src="/x.png" id="cookie" name="getElementById" data-x="1">');
    expect(html).not.toMatch(/\b(id|name|data-x)=/);
  });
});

describe('renderMessageContent: search results', () => {
  const body = {
    type: 'search_results',
    query_summary: 'cats',
    total_results: 1,
    searches_performed: 2,
    created_at: '2026-01-01T00:00:00Z',
    results: [{ title: 'Cats', url: 'https://cats.example/a', domain: 'cats.example', snippet: 's', rank: 1 }],
  };

  it('returns the validated data', () => {
    const rendered = renderMessageContent(JSON.stringify(body));
    expect(rendered).toEqual({ kind: 'search_results', data: body });
  });

  it('falls back to text when the search result is malformed', () => {
    const bad = JSON.stringify({ ...body, results: [{ title: 'x', url: 'javascript:alert(1)' }] });
    expect(renderMessageContent(bad)).toEqual({ kind: 'text', text: bad });
  });

  it('renders other JSON as markdown', () => {
    expect(renderMessageContent('{"type":"other"}').kind).toBe('html');
  });
});

describe('renderMessageContent: caching', () => {
  it('returns the same result object for the same body', () => {
    const body = `cached ${Math.random()}`;
    expect(renderMessageContent(body)).toBe(renderMessageContent(body));
  });
});
