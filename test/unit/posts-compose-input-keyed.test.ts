// A keyed write (every MCP write carries a key) with an absolute time that has passed since the
// first call is sent, so the service replays that call; without a key it is refused first.
import { describe, expect, it } from 'vitest';
import { composeInput } from '../../src/posts/compose-input.js';
import { InvalidInputError } from '../../src/wire/invalid-input.js';

const now = Date.parse('2026-12-01T10:00:00Z');
const input = { platforms: ['bluesky'], text: 'Release 1.4.2 is out', at: '2026-12-01T09:00:00Z' };

describe('composeInput and a time that has passed', () => {
  it('refuses it when nothing would replay the first call', async () => {
    await expect(composeInput(input, { mode: 'schedule', now })).rejects.toBeInstanceOf(InvalidInputError);
  });

  it('sends it when the request is keyed, for the service to replay or refuse', async () => {
    const composed = await composeInput(input, { mode: 'schedule', now, keyed: true });
    expect(composed.at?.iso).toBe('2026-12-01T09:00:00.000Z');
  });
});
