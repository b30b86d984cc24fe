/**
 * A count with its noun in agreement, for every count a screen or an agent shows: one drop, two
 * drops, no drops. The plural is the noun plus 's' unless given.
 *
 * @example
 * countLabel(1, 'drop');             // '1 drop'
 * countLabel(3, 'search', 'searches'); // '3 searches'
 */
export function countLabel(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
