// The signed-in farmer's own tubers for the tuber-type choice, and the farm's location for the price guide (issue
// 27): the session's at once, then the profile service's (the catalog checks against the profile, which may have
// changed since sign-in).
import { useEffect, useState } from 'react';
import { useApi, useSession } from '@tuber/shell-contract';
import type { FarmerProfile } from './types.js';

export interface FarmFacts {
  tubers: string[];
  /** The farm's location, when the session or the profile has one. */
  location: string | undefined;
}

export function useFarmProfile(): FarmFacts {
  const session = useSession();
  const api = useApi();
  const user = session.status === 'signed-in' ? session.user : null;
  const [fromProfile, setFromProfile] = useState<FarmerProfile | null>(null);
  const signedIn = session.status === 'signed-in';

  useEffect(() => {
    if (!signedIn) return;
    let current = true;
    api
      .get<FarmerProfile>('/profile/me')
      .then((profile) => {
        if (current && profile && typeof profile === 'object') setFromProfile(profile);
      })
      .catch(() => {
        // No profile yet, or the service is away: the session's facts stand.
      });
    return () => {
      current = false;
    };
  }, [api, signedIn]);

  const location = (fromProfile?.location ?? user?.location)?.trim();
  return {
    tubers: Array.isArray(fromProfile?.tuber) ? fromProfile.tuber : (user?.tuber ?? []),
    location: location || undefined,
  };
}

export const useFarmerTubers = (): string[] => useFarmProfile().tubers;
