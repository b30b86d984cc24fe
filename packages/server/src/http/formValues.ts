/**
 * The typing of form fields (urlencoded and multipart bodies alike), as PocketBase does it: one
 * rule for bodyParsers.ts and uploadParser.ts.
 */

/** Form values: exact "true"/"false" and exact numbers become typed, as PocketBase infers them. */
export function inferFormValue(value: string): unknown {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (/^-?(0|[1-9]\d{0,14})(\.\d+)?$/.test(value) && String(Number(value)) === value) return Number(value);
  return value;
}
