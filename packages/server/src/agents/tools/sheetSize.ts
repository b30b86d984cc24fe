/**
 * The size of a spreadsheet, measured in its zip before any reader expands it (docs/SECURITY.md
 * H10). Readers such as read-excel-file fill every empty cell between A1 and the farthest cell, so
 * a 1.5 KB file with cells A1 and XFD100000 becomes 1.6 billion of them. The first sheet's XML is
 * streamed, never held: its declared `<dimension>`, the farthest cell and the number of cells are
 * checked against caps, and so is the size everything unpacks to.
 */
import { createReadStream } from 'node:fs';
import { Unzip, UnzipInflate, type UnzipFile } from 'fflate';

export interface SheetLimits {
  /** Rows, the header row included. */
  rows: number;
  columns: number;
  /** Rows × columns of the sheet's area (every empty cell in it is filled when read). */
  cells: number;
  /** The XML of the whole workbook, unpacked. */
  unpackedBytes: number;
}

export const defaultSheetLimits: SheetLimits = { rows: 100_000, columns: 1_000, cells: 2_000_000, unpackedBytes: 256 * 1024 * 1024 };

/** A tag longer than this is not a real cell; a longer one hiding a cell reference is refused. */
const maxTagLength = 64 * 1024;
/** Workbook and relationship parts are small; anything bigger is not read as text. */
const maxPartLength = 4 * 1024 * 1024;

const number = (value: number) => value.toLocaleString('en-US');

export function limitsText(limits: SheetLimits): string {
  return `@data loads sheets of at most ${number(limits.rows)} rows, ${number(limits.columns)} columns and ${number(limits.cells)} cells (save bigger ones as CSV)`;
}

/** `XFD100000` → column 16384, row 100000; a part left out is 0. */
export function cellPosition(reference: string): { column: number; row: number } {
  const match = /^\$?([A-Za-z]{0,3})\$?(\d{0,7})$/.exec(reference.trim());
  if (match === null) return { column: 0, row: 0 };
  let column = 0;
  for (const letter of (match[1] ?? '').toUpperCase()) column = column * 26 + (letter.charCodeAt(0) - 64);
  return { column, row: Number(match[2] || 0) };
}

export function columnName(column: number): string {
  let name = '';
  for (let rest = column; rest > 0; rest = Math.floor((rest - 1) / 26)) name = String.fromCharCode(65 + ((rest - 1) % 26)) + name;
  return name;
}

const tagPattern = /<(?:[A-Za-z_][\w.-]*:)?(c|row|dimension)(?=[\s/>])([^>]*)>/g;
const openCountedTag = /^<(?:[A-Za-z_][\w.-]*:)?(c|row|dimension)(?=[\s/>])/;

/** Counts one sheet's cells and extent from its XML as it streams past. */
class SheetScan {
  declared: { rows: number; columns: number; ref: string } | undefined;
  rows = 0;
  columns = 0;
  cells = 0;
  malformed = false;
  private row = 0;
  private column = 0;
  private carry = '';
  private readonly decoder = new TextDecoder();

  push(bytes: Uint8Array, final: boolean): void {
    const text = this.carry + this.decoder.decode(bytes, { stream: !final });
    // Tags never contain '<', so everything before the last one holds only complete tags.
    const cut = final ? text.length : text.lastIndexOf('<');
    const complete = cut < 0 ? text : text.slice(0, cut);
    this.carry = cut < 0 ? '' : text.slice(cut);
    if (this.carry.length > maxTagLength) {
      // A long text node is harmless; a cell or row tag this long is an attempt to hide one.
      if (openCountedTag.test(this.carry)) this.malformed = true;
      this.carry = this.carry.slice(0, maxTagLength);
    }
    for (const match of complete.matchAll(tagPattern)) this.tag(match[1]!, match[2]!);
  }

  private tag(name: string, attributes: string): void {
    if (name === 'dimension') {
      const ref = /\sref\s*=\s*"([^"]*)"/.exec(attributes)?.[1] ?? '';
      const end = cellPosition(ref.split(':').at(-1) ?? '');
      this.declared = { rows: end.row, columns: end.column, ref };
      return;
    }
    const reference = /\sr\s*=\s*"([^"]*)"/.exec(attributes)?.[1];
    if (name === 'row') {
      this.row = reference === undefined ? this.row + 1 : Number(reference) || this.row + 1;
      this.column = 0;
      this.rows = Math.max(this.rows, this.row);
      return;
    }
    const position = reference === undefined ? { column: 0, row: 0 } : cellPosition(reference);
    this.column = position.column || this.column + 1;
    this.cells += 1;
    this.rows = Math.max(this.rows, position.row || this.row);
    this.columns = Math.max(this.columns, this.column);
  }
}

/** The path of the workbook's first sheet, from workbook.xml and its relationships. */
function firstSheetPath(workbook: string | undefined, relationships: string | undefined): string | undefined {
  const id = /<(?:\w+:)?sheet\s[^>]*?\b\w+:id\s*=\s*"([^"]+)"/.exec(workbook ?? '')?.[1];
  if (id === undefined || relationships === undefined) return undefined;
  for (const match of relationships.matchAll(/<(?:\w+:)?Relationship\s([^>]*)>/g)) {
    const attributes = match[1] ?? '';
    if (/\bId\s*=\s*"([^"]+)"/.exec(attributes)?.[1] !== id) continue;
    const target = /\bTarget\s*=\s*"([^"]+)"/.exec(attributes)?.[1] ?? '';
    return target.startsWith('/') ? target.slice(1) : `xl/${target.replace(/^\.\//, '')}`;
  }
  return undefined;
}

function sheetRefusalOf(scan: SheetScan, limits: SheetLimits): string | undefined {
  const tooBig = (rows: number, columns: number) => rows > limits.rows || columns > limits.columns || rows * columns > limits.cells;
  if (scan.malformed) return `its sheet has a cell or row tag longer than ${maxTagLength / 1024} KB; ${limitsText(limits)}`;
  const declared = scan.declared;
  if (declared !== undefined && tooBig(declared.rows, declared.columns)) {
    // The reference is the file's text: shown only when it is a plain range.
    const shown = /^[A-Za-z0-9$:]{1,32}$/.test(declared.ref) ? ` (${declared.ref})` : '';
    return `its sheet declares ${number(declared.rows)} rows × ${number(declared.columns)} columns${shown}; ${limitsText(limits)}`;
  }
  if (tooBig(scan.rows, scan.columns)) {
    return `its sheet has cells out to row ${number(scan.rows)} and column ${number(scan.columns)} (${columnName(scan.columns)}${scan.rows}); ${limitsText(limits)}`;
  }
  if (scan.cells > limits.cells) return `its sheet has more than ${number(limits.cells)} cells; ${limitsText(limits)}`;
  return undefined;
}

/**
 * Why @data will not load this .xlsx (worded for the chat, after "could not be loaded: "), or
 * undefined when its first sheet is within `limits`. Reads the file once, holding only counts.
 */
export async function sheetRefusal(path: string, limits: SheetLimits = defaultSheetLimits): Promise<string | undefined> {
  const scans = new Map<string, SheetScan>();
  const parts = new Map<string, string>();
  let unpacked = 0;
  let failure: string | undefined;
  const unzip = new Unzip((file: UnzipFile) => {
    const name = file.name.replace(/^\/+/, '');
    const isSheet = /^xl\/worksheets\/[^/]+\.xml$/i.test(name);
    const isPart = name === 'xl/workbook.xml' || name === 'xl/_rels/workbook.xml.rels';
    if (!isSheet && !isPart && !/\.(xml|rels)$/i.test(name)) return;
    const scan = isSheet ? new SheetScan() : undefined;
    if (scan !== undefined) scans.set(name, scan);
    const decoder = new TextDecoder();
    let text = '';
    file.ondata = (error, data, final) => {
      if (failure !== undefined) return;
      if (error) {
        failure = `it is not a readable .xlsx (${error.message})`;
        return;
      }
      unpacked += data.length;
      if (unpacked > limits.unpackedBytes) {
        failure = `it unpacks to more than ${number(Math.round(limits.unpackedBytes / 1024 / 1024))} MB; ${limitsText(limits)}`;
        return;
      }
      scan?.push(data, final);
      if (isPart && text.length < maxPartLength) text += decoder.decode(data, { stream: !final });
      if (isPart && final) parts.set(name, text);
    };
    try {
      file.start();
    } catch (error) {
      failure = `it is not a readable .xlsx (${error instanceof Error ? error.message : String(error)})`;
    }
  });
  unzip.register(UnzipInflate);
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: 64 * 1024 })) {
      unzip.push(chunk as Buffer);
      if (failure !== undefined) return failure;
    }
    unzip.push(new Uint8Array(0), true);
  } catch (error) {
    return `it is not a readable .xlsx (${error instanceof Error ? error.message : String(error)})`;
  }
  if (failure !== undefined) return failure;
  if (scans.size === 0) return 'it is not a readable .xlsx (it holds no worksheet)';
  const first = firstSheetPath(parts.get('xl/workbook.xml'), parts.get('xl/_rels/workbook.xml.rels'));
  // Without a readable first sheet every sheet must pass: the reader may pick any of them.
  const candidates = first !== undefined && scans.has(first) ? [scans.get(first)!] : [...scans.values()];
  for (const scan of candidates) {
    const refusal = sheetRefusalOf(scan, limits);
    if (refusal !== undefined) return refusal;
  }
  return undefined;
}
