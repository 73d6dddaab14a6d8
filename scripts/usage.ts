// Dev runner for the usage command: `npx tsx scripts/usage.ts [DIR...] [--json] [--no-cache]`.
import { runUsageCommand } from '../src/node/usage/usageCommand';

runUsageCommand(process.argv.slice(2), {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  env: process.env,
}).then((code) => {
  process.exitCode = code;
});
