import { BaseSequencer } from 'vitest/node';

/**
 * The order test files start in. Vitest's own groups them by project name, which leaves the
 * browser suites for last: the e2e files (one at a time) and the one storybook file of every
 * story, minutes long each, then run while the other worker has nothing left to do. Started
 * first, they run beside everything else.
 */
const firstProjects = new Set(['storybook', 'e2e']);

export default class BrowserSuitesFirst extends BaseSequencer {
  async sort(files) {
    const sorted = await super.sort(files);
    return [...sorted.filter((file) => firstProjects.has(file.project.name)), ...sorted.filter((file) => !firstProjects.has(file.project.name))];
  }
}
