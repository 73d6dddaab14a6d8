// The CLI's view of the outside world, injectable for tests.
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  readonly env: NodeJS.ProcessEnv;
}
