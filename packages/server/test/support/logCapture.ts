import { Writable } from 'node:stream';

/** What a server under test logged: pass `stream` as its logger's destination. */
export interface LogCapture {
  stream: Writable;
  /** Everything written, as written. */
  text(): string;
  /** The JSON log lines, parsed. */
  lines(): Record<string, unknown>[];
}

/** A writable stream that keeps every log line it is given. */
export function logCapture(): LogCapture {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      chunks.push(chunk.toString());
      callback();
    },
  });
  const text = () => chunks.join('');
  const lines = () =>
    text()
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { stream, text, lines };
}
