import { defineConfig } from 'tsup';

export default defineConfig({
  // ChatPage is an entry of its own only to steer the chunking: esbuild groups modules by the
  // entries (and dynamic imports) that reach them, and index reaches every module. Without this
  // entry, what the chat page needs at once (Spinner, TimeAgo, the file token …) would share a
  // chunk with the part that also uses it and loads on demand (ChatFilesPanel), so a host's bundler
  // would load that part with the page. ConfabApp is one for the same reason: what it needs at
  // once (its router, layouts, lazyPart, the sign-in guard) would otherwise share chunks with the
  // screens that also use them (the chat page, the sign-in screen), and every host page would
  // download those with the app's start. Hosts import from the index only (package.json exports).
  entry: { index: 'src/index.ts', ChatPage: 'src/screens/ChatPage/ChatPage.tsx', ConfabApp: 'src/app/ConfabApp.tsx' },
  format: ['esm'],
  // Types for the one public entry only.
  dts: { entry: { index: 'src/index.ts' } },
  clean: true,
  sourcemap: true,
  target: 'es2022',
  external: ['react', 'react-dom', '@confab/client'],
});
