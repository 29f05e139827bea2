// The social account on the wire (GET /v1/social-accounts): loose, like every response schema,
// so a service's extra fields are kept; only the id and platform are required, since a client
// must also work with accounts it derived from results.
import * as z from 'zod/mini';

export const socialAccountSchema = z.looseObject({
  id: z.string(),
  platform: z.string(),
  username: z.optional(z.nullable(z.string())),
  displayName: z.optional(z.nullable(z.string())),
  status: z.optional(z.nullable(z.string())),
  isDefault: z.optional(z.nullable(z.boolean())),
  tokenExpiresAt: z.optional(z.nullable(z.string())),
  connectedAt: z.optional(z.nullable(z.string())),
});
export type SocialAccount = z.infer<typeof socialAccountSchema>;

export const socialAccountListSchema = z.looseObject({
  data: z.array(socialAccountSchema),
  meta: z.looseObject({ offset: z.int(), limit: z.int(), total: z.int() }),
});
