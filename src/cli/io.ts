// The CLI's view of the outside world, injectable for tests.
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  readonly env: NodeJS.ProcessEnv;
  /**
   * Set only when this process is the CLI's own (not a test's): a big usage scan may then tune V8 for itself (heap.ts);
   * the function returned undoes it.
   */
  readonly beforeBigScan?: () => (() => void) | undefined;
}
