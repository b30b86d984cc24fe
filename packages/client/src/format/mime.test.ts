import { describe, expect, it } from 'vitest';
import { mimeFromExtension } from './mime';

describe('mimeFromExtension', () => {
  it.each([
    ['report.pdf', 'application/pdf'],
    ['notes.TXT', 'text/plain'],
    ['data.csv', 'text/csv'],
    ['data.json', 'application/json'],
    ['README.md', 'text/markdown'],
    ['letter.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['sheet.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ['index.html', 'text/html'],
    ['feed.xml', 'application/xml'],
    ['server.log', 'text/plain'],
    ['song.mp3', 'audio/mpeg'],
    ['take.wav', 'audio/wav'],
    ['voice.ogg', 'audio/ogg'],
    ['memo.m4a', 'audio/mp4'],
    ['album.flac', 'audio/flac'],
    ['.pdf', 'application/pdf'],
    ['pdf', 'application/pdf'],
    ['setup.exe', 'application/octet-stream'],
    ['constructor', 'application/octet-stream'],
    ['', 'application/octet-stream'],
  ])('%j → %s', (name, expected) => {
    expect(mimeFromExtension(name)).toBe(expected);
  });
});
