// The types condition of the `./theme.css` entry: the stylesheet is imported for its side effect
// (`import '@confab/chat-ui/theme.css'`) and exports nothing. With it, TypeScript's
// noUncheckedSideEffectImports and @arethetypeswrong/cli find the entry typed (docs/packages.md).
export {};
