import { defineConfig } from 'tsup';

export default defineConfig({
  // dataWorker: the process each @data job runs in, forked by agents/tools/dataChild.ts.
  entry: { index: 'src/index.ts', bin: 'src/bin.ts', dataWorker: 'src/agents/tools/dataWorker.ts' },
  format: ['esm'],
  dts: { entry: { index: 'src/index.ts' } },
  clean: true,
  sourcemap: true,
  target: 'node20',
  platform: 'node',
  banner: { js: "import { createRequire as __confabCreateRequire } from 'node:module'; const require = __confabCreateRequire(import.meta.url);" },
});
