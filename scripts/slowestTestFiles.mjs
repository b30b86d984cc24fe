import { relative } from 'node:path';

/**
 * A Vitest reporter that prints, after a run, the ten test files that took longest (their tests
 * and hooks, plus importing them), beside the default reporter: where to look first when the
 * README's test command grows slow.
 */
export default class SlowestTestFiles {
  onTestRunEnd(testModules) {
    const timed = testModules.map((testModule) => {
      const { duration, collectDuration } = testModule.diagnostic();
      return { name: `${testModule.project.name}: ${relative(process.cwd(), testModule.moduleId)}`, ms: duration + collectDuration };
    });
    timed.sort((a, b) => b.ms - a.ms);
    const lines = timed.slice(0, 10).map(({ name, ms }) => `  ${(ms / 1000).toFixed(1).padStart(7)} s  ${name}`);
    if (lines.length > 0) process.stdout.write(`\nThe ten slowest test files:\n${lines.join('\n')}\n`);
  }
}
