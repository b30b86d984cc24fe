/**
 * Helpers that read fields out of a parsed request body (JSON, multipart or urlencoded, where
 * form values may already be type-inferred to numbers or booleans).
 */

export type Body = Record<string, unknown>;

export function hasField(body: Body, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(body, key);
}

/** A string field; numbers are accepted because form bodies infer "123" to 123. */
export function readString(body: Body, key: string): string | undefined {
  const value = body[key];
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

export function readBoolean(body: Body, key: string): boolean | undefined {
  const value = body[key];
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 'true' || value === '1') return true;
  if (value === 0 || value === 'false' || value === '0' || value === '') return false;
  return undefined;
}

/** A relation list: an array of ids, one id, or an empty value. Not de-duplicated here. */
export function readIdList(value: unknown): string[] | undefined {
  if (value === null || value === '') return [];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value as string[];
  return undefined;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values.filter((value) => value !== ''))];
}

/**
 * Applies `field`, `+field` (prepend), `field+` (append) and `field-` (remove) from the body to a
 * multi relation, de-duplicated as PocketBase does. Undefined when the body does not touch it;
 * null when a value has the wrong type.
 */
export function applyRelationModifiers(body: Body, field: string, current: readonly string[]): string[] | undefined | null {
  const touched = [field, `+${field}`, `${field}+`, `${field}-`].some((key) => hasField(body, key));
  if (!touched) return undefined;
  let result = [...current];
  if (hasField(body, field)) {
    const replaced = readIdList(body[field]);
    if (replaced === undefined) return null;
    result = replaced;
  }
  if (hasField(body, `+${field}`)) {
    const prepended = readIdList(body[`+${field}`]);
    if (prepended === undefined) return null;
    result = [...prepended, ...result];
  }
  if (hasField(body, `${field}+`)) {
    const appended = readIdList(body[`${field}+`]);
    if (appended === undefined) return null;
    result = [...result, ...appended];
  }
  if (hasField(body, `${field}-`)) {
    const removed = readIdList(body[`${field}-`]);
    if (removed === undefined) return null;
    const removedSet = new Set(removed);
    result = result.filter((id) => !removedSet.has(id));
  }
  return unique(result);
}
