// The CLI's view of the outside world, injectable for tests.
export interface CliIo {
  /** Text for a person: main() hands commands writers that turn control characters into U+FFFD (core/text/terminal). */
  stdout(text: string): void;
  stderr(text: string): void;
  /**
   * The writers as given, byte-exact, for what is not text shown to a person as such: a document a command prints
   * for a pipe or a file (`export`), or the command's own cursor controls (eval's progress line). Set by main().
   */
  readonly raw?: { stdout(text: string): void; stderr(text: string): void };
  readonly env: NodeJS.ProcessEnv;
  /**
   * Set only when this process is the CLI's own (not a test's): a big usage scan may then tune V8 for itself (heap.ts);
   * the function returned undoes it.
   */
  readonly beforeBigScan?: () => (() => void) | undefined;
  /** Standard input, whole (`hook` reads the agent's JSON from it); unset: the process's own stdin. */
  readonly readStdin?: () => Promise<string>;
}
