// Nutrition values for the chosen tuber type (GET /api/nutrition/:tuberType). A failed lookup leaves them
// empty; choosing "none" clears them; a slow answer for an earlier choice never overwrites a later one.
import { useCallback, useRef, useState } from 'react';
import type { Nutrition, NutritionLookup } from '@tuber/contracts';
import { useApi } from '@tuber/shell-contract';

export type NutritionState =
  | { status: 'empty' }
  | { status: 'loading'; tuberType: string }
  | { status: 'found'; tuberType: string; nutrition: Nutrition; source: NutritionLookup['source'] }
  | { status: 'not-found'; tuberType: string };

export function useNutritionLookup() {
  const api = useApi();
  const [state, setState] = useState<NutritionState>({ status: 'empty' });
  const latest = useRef(0);

  const lookUp = useCallback(
    (tuberType: string) => {
      const request = ++latest.current;
      if (!tuberType) {
        setState({ status: 'empty' });
        return;
      }
      setState({ status: 'loading', tuberType });
      api
        .get<NutritionLookup>(`/nutrition/${encodeURIComponent(tuberType)}`)
        .then((answer) => {
          if (request !== latest.current) return;
          if (answer?.nutrition) setState({ status: 'found', tuberType, nutrition: answer.nutrition, source: answer.source });
          else setState({ status: 'not-found', tuberType });
        })
        .catch(() => {
          if (request === latest.current) setState({ status: 'not-found', tuberType });
        });
    },
    [api],
  );

  const clear = useCallback(() => {
    latest.current++;
    setState({ status: 'empty' });
  }, []);

  const nutrition = state.status === 'found' ? state.nutrition : null;
  return { state, nutrition, lookUp, clear };
}
