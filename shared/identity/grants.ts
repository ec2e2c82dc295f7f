/** POST /v1/auth/token: the grants the token endpoint knows. */
import type { z } from 'zod/mini';
import type { Deps } from '../deps';
import type { TokenResponse } from './access-tokens';
import type { TokenGrantBodySchema } from './auth-schemas';
import { refreshSession } from './sessions';
import { exchangeSsoCode } from './sso/sso-codes';

export async function exchangeGrant(deps: Deps, grant: z.infer<typeof TokenGrantBodySchema>, sourceIp: string): Promise<TokenResponse> {
  switch (grant.grant_type) {
    case 'refresh_token':
      return refreshSession(deps, { refreshToken: grant.refresh_token, workspaceId: grant.workspace_id }, sourceIp);
    case 'sso_code':
      return exchangeSsoCode(deps, grant.code, grant.code_verifier, sourceIp);
  }
}
