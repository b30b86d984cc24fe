import { describe, expect, it } from 'vitest';
import { proxiedImageSrc, withImageProxyAccess } from './imageProxy';

describe('image proxy URLs', () => {
  it('rewrites remote http(s) and scheme-relative images only', () => {
    expect(proxiedImageSrc('https://a.example/x.png')).toBe('/api/image-proxy?url=https%3A%2F%2Fa.example%2Fx.png');
    expect(proxiedImageSrc('HTTP://a.example/x.png')).toBe('/api/image-proxy?url=HTTP%3A%2F%2Fa.example%2Fx.png');
    expect(proxiedImageSrc('//a.example/x.png')).toBe('/api/image-proxy?url=https%3A%2F%2Fa.example%2Fx.png');
    for (const untouched of ['/api/files/files/f/x.png', 'x.png', '../x.png', 'data:image/png;base64,AAAA', 'blob:https://a.example/1']) {
      expect(proxiedImageSrc(untouched)).toBe(untouched);
    }
  });

  it('points proxy images at the API origin with a file token', () => {
    const html = '<p><img src="/api/image-proxy?url=https%3A%2F%2Fa.example%2Fx.png" loading="lazy"><img src="/x.png"></p>';
    expect(withImageProxyAccess(html, { baseUrl: 'https://api.example/', token: 'a b' })).toBe(
      '<p><img src="https://api.example/api/image-proxy?token=a%20b&amp;url=https%3A%2F%2Fa.example%2Fx.png" loading="lazy"><img src="/x.png"></p>',
    );
    expect(withImageProxyAccess(html, { token: null })).toBe(html);
    expect(withImageProxyAccess('<p>no images</p>', { token: 't' })).toBe('<p>no images</p>');
  });
});
