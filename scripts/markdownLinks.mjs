/**
 * The link targets of a Markdown document outside code (fenced blocks and `inline code` are
 * skipped): [text](target), ![alt](target), reference definitions `[id]: target`, and HTML
 * href/src attributes. Used by the tests that hold READMEs and docs to links that work.
 */
export function linkTargets(markdown) {
  const prose = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
  const targets = [];
  for (const match of prose.matchAll(/!?\[[^\]\n]*\]\(\s*(<[^>\n]*>|[^)\s]+)(?:\s+"[^"]*")?\s*\)/g)) targets.push(match[1].replace(/^<|>$/g, ''));
  for (const match of prose.matchAll(/^\s*\[[^\]\n]+\]:\s*(\S+)/gm)) targets.push(match[1]);
  for (const match of prose.matchAll(/\s(?:href|src)="([^"]+)"/g)) targets.push(match[1]);
  return targets;
}
