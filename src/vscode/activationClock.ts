// Imported first by extension.ts: its clock starts when the bundle starts loading, before any other module runs.
export const bundleStarted = performance.now();
