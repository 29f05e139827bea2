// The record of uploads for this run's profile and service (src/config/upload-ledger.ts), for the
// commands that upload media: create, schedule (also bulk) and edit.
import type { Context } from './context.js';
import { configDir } from '../config/paths.js';
import { uploadLedger, type UploadLedger } from '../config/upload-ledger.js';

export async function ledgerFor(ctx: Context): Promise<UploadLedger> {
  const profile = await ctx.profile();
  return uploadLedger(configDir(ctx.env), profile.name, profile.baseUrl, () => ctx.clock.now());
}
