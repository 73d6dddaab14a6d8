// The CLI's main() as a process of its own, for tests that need one (signals, dropped privileges, namespaces).
import { main } from '../../src/cli/main';

main(process.argv.slice(2), { stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s), env: process.env }).then(
  (code) => { process.exitCode = code; },
  (e: unknown) => { process.stderr.write(`context-compactor: ${e instanceof Error ? e.message : String(e)}\n`); process.exitCode = 1; },
);
