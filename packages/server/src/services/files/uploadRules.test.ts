import { describe, expect, it } from 'vitest';
import { contentDisposition, parseRange } from '../../http/fileRoutes';
import {
  cleanOriginalName,
  contentMatchesExtension,
  refuseContent,
  refuseExtension,
  storedFileName,
  storedFileNamePattern,
  uploadExtension,
} from './uploadRules';

const bytes = (text: string) => Buffer.from(text, 'latin1');

describe('cleanOriginalName', () => {
  it.each([
    ['../../x.txt', 'x.txt'],
    ['C:\\Users\\a\\report.pdf', 'report.pdf'],
    ['/etc/passwd.txt', 'passwd.txt'],
    ['..', 'file'],
    ['', 'file'],
    ['tab\there.txt', 'tabhere.txt'],
    ['...hidden.md', 'hidden.md'],
    ['nul\u0000byte.txt', 'nulbyte.txt'],
    ['line\r\nbreak.txt', 'linebreak.txt'],
    ['c1\u0085\u009bcontrols.txt', 'c1controls.txt'],
    ['x\u202Egpj.html', 'xgpj.html'],
    ['\u2066report\u2069\u200E\u200F\u061C.pdf', 'report.pdf'],
    ['zero\u200B\u2060width\uFEFF.md', 'zerowidth.md'],
    ['..\u200B/escape.txt', 'escape.txt'],
    ['\u200B.hidden.txt', 'hidden.txt'],
    ['résumé.txt', 'résumé.txt'],
    ['日本語.txt', '日本語.txt'],
    ['🎉 party.md', '🎉 party.md'],
    ['שלום.txt', 'שלום.txt'],
  ])('%j → %j', (input, expected) => {
    expect(cleanOriginalName(input)).toBe(expected);
  });

  it('keeps the extension when it cuts a long name to 255 characters', () => {
    const cleaned = cleanOriginalName(`${'n'.repeat(400)}.csv`);
    expect(cleaned).toHaveLength(255);
    expect(cleaned.endsWith('.csv')).toBe(true);
  });
});

describe('refuseExtension and refuseContent', () => {
  it('judge the extension of the cleaned name, with the field errors of a failed create', () => {
    expect(uploadExtension('Report.PDF')).toBe('.pdf');
    expect(uploadExtension('x\u202Egpj.html')).toBe('.html');
    expect(uploadExtension('Makefile')).toBe('');
    expect(refuseExtension('.pdf')).toBeUndefined();
    const exe = refuseExtension('.exe');
    expect(exe?.status).toBe(400);
    expect(exe?.data['file']?.code).toBe('validation_invalid_file_type');
    expect(refuseExtension('')?.message).toMatch(/^Unsupported file format: \(none\)\./);
    expect(refuseContent('.pdf', bytes('%PDF-1.7\n'), true)).toBeUndefined();
    const html = refuseContent('.pdf', bytes('<!doctype html>'), true);
    expect(html?.message).toBe('The file content does not match its .pdf extension.');
    expect(html?.data['file']?.code).toBe('validation_invalid_file_content');
  });
});

describe('storedFileName', () => {
  it('is PocketBase-shaped and never carries path characters', () => {
    for (const name of ['Report (Final).PDF', '%2e%2e%2f.txt', 'ünïcode.md', `${'x'.repeat(300)}.log`]) {
      const stored = storedFileName(cleanOriginalName(name));
      expect(stored).toMatch(storedFileNamePattern);
    }
    expect(storedFileName('Report (Final).pdf')).toMatch(/^report_final_[a-z0-9]{10}\.pdf$/);
  });
});

describe('contentMatchesExtension', () => {
  it.each([
    ['.pdf', bytes('%PDF-1.7\n'), true],
    ['.pdf', bytes('<!doctype html><script>'), false],
    ['.docx', bytes('PK\u0003\u0004rest'), true],
    ['.xlsx', bytes('%PDF-'), false],
    ['.mp3', bytes('ID3\u0004'), true],
    ['.mp3', Buffer.from([0xff, 0xfb, 0x90, 0x00]), true],
    ['.mp3', bytes('hello'), false],
    ['.wav', bytes('RIFF\u0000\u0000\u0000\u0000WAVEfmt '), true],
    ['.ogg', bytes('OggS'), true],
    ['.flac', bytes('fLaC'), true],
    ['.m4a', bytes('\u0000\u0000\u0000\u0020ftypM4A '), true],
    ['.txt', bytes('plain words\n'), true],
    ['.txt', Buffer.from([0x41, 0x00, 0x42]), false],
    ['.txt', Buffer.from([0xc3, 0x28]), false],
    ['.csv', bytes('<html><body>'), false],
    ['.md', bytes('# Title\n<div>inline html is fine later</div>'), true],
    ['.json', bytes('{"a":1}'), true],
    ['.html', bytes('<!doctype html>'), true],
    ['.exe', bytes('MZ'), false],
  ])('%s %j → %s', (extension, head, expected) => {
    expect(contentMatchesExtension(extension, head, true)).toBe(expected);
  });

  it('accepts a text head cut in the middle of a multi-byte character when the file goes on', () => {
    const cut = Buffer.from('héllo', 'utf8').subarray(0, 2);
    expect(contentMatchesExtension('.txt', cut, false)).toBe(true);
    expect(contentMatchesExtension('.txt', cut, true)).toBe(false);
  });
});

describe('parseRange', () => {
  it.each([
    [undefined, 100, undefined],
    ['bytes=0-9', 100, { start: 0, end: 9 }],
    ['bytes=90-', 100, { start: 90, end: 99 }],
    ['bytes=-10', 100, { start: 90, end: 99 }],
    ['bytes=50-500', 100, { start: 50, end: 99 }],
    ['bytes=100-', 100, 'unsatisfiable'],
    ['bytes=9-1', 100, 'unsatisfiable'],
    ['bytes=0-1,5-6', 100, undefined],
    ['items=0-1', 100, undefined],
  ] as const)('%j of %i → %j', (header, size, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });
});

describe('contentDisposition', () => {
  it('quotes a safe ASCII fallback and carries the exact name encoded', () => {
    expect(contentDisposition('attachment', 'a "b".txt')).toBe(`attachment; filename="a _b_.txt"; filename*=UTF-8''a%20%22b%22.txt`);
    expect(contentDisposition('inline', 'résumé.pdf')).toBe(`inline; filename="r_sum_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`);
  });
});
