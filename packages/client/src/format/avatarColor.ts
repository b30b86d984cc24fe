/** Agents always get this green (docs/PRODUCT.md §1). */
export const agentAvatarColor = '#16a34a';

/** Person colours, chosen to keep white initials readable; none is green, which marks agents. */
export const avatarPalette = [
  '#2563eb',
  '#7c3aed',
  '#db2777',
  '#dc2626',
  '#ea580c',
  '#ca8a04',
  '#0891b2',
  '#4f46e5',
  '#9333ea',
  '#be123c',
] as const;

/**
 * The avatar colour of an author: green for agents, else a palette colour picked by a stable
 * hash of the author id, so one author keeps one colour everywhere.
 */
export function avatarColor(authorId: string, isAgent = false): string {
  if (isAgent) return agentAvatarColor;
  let hash = 0;
  for (let index = 0; index < authorId.length; index += 1) {
    hash = (hash * 31 + authorId.charCodeAt(index)) | 0;
  }
  return avatarPalette[Math.abs(hash) % avatarPalette.length] ?? avatarPalette[0];
}
