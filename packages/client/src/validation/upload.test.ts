import { describe, expect, it } from 'vitest';
import { fileExtension, isAudioFile, validateUpload } from './upload';
import { messages } from './messages';

const megabyte = 1024 * 1024;

describe('validateUpload', () => {
  it.each(['a.pdf', 'a.txt', 'a.csv', 'a.json', 'a.md', 'a.docx', 'a.xlsx', 'a.html', 'a.xml', 'a.log', 'REPORT.PDF'])(
    'accepts %s',
    (name) => {
      expect(validateUpload({ name, size: 10 })).toBeNull();
    },
  );

  it('names the extension and the supported formats for others', () => {
    expect(validateUpload({ name: 'setup.exe', size: 10 })).toBe(
      'Unsupported file format: .exe. Supported formats: .pdf, .txt, .csv, .json, .md, .docx, .xlsx, .html, .xml, .log',
    );
    expect(validateUpload({ name: 'song.mp3', size: 10 })?.startsWith('Unsupported file format: .mp3.')).toBe(true);
  });

  it('allows exactly 100 MB and refuses more', () => {
    expect(validateUpload({ name: 'big.csv', size: 100 * megabyte })).toBeNull();
    expect(validateUpload({ name: 'big.csv', size: 100 * megabyte + 1 })).toBe(
      'File big.csv is too large. Maximum size is 100MB.',
    );
  });

  it('formats an upload failure', () => {
    expect(messages.uploadFailed('notes.md', 'Network error')).toBe('Failed to upload notes.md: Network error');
  });
});

describe('file names', () => {
  it.each([
    ['notes.MD', '.md'],
    ['archive.tar.gz', '.gz'],
    ['.bashrc', ''],
    ['README', ''],
    ['trailing.', ''],
  ])('%s has extension %j', (name, extension) => {
    expect(fileExtension(name)).toBe(extension);
  });

  it.each([
    ['a.mp3', true],
    ['a.WAV', true],
    ['a.ogg', true],
    ['a.m4a', true],
    ['a.flac', true],
    ['a.pdf', false],
  ])('%s is audio: %s', (name, expected) => {
    expect(isAudioFile(name)).toBe(expected);
  });
});
