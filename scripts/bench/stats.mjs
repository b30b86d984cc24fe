// Percentiles and the printed table.

/** Nearest-rank percentile of an ascending-sorted array. */
export function percentile(sorted, fraction) {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[rank];
}

/** @param {Array<Record<string, string>>} rows */
export function formatTable(rows) {
  const columns = Object.keys(rows[0] ?? {});
  const widths = columns.map((column) => Math.max(column.length, ...rows.map((row) => String(row[column]).length)));
  const line = (cells) => cells.map((cell, index) => String(cell).padEnd(widths[index])).join('  ');
  return [line(columns), line(widths.map((width) => '-'.repeat(width))), ...rows.map((row) => line(columns.map((column) => row[column])))].join('\n');
}

export const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
export const ms = (value) => `${value.toFixed(2)} ms`;
