// Starts the real release binary on an ephemeral port with a fresh data directory
// and hands its URL to the tests through the environment.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// Per run, so two runs on one machine do not stop each other's server.
export const stateFile = join(tmpdir(), `registry-chat-e2e-state-${process.pid}.json`);

export default async function globalSetup() {
  const bin = process.env.REGISTRY_CHAT_BIN ?? resolve(__dirname, '../target/release/registry-chat');
  const dataDir = mkdtempSync(join(tmpdir(), 'registry-chat-e2e-'));
  // The real default: the sample registry built into the binary, embedded with
  // MiniLM when scripts/setup has installed it (the hash embedder otherwise).
  // A fixed admin token (16+ characters) turns the admin area on; tests read it back.
  const adminToken = 'e2e-admin-token-0123456789';
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    REGISTRY_CHAT_LOG_LEVEL: 'info',
    // One browser asks every test's questions: lift the per-client rate limit.
    REGISTRY_CHAT_SERVER_TURNS_PER_MINUTE: '600',
    REGISTRY_CHAT_ADMIN_TOKEN: adminToken,
  };
  const model = resolve(__dirname, '../data/models/all-MiniLM-L6-v2');
  if (!env.REGISTRY_CHAT_EMBEDDER_MODEL_DIR && existsSync(join(model, 'model.safetensors'))) {
    env.REGISTRY_CHAT_EMBEDDER_MODEL_DIR = model;
  }
  const indexed = spawnSync(bin, ['index', '--data-dir', dataDir], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  if (indexed.status !== 0) throw new Error(`indexing the sample registry failed (exit ${indexed.status})`);

  const server = spawn(bin, ['serve', '--addr', '127.0.0.1:0', '--data-dir', dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  server.stderr.on('data', (d) => process.stderr.write(`[server] ${d}`));

  const url = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error('server did not start within 30s')), 30_000);
    let out = '';
    server.stdout.on('data', (d) => {
      out += d.toString();
      const m = out.match(/running at (http:\/\/\S+?)\/?\s/);
      if (m) {
        clearTimeout(timer);
        ok(m[1]);
      }
    });
    server.on('exit', (code) => fail(new Error(`server exited early with code ${code}`)));
  });

  process.env.REGISTRY_CHAT_URL = url;
  process.env.REGISTRY_CHAT_E2E_DATA = dataDir;
  process.env.REGISTRY_CHAT_E2E_ADMIN_TOKEN = adminToken;
  writeFileSync(stateFile, JSON.stringify({ pid: server.pid, dataDir, url }));
  server.unref();
  (server.stdout as any).unref?.();
  (server.stderr as any).unref?.();
}
