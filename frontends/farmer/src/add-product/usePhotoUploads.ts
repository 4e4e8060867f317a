// Uploads the chosen photos at once, one request per file, and keeps their tiles' state.
import { useCallback, useEffect, useReducer, useRef } from 'react';
import { useApi, useToast } from '@tuber/ui';
import { API_BASE_URL, useAccessTokenGetter } from '../shared/shellAccess.js';
import { messageOf } from '../shared/messages.js';
import { checkImageSelection, uploadFailureToast } from './imageRules.js';
import { uploadPhoto } from './uploadPhoto.js';
import { noUploads, uploadsReducer } from './uploads.js';

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

export function usePhotoUploads() {
  const api = useApi();
  const toast = useToast();
  const getAccessToken = useAccessTokenGetter();
  const [state, dispatch] = useReducer(uploadsReducer, noUploads);
  const nextKey = useRef(0);
  const running = useRef(new Map<string, AbortController>());

  const abortAll = useCallback(() => {
    for (const controller of running.current.values()) controller.abort();
    running.current.clear();
  }, []);

  useEffect(() => abortAll, [abortAll]);

  const choose = useCallback(
    (files: File[]) => {
      const problem = checkImageSelection(files);
      if (problem) {
        toast.error(problem);
        return;
      }
      abortAll();
      const batch = files.map((file) => ({ file, key: `photo-${++nextKey.current}`, controller: new AbortController() }));
      dispatch({ type: 'chosen', files: batch.map(({ file, key }) => ({ key, name: file.name, size: file.size })) });

      const uploads = batch.map(async ({ file, key, controller }) => {
        running.current.set(key, controller);
        try {
          const image = await uploadPhoto(file, {
            api,
            apiBaseUrl: API_BASE_URL,
            getAccessToken,
            signal: controller.signal,
            onProgress: (loaded, total) => dispatch({ type: 'progress', key, loaded, total }),
          });
          dispatch({ type: 'uploaded', key, image });
          return null;
        } catch (error) {
          if (isAbort(error)) return null;
          const message = messageOf(error);
          dispatch({ type: 'failed', key, message });
          return message;
        } finally {
          running.current.delete(key);
        }
      });

      void Promise.all(uploads).then((results) => {
        if (batch.some(({ controller }) => controller.signal.aborted)) return; // replaced or left the page
        const failure = uploadFailureToast(results.filter((r): r is string => r !== null));
        if (failure) toast.error(failure);
      });
    },
    [abortAll, api, getAccessToken, toast],
  );

  const remove = useCallback((key: string) => {
    running.current.get(key)?.abort();
    running.current.delete(key);
    dispatch({ type: 'removed', key });
  }, []);

  const clear = useCallback(() => {
    abortAll();
    dispatch({ type: 'cleared' });
  }, [abortAll]);

  return { state, choose, remove, clear };
}
