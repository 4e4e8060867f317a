// The signed-in farmer's insights for a window (GET /api/orders/insights?days=7|30), with a reload.
import { useCallback, useEffect, useState } from 'react';
import type { Insights } from '@tuber/contracts';
import { useApi } from '@tuber/shell-contract';
import { messageOf } from '../shared/messages.js';
import { insightsFailedMessage, type InsightWindow } from './insightsView.js';
import { useRetryWhenOnline } from '@tuber/ui';

export type InsightsState =
  { status: 'loading'; previous?: Insights } | { status: 'failed'; message: string } | { status: 'loaded'; insights: Insights };

export function useInsights(days: InsightWindow) {
  const api = useApi();
  const [state, setState] = useState<InsightsState>({ status: 'loading' });
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    let current = true;
    // Switching the window keeps the figures on screen (dimmed) until the new ones arrive.
    setState((before) => ({ status: 'loading', ...(before.status === 'loaded' ? { previous: before.insights } : {}) }));
    api
      .get<Insights>(`/orders/insights?days=${days}`)
      .then((insights) => {
        if (current) setState({ status: 'loaded', insights });
      })
      .catch((error: unknown) => {
        if (current) setState({ status: 'failed', message: insightsFailedMessage(messageOf(error)) });
      });
    return () => {
      current = false;
    };
  }, [api, days, generation]);

  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  // Failed while offline: loads again when the network is back (issue 25).
  useRetryWhenOnline(reload, state.status === 'failed');
  return { state, reload };
}
