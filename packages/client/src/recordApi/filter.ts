/**
 * Fills `{:name}` placeholders of a record-API filter with safely quoted values, exactly as the
 * pocketbase SDK's `pb.filter` does (js-sdk 0.28 Client.filter), so a value can never change the
 * shape of the expression:
 * - strings: JSON-quoted (`"it\"s"`), which the server's filter parser reads back unchanged;
 * - numbers and booleans: as written; null and undefined: `null`;
 * - Dates: the record datetime format `"2026-01-01 12:00:00.000Z"` (UTC);
 * - arrays and objects: their JSON as a string literal (`"{\"a\":1}"`), to compare with a JSON field;
 * - anything else (a `toJSON` result): its JSON.
 * A placeholder without a param stays as it is; no params returns the expression unchanged.
 *
 * @example
 * filter('chat = {:chatId} && seq < {:before}', { chatId: 'abc', before: 40 }); // 'chat = "abc" && seq < 40'
 */
export function filter(expression: string, params?: Record<string, unknown>): string {
  if (!params) return expression;
  const names = Object.keys(params);
  if (names.length === 0) return expression;
  const placeholders = new RegExp(names.map((name) => `\\{:${escapeRegExp(name)}\\}`).join('|'), 'g');
  return expression.replace(placeholders, (placeholder) => filterLiteral(params[placeholder.slice(2, -1)]));
}

/** One value as a filter literal (see filter). */
export function filterLiteral(value: unknown): string {
  switch (typeof value) {
    case 'boolean':
    case 'number':
      return String(value);
    case 'string':
      return JSON.stringify(value);
    default: {
      if (value === null || value === undefined) return 'null';
      if (value instanceof Date) return JSON.stringify(value.toISOString().replace('T', ' '));
      const json = JSON.stringify(value);
      return json.startsWith('[') || json.startsWith('{') ? JSON.stringify(json) : json;
    }
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[-[\]/{}()*+?.\\^$|]/g, '\\$&');
}
