/**
 * The `fields` query parameter: a comma list of dot paths, `*` for every key of a level, and
 * the `:excerpt(max,withEllipsis)` modifier on text fields. Applied to each record.
 */

interface FieldNode {
  children: Map<string, FieldNode>;
  excerpt?: { maximum: number; withEllipsis: boolean };
}

function newNode(): FieldNode {
  return { children: new Map() };
}

const excerptPattern = /^(.*):excerpt\(\s*(\d+)\s*(?:,\s*(true|false|1|0|t|f)\s*)?\)$/;

function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const character of text) {
    if (character === '(') depth += 1;
    if (character === ')') depth = Math.max(0, depth - 1);
    if (character === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else {
      current += character;
    }
  }
  parts.push(current);
  return parts.map((part) => part.trim()).filter((part) => part !== '');
}

export function parseFields(fields: string | undefined): FieldNode | undefined {
  if (fields === undefined || fields.trim() === '') return undefined;
  const root = newNode();
  for (const item of splitTopLevel(fields)) {
    const match = excerptPattern.exec(item);
    const path = match?.[1] ?? item;
    let node = root;
    for (const segment of path.split('.')) {
      let child = node.children.get(segment);
      if (child === undefined) {
        child = newNode();
        node.children.set(segment, child);
      }
      node = child;
    }
    if (match !== null) {
      const flag = match[3] ?? 'false';
      node.excerpt = { maximum: Number(match[2]), withEllipsis: ['true', '1', 't'].includes(flag) };
    }
  }
  return root;
}

/** Plain text out of HTML-ish content, whitespace collapsed, cut to `maximum` characters. */
export function excerpt(value: string, maximum: number, withEllipsis: boolean): string {
  const text = value.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
  const characters = [...text];
  if (characters.length <= maximum) return text;
  const cut = characters.slice(0, maximum).join('').trimEnd();
  return withEllipsis ? `${cut}...` : cut;
}

function project(value: unknown, node: FieldNode): unknown {
  if (node.excerpt !== undefined && typeof value === 'string') {
    return excerpt(value, node.excerpt.maximum, node.excerpt.withEllipsis);
  }
  if (node.children.size === 0) return value;
  if (Array.isArray(value)) return value.map((item) => project(item, node));
  if (typeof value !== 'object' || value === null) return value;
  const source = value as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  const everything = node.children.get('*');
  if (everything !== undefined) {
    for (const [key, item] of Object.entries(source)) result[key] = project(item, everything);
  }
  for (const [key, child] of node.children) {
    if (key === '*' || !(key in source)) continue;
    result[key] = project(source[key], child);
  }
  return result;
}

export function applyFields<T>(record: T, fields: FieldNode | undefined): T {
  return fields === undefined ? record : (project(record, fields) as T);
}

export type { FieldNode };
