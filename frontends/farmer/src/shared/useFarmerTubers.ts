// The signed-in farmer's own tubers for the tuber-type choice: the session's list at once, then the
// profile service's (the catalog checks against the profile, which may have changed since sign-in).
import { useEffect, useState } from 'react';
import { useApi, useSession } from '@tuber/shell-contract';
import type { FarmerProfile } from './types.js';

export function useFarmerTubers(): string[] {
  const session = useSession();
  const api = useApi();
  const fromSession = session.status === 'signed-in' ? (session.user.tuber ?? []) : [];
  const [fromProfile, setFromProfile] = useState<string[] | null>(null);
  const signedIn = session.status === 'signed-in';

  useEffect(() => {
    if (!signedIn) return;
    let current = true;
    api
      .get<FarmerProfile>('/profile/me')
      .then((profile) => {
        if (current && Array.isArray(profile?.tuber)) setFromProfile(profile.tuber);
      })
      .catch(() => {
        // No profile yet, or the service is away: the session's list stands.
      });
    return () => {
      current = false;
    };
  }, [api, signedIn]);

  return fromProfile ?? fromSession;
}
