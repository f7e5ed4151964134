// Stops the server with SIGTERM (exercising graceful shutdown) and removes its data.
import { readFileSync, rmSync } from 'node:fs';
import { stateFile } from './global-setup';

export default async function globalTeardown() {
  const { pid, dataDir } = JSON.parse(readFileSync(stateFile, 'utf8'));
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    /* already gone */
  }
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(pid, 0);
      await new Promise((r) => setTimeout(r, 100));
    } catch {
      break;
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(stateFile, { force: true });
}
