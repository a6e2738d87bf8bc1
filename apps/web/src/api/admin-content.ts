import { useEffect, useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  authoredItem,
  CONTENT_ADMIN_API,
  videoView,
  VIDEOS_API,
  type AuthoredBody,
  type AuthoredKind,
  type SystemNotificationBody,
  type TextFormat,
  type VideoView,
} from '@cellcloud/contracts/admin-content';
import { ApiError, presentError, request } from './client';
import { getSession } from './session';
import { currentLocale } from '../i18n';

/** Content authoring of the admin console (contracts/admin-content.ts) and the public video list. */
const keys = {
  authored: (kind: AuthoredKind) => ['admin', 'content', kind] as const,
  videos: ['content', 'videos'] as const,
};

export function useAuthored(kind: AuthoredKind) {
  return useQuery({
    queryKey: keys.authored(kind),
    queryFn: () => request(CONTENT_ADMIN_API.list(kind), { schema: z.array(authoredItem) }),
  });
}

/** Public list of tutorial videos (no token needed). */
export function useVideos() {
  return useQuery({
    queryKey: keys.videos,
    queryFn: () => request(VIDEOS_API.list, { schema: z.array(videoView) }),
  });
}

/**
 * HTML of a text being edited, exactly as the public pages will get it (the server renders the
 * Markdown); asked 300 ms after the last keystroke, the previous preview stays meanwhile.
 */
export function usePreview(text: string, format: TextFormat, enabled: boolean) {
  const [settled, setSettled] = useState({ text, format });
  useEffect(() => {
    const timer = setTimeout(() => setSettled({ text, format }), 300);
    return () => clearTimeout(timer);
  }, [text, format]);
  return useQuery({
    queryKey: ['admin', 'content', 'preview', settled.format, settled.text],
    enabled,
    staleTime: Infinity,
    placeholderData: keepPreviousData,
    queryFn: () =>
      request(CONTENT_ADMIN_API.preview, {
        method: 'POST',
        body: settled,
        schema: z.object({ html: z.string() }),
      }).then((r) => r.html),
  });
}

/** After a change: the console lists, the audit log and the public content the pages read. */
function useContentMutation<V, R>(fn: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      await Promise.all([
        qc.invalidateQueries({ queryKey: ['admin'] }),
        qc.invalidateQueries({ queryKey: ['content'] }),
      ]);
    },
  });
}

/** Validation failures are shown inside the editor (400), everything else the usual way. */
const INLINE = [400];

export const useSaveAuthored = (kind: AuthoredKind) =>
  useContentMutation((v: { id?: string; body: AuthoredBody }) =>
    request(v.id ? CONTENT_ADMIN_API.item(kind, v.id) : CONTENT_ADMIN_API.list(kind), {
      method: v.id ? 'PUT' : 'POST',
      body: v.body,
      schema: authoredItem,
      handle: INLINE,
    }),
  );

export const useDeleteAuthored = (kind: AuthoredKind) =>
  useContentMutation((id: string) => request(CONTENT_ADMIN_API.item(kind, id), { method: 'DELETE' }));

export const useReorderAuthored = (kind: AuthoredKind) =>
  useContentMutation((ids: string[]) =>
    request(CONTENT_ADMIN_API.order(kind), { method: 'PUT', body: { ids }, schema: z.array(authoredItem) }),
  );

export const useUpdateVideo = () =>
  useContentMutation((v: { id: string; title: { 'en-US': string; 'zh-CN': string } }) =>
    request(CONTENT_ADMIN_API.video(v.id), {
      method: 'PUT',
      body: { title: v.title },
      schema: videoView,
      handle: INLINE,
    }),
  );

export const useDeleteVideo = () =>
  useContentMutation((id: string) => request(CONTENT_ADMIN_API.video(id), { method: 'DELETE' }));

export const useReorderVideos = () =>
  useContentMutation((ids: string[]) =>
    request(CONTENT_ADMIN_API.videoOrder, { method: 'PUT', body: { ids }, schema: z.array(videoView) }),
  );

export const useNotifyAll = () =>
  useContentMutation((body: SystemNotificationBody) =>
    request(CONTENT_ADMIN_API.notify, {
      method: 'POST',
      body,
      schema: z.object({ recipients: z.number() }),
      handle: INLINE,
    }),
  );

/**
 * Uploads a video file as one streamed request body (the browser sends the File without reading
 * it into memory), reporting progress 0–1. A 400 (wrong type, too large) rejects with the
 * server's translated message.
 */
export function uploadVideoFile(
  file: File,
  title: { 'en-US': string; 'zh-CN': string },
  onProgress: (fraction: number) => void,
): Promise<VideoView> {
  const qs = new URLSearchParams({ titleEn: title['en-US'], titleZh: title['zh-CN'] });
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${CONTENT_ADMIN_API.videos}?${qs.toString()}`);
    const token = getSession()?.token;
    if (token) xhr.setRequestHeader('access-token', token);
    xhr.setRequestHeader('x-lang', currentLocale());
    xhr.setRequestHeader('content-type', file.type || 'application/octet-stream');
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onerror = () => {
      const err = new ApiError(0, 0, 'network error');
      presentError(err);
      reject(err);
    };
    xhr.onload = () => {
      let body: { code?: number; msg?: string; data?: unknown } = {};
      try {
        body = JSON.parse(xhr.responseText) as typeof body;
      } catch {
        /* not an envelope */
      }
      if (xhr.status === 200 && body.code === 200) {
        const parsed = videoView.safeParse(body.data);
        if (parsed.success) resolve(parsed.data);
        else reject(new ApiError(502, 502, parsed.error.message));
        return;
      }
      const err = new ApiError(xhr.status, body.code ?? xhr.status, body.msg ?? xhr.statusText);
      if (xhr.status !== 400) presentError(err);
      reject(err);
    };
    xhr.send(file);
  });
}
