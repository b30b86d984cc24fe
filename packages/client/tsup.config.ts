import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', 'protocol/index': 'src/protocol/index.ts', 'rules/index': 'src/rules/index.ts', 'agent/index': 'src/agent/index.ts' },
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
});
