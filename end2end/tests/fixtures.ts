import { test as base, expect } from '@playwright/test';

// The server URL comes from global setup (an ephemeral port).
export const test = base.extend({
  baseURL: async ({}, use) => {
    const url = process.env.REGISTRY_CHAT_URL;
    if (!url) throw new Error('REGISTRY_CHAT_URL is not set: global setup did not run');
    await use(url);
  },
});

export { expect };
