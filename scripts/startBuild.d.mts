export const startBuildPackages: readonly string[];
