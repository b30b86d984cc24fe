export function linkTargets(markdown: string): string[];
