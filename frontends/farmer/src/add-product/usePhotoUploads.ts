// Uploads each pick of photos at once, one request per file, and keeps the tiles' state: picks add to the
// photos already there, a photo can be removed (its upload is cancelled) or moved first (the cover). A photo
// larger than needed is made smaller first (resizePhoto.ts), one at a time, so a low-end phone decodes only
// one big photo at once.
import { useCallback, useEffect, useReducer, useRef } from 'react';
import { useApi, useToast } from '@tuber/shell-contract';
import { API_BASE_URL, useAccessTokenGetter } from '../shared/shellAccess.js';
import { messageOf } from '../shared/messages.js';
import { pickPhotos, uploadFailureToast } from './imageRules.js';
import { preparePhoto } from './resizePhoto.js';
import { uploadPhoto } from './uploadPhoto.js';
import { countedPhotos, noUploads, uploadsReducer, type PhotoImage } from './uploads.js';

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

export function usePhotoUploads() {
  const api = useApi();
  const toast = useToast();
  const getAccessToken = useAccessTokenGetter();
  const [state, dispatch] = useReducer(uploadsReducer, noUploads);
  const nextKey = useRef(0);
  const running = useRef(new Map<string, AbortController>());
  const mounted = useRef(true);
  // The count a pick is checked against must include picks made before this render caught up.
  const counted = useRef(0);
  counted.current = countedPhotos(state);
  // Resizes run one after the other (each holds a decoded photo in memory); uploads then run side by side.
  const resizing = useRef<Promise<unknown>>(Promise.resolve());

  const abortAll = useCallback(() => {
    for (const controller of running.current.values()) controller.abort();
    running.current.clear();
  }, []);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      abortAll();
    };
  }, [abortAll]);

  const choose = useCallback(
    (picked: File[]) => {
      // Every photo that fits is added; the rest are named in one toast (issue 25).
      const { take: files, notice } = pickPhotos(picked, counted.current);
      if (notice) toast.error(notice);
      if (files.length === 0) return;
      counted.current += files.length;
      const batch = files.map((file) => ({ file, key: `photo-${++nextKey.current}`, controller: new AbortController() }));
      dispatch({ type: 'chosen', files: batch.map(({ file, key }) => ({ key, name: file.name, size: file.size })) });

      const uploads = batch.map(async ({ file, key, controller }) => {
        running.current.set(key, controller);
        try {
          const prepared = resizing.current.then(() => preparePhoto(file, controller.signal));
          resizing.current = prepared.catch(() => undefined);
          const sent = await prepared;
          if (controller.signal.aborted) throw new DOMException('The upload was cancelled', 'AbortError');
          dispatch({ type: 'prepared', key, size: sent.size });
          const image = await uploadPhoto(sent, {
            api,
            apiBaseUrl: API_BASE_URL,
            getAccessToken,
            signal: controller.signal,
            onProgress: (loaded, total) => dispatch({ type: 'progress', key, loaded, total }),
          });
          dispatch({ type: 'uploaded', key, image });
          return null;
        } catch (error) {
          if (isAbort(error)) return null; // removed, or the page was left
          const message = messageOf(error);
          dispatch({ type: 'failed', key, message });
          return message;
        } finally {
          running.current.delete(key);
        }
      });

      void Promise.all(uploads).then((results) => {
        if (!mounted.current) return;
        const failure = uploadFailureToast(results.filter((r): r is string => r !== null));
        if (failure) toast.error(failure);
      });
    },
    [api, getAccessToken, toast],
  );

  const remove = useCallback((key: string) => {
    running.current.get(key)?.abort();
    running.current.delete(key);
    dispatch({ type: 'removed', key });
  }, []);

  const moveFirst = useCallback((key: string) => dispatch({ type: 'moved-first', key }), []);

  /** The edit page: the product's posted photos, in their order (replaces whatever the form held). */
  const showPosted = useCallback(
    (photos: { name: string; image: PhotoImage; posted?: boolean }[]) => {
      abortAll();
      dispatch({ type: 'posted', photos: photos.map((photo) => ({ ...photo, key: `photo-${++nextKey.current}` })) });
    },
    [abortAll],
  );

  const clear = useCallback(() => {
    abortAll();
    dispatch({ type: 'cleared' });
  }, [abortAll]);

  return { state, choose, remove, moveFirst, showPosted, clear };
}
