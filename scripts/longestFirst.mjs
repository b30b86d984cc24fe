import { BaseSequencer } from 'vitest/node';

/**
 * The order test files start in, so that two workers finish together: the longest first, and the
 * many short ones last to fill the gaps (a file that starts last and runs long leaves the other
 * worker idle). Vitest's own order runs project by project (alphabetically), so the Storybook
 * file, the longest by far, started only after every server file. On a clean clone Vitest knows
 * no durations, so the projects' kinds decide first: the Storybook file, then the browser
 * end-to-end files, then the server's files with real servers; within a kind, Vitest's order
 * (the last run's durations when it has them, else the larger file first).
 */
const rank = (spec) => {
  const project = spec.project.name;
  if (project === 'storybook') return 0;
  if (project === 'e2e') return 1;
  if (project === 'server' && /[\\/]test[\\/]/.test(spec.moduleId)) return 2;
  if (project === 'packages') return 2;
  return 3;
};

export default class LongestFirst extends BaseSequencer {
  async sort(files) {
    const sorted = await super.sort(files);
    // Array sort is stable: within a rank, Vitest's order stays.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
