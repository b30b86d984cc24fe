import { describe, expect, it } from 'vitest';
import { stripUnsafeCharacters } from './unsafeCharacters';

describe('stripUnsafeCharacters', () => {
  const invisible = [
    ...Array.from({ length: 0x20 }, (_, code) => code),
    ...Array.from({ length: 0x21 }, (_, offset) => 0x7f + offset),
    0x061c, 0x200b, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2060, 0x2066, 0x2067, 0x2068, 0x2069, 0xfeff,
  ];

  it.each(invisible.map((code) => [code.toString(16).padStart(4, '0'), code]))('removes U+%s', (_name, code) => {
    expect(stripUnsafeCharacters(`a${String.fromCharCode(code)}b`)).toBe('ab');
  });

  it('defuses a right-to-left override that disguises an extension', () => {
    expect(stripUnsafeCharacters('x\u202Egpj.html')).toBe('xgpj.html');
  });

  it('keeps every visible character', () => {
    for (const text of ['résumé.txt', '日本語.txt', 'Zoë Ünal', 'שלום', 'مرحبا', '🎉 party', 'emoji 👩\u200d💻', 'می\u200cخواهم', 'a b-c_d.e']) {
      expect(stripUnsafeCharacters(text)).toBe(text);
    }
  });
});
