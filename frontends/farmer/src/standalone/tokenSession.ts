// Standalone development only: the session a pasted Keycloak access token stands for (the same claims the
// shell reads: docs/api.md, "The access token also carries …").
import type { ShellSession } from '@tuber/shell-contract';

function decodeClaims(token: string): Record<string, unknown> | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(payload.length / 4) * 4, '=');
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const claims: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return typeof claims === 'object' && claims !== null ? (claims as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The signed-in session of a token, or anonymous when it is missing, unreadable or expired. */
export function sessionFromToken(token: string | null, now: Date = new Date()): ShellSession {
  const claims = token ? decodeClaims(token) : null;
  if (!claims) return { status: 'anonymous' };
  if (typeof claims.exp === 'number' && claims.exp * 1000 <= now.getTime()) return { status: 'anonymous' };
  const text = (key: string) => (typeof claims[key] === 'string' ? (claims[key] as string) : '');
  const tuber = Array.isArray(claims.tuber)
    ? claims.tuber.filter((t): t is string => typeof t === 'string')
    : typeof claims.tuber === 'string'
      ? [claims.tuber]
      : [];
  return {
    status: 'signed-in',
    user: {
      id: text('sub'),
      email: text('email'),
      emailVerified: claims.email_verified === true,
      firstname: text('given_name'),
      lastname: text('family_name'),
      phone: text('phone'),
      userType: text('user_type') === 'buyer' ? 'buyer' : 'farmer',
      businessName: text('business_name') || undefined,
      location: text('location') || undefined,
      tuber,
    },
  };
}
