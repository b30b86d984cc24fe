/**
 * Table names for a chat's files: `Sales 2024.csv` → `sales_2024`, snake_case, so people can type
 * them unquoted; a name taken already gets `_2`, `_3`, … in upload order.
 */
export function baseTableName(originalName: string): string {
  const withoutExtension = originalName.replace(/\.[A-Za-z0-9]{1,8}$/, '');
  const snake = withoutExtension
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 48)
    .replace(/_+$/, '');
  if (snake === '') return 'file';
  return /^[0-9]/.test(snake) ? `t_${snake}` : snake;
}

/** Names every file once, in the order given; `taken` is filled as names are handed out. */
export function uniqueTableName(originalName: string, taken: Set<string>): string {
  const base = baseTableName(originalName);
  let name = base;
  for (let suffix = 2; taken.has(name); suffix += 1) name = `${base}_${suffix}`;
  taken.add(name);
  return name;
}

/** An identifier in double quotes, for DDL we write ourselves. */
export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** A string literal in single quotes (file paths handed to DuckDB's readers). */
export function quoteLiteral(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}
