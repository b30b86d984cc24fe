import { describe, expect, it } from 'vitest';
import { fileExtension, isAllowedUpload, isAudioFile, uploadExtensions, validateUpload } from './upload';
import { messages } from './messages';

const megabyte = 1024 * 1024;

describe('validateUpload', () => {
  it.each(['a.pdf', 'a.txt', 'a.csv', 'a.json', 'a.md', 'a.docx', 'a.xlsx', 'a.html', 'a.xml', 'a.log', 'REPORT.PDF'])(
    'accepts the document %s',
    (name) => {
      expect(validateUpload({ name, size: 10 })).toBeNull();
    },
  );

  it.each(['song.mp3', 'take.wav', 'loop.ogg', 'memo.m4a', 'master.FLAC'])('accepts the audio file %s', (name) => {
    expect(validateUpload({ name, size: 10 })).toBeNull();
    expect(isAllowedUpload(name)).toBe(true);
  });

  it('names the extension and every supported format, audio included, for others', () => {
    const supported = '.pdf, .txt, .csv, .json, .md, .docx, .xlsx, .html, .xml, .log, .mp3, .wav, .ogg, .m4a, .flac';
    expect(validateUpload({ name: 'setup.exe', size: 10 })).toBe(`Unsupported file format: .exe. Supported formats: ${supported}`);
    expect(messages.unsupportedFileFormat('.zip')).toBe(`Unsupported file format: .zip. Supported formats: ${supported}`);
    expect(uploadExtensions.join(', ')).toBe(supported);
    // Image types the server allows besides (its /api/config) are listed after them.
    expect(validateUpload({ name: 'setup.exe', size: 10 }, ['.png', '.webp'])).toBe(`Unsupported file format: .exe. Supported formats: ${supported}, .png, .webp`);
  });

  it('names the whole file name when it has no extension', () => {
    expect(validateUpload({ name: 'Makefile', size: 10 })).toMatch(/^Unsupported file format: Makefile\. Supported formats: /);
    expect(isAllowedUpload('Makefile')).toBe(false);
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
